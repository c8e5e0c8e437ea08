import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// Several hubs sharing one real `redis-server` (`--redis`): one room across them.
extension HubServerTests {
    @Test func framesOfTheOwnerReachFollowersOnTwoOtherHubsEndingOnTheExactCamera() throws {
        let cluster = try TestCluster(hubs: 3)
        defer { cluster.shutdown() }
        let (a, b, c) = (cluster.hubs[0], cluster.hubs[1], cluster.hubs[2])
        let presenter = try HubClients(port: a.port).join(role: "presenter")
        #expect(a.owns("demo") == true)
        let followerB = try HubClients(port: b.port).join(role: "follower", rate: 30)
        let followerC = try HubClients(port: c.port).join(role: "follower", rate: 10)
        #expect(b.owns("demo") == false && c.owns("demo") == false, "the first hub owns the room, the others mirror it")

        presenter.send(#"{"type":"ease","id":"e","camera":\#(Self.easeTarget),"duration":0.5}"#)
        #expect(presenter.next("animation")?["status"]?.stringValue == "started")
        #expect(presenter.next("animation", timeout: .seconds(20))?["status"]?.stringValue == "finished")
        for follower in [followerB, followerC] {
            #expect(waitUntil(.seconds(20)) { follower.frames.last?.json["moving"]?.boolValue == false })
            let frames = follower.frames
            #expect(frames.contains { $0.json["moving"]?.boolValue == true }, "frames while it moved: \(frames.count)")
            let seqs = frames.compactMap { $0.json["seq"]?.numberValue }
            #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "seq only increases: \(seqs)")
            #expect(Self.isEaseTarget(frames.last?.json["camera"]), "\(frames.last?.text ?? "")")
            #expect(frames.last?.json["corner"]?.boolValue == true, "the resting frame is the corner where the ease ended, on every hub")
            #expect(frames.dropLast().allSatisfy { $0.json["velocity"]?["zoom"]?.numberValue != nil }, "moving frames carry the owner's velocity")
        }
        #expect(try a.camera(of: "demo") == followerB.frames.last?.json["camera"], "the owner's camera, exactly")
        #expect(try b.camera(of: "demo") == followerB.frames.last?.json["camera"], "the mirror's state is the owner's")
    }

    @Test func driverOnAnotherHubMovesTheOwnersCameraAndAloneGetsItsAnswers() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        let follower = try HubClients(port: a.port).join(role: "follower")
        #expect(a.owns("demo") == true)
        let clientsB = try HubClients(port: b.port)
        let driver = clientsB.join(role: "driver")
        let bystander = clientsB.join(role: "driver")

        driver.send(#"{"type":"set","camera":{"zoom":7,"lat":10,"lon":20}}"#)
        #expect(waitUntil { (try? a.camera(of: "demo"))??["zoom"]?.numberValue == 7 }, "the owner runs the mirror's driver")
        #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 7 })
        #expect(waitUntil { driver.frames.last?.json["camera"]?["lat"]?.numberValue == 10 }, "and its frames come back to hub B")

        driver.send(#"{"type":"cancel","id":"nope"}"#)
        #expect(driver.nextError("unknown_animation")?["ref"]?.stringValue == "nope")
        driver.send(#"{"type":"ease","id":"e1","camera":{"zoom":9},"duration":0.3}"#)
        #expect(driver.next("animation")?["status"]?.stringValue == "started")
        #expect(driver.next("animation", timeout: .seconds(20))?["status"]?.stringValue == "finished")
        #expect(bystander.roundTrip())
        #expect(
            bystander.messages("error").isEmpty && bystander.messages("animation").isEmpty,
            "answers meant for one client reach it only")
    }

    @Test func limitsSetOnTheOwnerReachMembersOfAnotherHubAsEventAndInWelcome() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let presenter = try HubClients(port: cluster.hubs[0].port).join(role: "presenter")
        let clientsB = try HubClients(port: cluster.hubs[1].port)
        let follower = clientsB.join(role: "follower")
        presenter.send(#"{"type":"limits","maxZoom":10}"#)
        #expect(follower.nextEvent("limitsChanged")?["limits"]?["maxZoom"]?.numberValue == 10)
        let later = clientsB.join(role: "follower")
        #expect(later.messages("welcome").first?.json["limits"]?["maxZoom"]?.numberValue == 10)
    }

    @Test func clientIDsAreUniqueAcrossHubs() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let first = try HubClients(port: cluster.hubs[0].port).join(role: "follower")
        let second = try HubClients(port: cluster.hubs[1].port).join(role: "follower")
        let ids = [first.client, second.client].compactMap { $0 }
        #expect(ids.count == 2 && ids[0] != ids[1], "\(ids)")
    }

    @Test func aMirrorTakesTheRoomOverWhenItsOwnerStopsAndTheCameraGoesOnWithoutAJump() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        let presenter = try HubClients(port: a.port).join(role: "presenter")
        let follower = try HubClients(port: b.port).join(role: "follower")
        presenter.send(#"{"type":"set","camera":{"zoom":5,"lat":1,"lon":2}}"#)
        #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 5 })
        let before = try #require(follower.frames.last)

        a.shutdown()  // a clean stop gives the lease up
        #expect(waitUntil(.seconds(20)) { b.owns("demo") == true }, "hub B took the lease")
        let driver = try HubClients(port: b.port).join(role: "driver")
        driver.send(#"{"type":"set","camera":{"zoom":6}}"#)
        #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 6 })
        let after = follower.frames.drop { $0.json["seq"] != before.json["seq"] }.dropFirst()
        let first = try #require(after.first)
        #expect((first.json["seq"]?.numberValue ?? 0) > (before.json["seq"]?.numberValue ?? 0), "seq keeps increasing")
        #expect(first.json["camera"]?["lat"] == before.json["camera"]?["lat"], "the camera goes on from the last frame")
    }

    @Test func clientsStayConnectedWhileRedisIsDownAndHealthzSaysDegraded() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        let presenter = try HubClients(port: a.port).join(role: "presenter")
        let follower = try HubClients(port: b.port).join(role: "follower")
        let port = cluster.redis.port
        cluster.redis.stop()
        #expect(waitUntil { (try? a.health()["status"]?.stringValue) == "degraded" })
        // Each hub (each loop's link) learns of it when its own connection drops.
        #expect(waitUntil { (try? b.health()["redis"]?["state"]?.stringValue) == "down" })
        #expect(try b.health()["engine"]?.stringValue == "redis")
        #expect(presenter.roundTrip() && follower.roundTrip(), "connected clients stay connected")

        let again = try RedisServer(port: port)
        defer { again.stop() }
        #expect(
            waitUntil(.seconds(20)) { (try? a.health()["status"]?.stringValue) == "ok" && (try? b.health()["status"]?.stringValue) == "ok" },
            "both hubs reconnect")
        #expect(
            waitUntil(.seconds(20)) { [a.owns("demo"), b.owns("demo")].filter { $0 == true }.count == 1 },
            "the room converges on one owner")
        presenter.send(#"{"type":"set","camera":{"zoom":4}}"#)
        #expect(waitUntil(.seconds(20)) { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 4 }, "and one camera")
    }

    @Test func aHubWithoutRedisSaysItsEngineIsMemory() throws {
        let hub = try RunningHub()
        let health = try hub.health()
        #expect(health["engine"]?.stringValue == "memory")
        #expect(health["status"]?.stringValue == "ok")
    }
}

extension HubServerTests {
    @Test func aMessageNoHubCanReadOnARoomChannelIsCountedAndDroppedAndTheRoomGoesOn() throws {
        let cluster = try TestCluster(hubs: 1)
        defer { cluster.shutdown() }
        let hub = cluster.hubs[0]
        let clients = try HubClients(port: hub.port)
        let presenter = clients.join(role: "presenter")
        let follower = clients.join(role: "follower")
        #expect(try cluster.redis.command("SPUBLISH {demo}:frames not-a-hub-message") == ":1", "the hub listens on the room's channel")
        #expect(waitUntil { (try? hub.health()["redis"]?["undecodable"]?.numberValue) == 1 }, "counted in /healthz")
        presenter.send(#"{"type":"set","camera":{"zoom":3}}"#)
        #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 3 }, "and the room goes on")
    }
}
