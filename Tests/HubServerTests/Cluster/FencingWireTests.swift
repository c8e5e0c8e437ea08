import CamHubClient
import CamHubKit
import CamHubProtocol
import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    @Test func theCheckpointTakesOnlyTheWriterOfTheRoomsEpochAndNeverReadsAMissingEpochAsZero() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let script = "\"\(LeaseScripts.checkpoint)\""
        #expect(try redis.command("EVAL \(script) 2 {t}:frame {t}:epoch 1 lost {t}:frames") == ":0", "no epoch key: lease again")
        #expect(try redis.command("SET {t}:epoch 5") == "+OK")
        #expect(try redis.command("EVAL \(script) 2 {t}:frame {t}:epoch 4 stale {t}:frames") == ":0", "an owner of epoch 4 lost the room")
        #expect(try redis.command("EXISTS {t}:frame") == ":0")
        #expect(try redis.command("EVAL \(script) 2 {t}:frame {t}:epoch 5 current {t}:frames") == ":1")
        #expect(try redis.lines("GET {t}:frame") == ["$7", "current"])
        #expect(try redis.command("EVAL \(script) 2 {t}:frame {t}:epoch 6 ahead {t}:frames") == ":0", "only the room's own epoch writes")
    }

    @Test func aStalledOwnerNeverShowsItsStaleCameraAndComesBackAsAMirror() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let owner = try ServeProcess(camhubPath, ["--redis", redis.url])
        defer { owner.stop(SIGKILL) }
        let onOwner = try HubClients(port: owner.port)
        let presenter = onOwner.join(role: "presenter")
        let watcher = onOwner.join(role: "follower", rate: 60)
        let other = try TestCluster.hub(on: redis)
        defer { other.shutdown() }
        let onOther = try HubClients(port: other.port)
        let follower = onOther.join(role: "follower", rate: 60)
        let driver = onOther.join(role: "driver")
        #expect(other.owns("demo") == false)
        let firstEpoch = try #require(Int(try redis.lines("GET {demo}:epoch").last ?? ""), "the first lease has an epoch")

        // The zoom only grows while the animation runs: a frame above the last
        // one before the stall could only come from the stalled owner's clock.
        presenter.send(#"{"type":"animate","id":"climb","to":{"zoom":14},"duration":30}"#)
        #expect(presenter.next("animation")?["status"]?.stringValue == "started")
        #expect(waitUntil { watcher.frames.count >= 10 && follower.frames.count >= 10 }, "moving frames on both hubs")
        let frozenAt = owner.freeze()
        var resumed = false
        defer { if !resumed { kill(owner.process.processIdentifier, SIGCONT) } }
        let stalledAt = watcher.frames.count
        #expect(waitUntil(.seconds(20)) { other.owns("demo") == true }, "the other hub takes the room once the lease runs out")
        #expect(try redis.lines("GET {demo}:epoch").last == String(firstEpoch + 1), "the next epoch")
        let before = (follower.frames + watcher.frames).compactMap { $0.json["camera"]?["zoom"]?.numberValue }
        let highest = try #require(before.max())
        kill(owner.process.processIdentifier, SIGCONT)
        resumed = true

        #expect(waitUntil(.seconds(20)) { owner.healthOwns("demo") == false }, "the thawed owner becomes a mirror")
        driver.send(#"{"type":"set","camera":{"zoom":5}}"#)
        for (name, client) in [("owner's", watcher), ("other hub's", follower)] {
            #expect(waitUntil { client.frames.last?.json["camera"]?["zoom"]?.numberValue == 5 }, "\(name) follower follows the new owner")
        }
        let afterStall = Self.zooms(of: watcher.frames.dropFirst(stalledAt), stampedAfter: frozenAt)
        #expect(afterStall.allSatisfy { $0 <= highest || $0 == 5 }, "no stale frame on the owner's hub: \(afterStall), highest \(highest)")
        let seen = follower.frames.compactMap { $0.json["seq"]?.numberValue }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "seq only grows")
        _ = presenter
    }

    @Test func aCommandForwardedToAStalledOwnerIsAnsweredUnavailable() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        // The owner's lease is 5 s, so the other hub cannot take the room over (and run the command
        // itself) before it answers the forwarded command, even when a loaded machine starves its loop.
        let owner = try ServeProcess(camhubPath, ["--redis", redis.url, "--redis-lease", "5000"])
        defer { owner.stop(SIGKILL) }
        let presenter = try HubClients(port: owner.port).join(role: "presenter")
        // The welcome can come before the owner's lease on the room is in Redis (a loaded machine):
        // a hub that joined before then would find the room free and take it.
        #expect(waitUntil { (try? redis.command("EXISTS {demo}:owner")) == ":1" }, "the owner holds the room in Redis")
        let other = try TestCluster.hub(on: redis)
        defer { other.shutdown() }
        let driver = try HubClients(port: other.port).join(role: "driver")
        #expect(other.owns("demo") == false)
        // Stall the owner just after it renewed its lease (the other hub's lease is 600 ms: the
        // longest lease left is the owner's, 5,000 ms when renewed, renewed every 1,667 ms).
        #expect(waitUntil { Self.longestLeaseLeft(redis) >= 4000 }, "the owner's lease just renewed")

        // Frozen when every thread has stopped: `kill` returns before a loaded machine has
        // scheduled the thread that stops the others, and the owner's loop could run the command.
        _ = owner.freeze()
        defer { kill(owner.process.processIdentifier, SIGCONT) }
        let sent = ContinuousClock.now
        driver.send(#"{"type":"set","camera":{"zoom":7}}"#)
        let error = driver.nextError("unavailable")
        #expect(error?["ref"]?.stringValue == "set")
        // How soon is a benchmark figure; a bound of seconds tells an answer from silence.
        #expect(ContinuousClock.now - sent < .seconds(10), "answered within seconds (1 s to acknowledge)")
        #expect(waitUntil(.seconds(20)) { other.owns("demo") == true })
        driver.send(#"{"type":"set","camera":{"zoom":7}}"#)
        #expect(waitUntil { (try? other.camera(of: "demo")?["zoom"]?.numberValue) == 7 }, "tried again, it runs on the new owner")
        _ = presenter
    }

    @Test func anOwnerCutOffFromRedisPausesItsRoomAndAnswersUnavailableUntilItHoldsTheLeaseAgain() throws {
        let cluster = try TestCluster(hubs: 1)
        defer { cluster.shutdown() }
        let hub = cluster.hubs[0]
        let clients = try HubClients(port: hub.port)
        let presenter = clients.join(role: "presenter")
        let follower = clients.join(role: "follower")
        let port = cluster.redis.port
        cluster.redis.stop()
        #expect(waitUntil { (try? hub.health()["status"]?.stringValue) == "degraded" })
        #expect(
            waitUntil {
                presenter.send(#"{"type":"set","camera":{"zoom":2}}"#)
                return presenter.messages("error").contains { $0.json["code"]?.stringValue == "unavailable" }
            }, "once its lease may have run out, the owner runs no command")
        let shown = follower.frames.count
        presenter.send(#"{"type":"set","camera":{"zoom":3}}"#)
        #expect(waitUntil { presenter.messages("error").filter { $0.json["code"]?.stringValue == "unavailable" }.count >= 2 })
        #expect(presenter.roundTrip(), "the connection stays usable")
        #expect(follower.frames.dropFirst(shown).allSatisfy { $0.json["camera"]?["zoom"]?.numberValue != 3 }, "and the camera stays")

        let again = try RedisServer(port: port)
        defer { again.stop() }
        #expect(waitUntil(.seconds(20)) { hub.owns("demo") == true && (try? hub.health()["status"]?.stringValue) == "ok" })
        #expect(
            waitUntil(.seconds(20)) {
                presenter.send(#"{"type":"set","camera":{"zoom":4}}"#)
                return follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 4
            }, "the room moves again once the lease is held")
    }
}

extension ServeProcess {
    /// Whether `/healthz` of this hub says it runs `room`'s camera.
    func healthOwns(_ room: String) -> Bool? {
        guard let response = try? RawHTTP.request(port: port, path: "/healthz"), let json = try? JSONParser.parse(response.body) else { return nil }
        return json["rooms"]?.arrayValue?.first { $0["name"]?.stringValue == room }?["owned"]?.boolValue
    }
}

extension HubServerTests {
    @Test func aPresenterScriptRidesOutARedisRestartBySendingAgainWhatWasUnavailable() async throws {
        let cluster = try TestCluster(hubs: 1)
        defer { cluster.shutdown() }
        let hub = cluster.hubs[0]
        let presenter = try await HelloOptions(room: "demo", role: "presenter").join(HubURL(host: "127.0.0.1", port: hub.port), reconnect: nil)
        let port = cluster.redis.port
        cluster.redis.stop()
        #expect(waitUntil { hub.fenced("demo") == true }, "the owner's lease may have run out")

        // Redis comes back once the script has met `unavailable` (then it has about 8 s of retries left).
        var restarted: RedisServer?
        defer { restarted?.stop() }
        var retried: [String] = []
        let script = try PresenterScript.parse(#"{"steps":[{"type":"set","camera":{"zoom":6}}]}"#)
        let report = await PresenterRunner(
            room: presenter, script: script,
            onEvent: { event in
                guard case .retrying(let ref, _, let attempt, _) = event else { return }
                retried.append("\(ref) #\(attempt)")
                if restarted == nil { restarted = try? RedisServer(port: port) }
            }
        ).run()
        await presenter.close()
        #expect(!retried.isEmpty, "the hub answered unavailable and the script sent the command again")
        #expect(report.errors.isEmpty, "\(report.errors.map { "\($0.failure.code): \($0.failure.message)" })")
        #expect(report.retried == retried.count, "\(retried)")
        #expect(waitUntil(.seconds(20)) { (try? hub.camera(of: "demo")?["zoom"]?.numberValue) == 6 }, "and it ran once the hub held the lease again")
    }
}

extension RunningHub {
    /// Whether `/healthz` says this hub owns `room` but runs nothing until its lease is renewed.
    func fenced(_ room: String) -> Bool? {
        (try? health()["rooms"]?.arrayValue?.first { $0["name"]?.stringValue == room }?["fenced"])??.boolValue
    }
}

extension HubServerTests {
    /// The zooms of the frames stamped (`time`, epoch ms) after `instant`. A frame
    /// stamped before an owner froze may still reach a follower after it thaws (it
    /// was in the hub's send queues, as one in a socket buffer is): it is from
    /// while the owner held the room, not a stale one.
    static func zooms(of frames: some Collection<Received>, stampedAfter instant: Double) -> [Double] {
        frames.filter { ($0.json["time"]?.numberValue ?? .infinity) > instant }.compactMap { $0.json["camera"]?["zoom"]?.numberValue }
    }

    /// Milliseconds left on the longest of the hubs' leases (`hub:{id}:alive`), 0 when none is held.
    static func longestLeaseLeft(_ redis: RedisServer) -> Int {
        let keys = ((try? redis.lines("KEYS hub:*:alive")) ?? []).filter { $0.hasPrefix("hub:") }
        let left = keys.compactMap { key in (try? redis.command("PTTL \(key)")).flatMap { Int($0.dropFirst()) } }
        return left.max() ?? 0
    }
}

extension HubServerTests {
    /// The owner stalls past its lease, Redis loses every key meanwhile, and the owner comes back:
    /// no frame of its reaches a follower on any hub, and the room's checkpoint is the new
    /// owner's (a hub that joins afterwards welcomes with its camera). Its events and summons are
    /// fenced the same way (`HubFencingTests`, and the scripts' tests above).
    @Test func afterAFlushAllAStalledOwnersFramesReachNobodyAndTheCheckpointIsTheNewOwners() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let owner = try ServeProcess(camhubPath, ["--redis", redis.url])
        defer { owner.stop(SIGKILL) }
        let onOwner = try HubClients(port: owner.port)
        let presenter = onOwner.join(role: "presenter")
        let watcher = onOwner.join(role: "follower", rate: 60)
        let (second, third) = (try TestCluster.hub(on: redis), try TestCluster.hub(on: redis))
        defer { second.shutdown() }
        defer { third.shutdown() }
        let (onSecond, onThird) = (try HubClients(port: second.port), try HubClients(port: third.port))
        let followers = [watcher, onSecond.join(role: "follower", rate: 60), onThird.join(role: "follower", rate: 60)]
        let driver = onThird.join(role: "driver")

        // The zoom only grows while the animation runs: a frame above the highest one seen
        // before the stall could only come from the stalled owner.
        presenter.send(#"{"type":"animate","id":"climb","to":{"zoom":14},"duration":30}"#)
        #expect(waitUntil { followers.allSatisfy { $0.frames.count >= 10 } }, "moving frames on every hub")
        let frozenAt = owner.freeze()
        var resumed = false
        defer { if !resumed { kill(owner.process.processIdentifier, SIGCONT) } }
        let stalledAt = followers.map(\.frames.count)
        #expect(try redis.command("FLUSHALL") == "+OK")
        #expect(waitUntil(.seconds(20)) { second.owns("demo") == true || third.owns("demo") == true }, "another hub takes the room")
        // Past the stalled owner's own lease (1,500 ms by its clock; the FLUSHALL took its key
        // with it, so the room could be taken sooner).
        Thread.sleep(forTimeInterval: 2)
        let zooms = followers.flatMap { follower in follower.frames.compactMap { $0.json["camera"]?["zoom"]?.numberValue } }
        let highest = try #require(zooms.max())
        kill(owner.process.processIdentifier, SIGCONT)
        resumed = true

        #expect(waitUntil(.seconds(20)) { owner.healthOwns("demo") == false }, "the thawed owner becomes a mirror")
        driver.send(#"{"type":"set","camera":{"zoom":5}}"#)
        for (i, follower) in followers.enumerated() {
            #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 5 }, "follower \(i) follows the new owner")
            let after = Self.zooms(of: follower.frames.dropFirst(stalledAt[i]), stampedAfter: frozenAt)
            #expect(after.allSatisfy { $0 <= highest || $0 == 5 }, "follower \(i): no stale frame: \(after), highest \(highest)")
        }
        let late = try TestCluster.hub(on: redis)
        defer { late.shutdown() }
        let onLate = try HubClients(port: late.port)
        let welcome = onLate.join(role: "follower").messages("welcome").first?.json
        #expect(welcome?["camera"]?["zoom"]?.numberValue == 5, "a hub that joins later starts from the new owner's checkpoint")
        _ = presenter
    }
}
