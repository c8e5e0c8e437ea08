import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Testing

extension HubServerTests {
    @Test func killingTheOwnerMidAnimationHandsTheRoomToAnotherHubOnceItsLeaseRunsOutWithoutAJump() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let owner = try ServeProcess(camhubPath, ["--redis", redis.url])
        defer { owner.stop(SIGKILL) }
        let presenter = try HubClients(port: owner.port).join(role: "presenter")
        _ = presenter
        let cluster = try TestCluster.hub(on: redis)
        defer { cluster.shutdown() }
        let clientsB = try HubClients(port: cluster.port)
        let follower = clientsB.join(role: "follower", rate: 60)
        let driver = clientsB.join(role: "driver")
        #expect(cluster.owns("demo") == false, "the process hub owns the room")

        driver.send(#"{"type":"animate","id":"slow","to":{"zoom":12,"lat":40,"lon":10},"duration":20}"#)
        #expect(driver.next("animation")?["status"]?.stringValue == "started")
        #expect(waitUntil { follower.frames.count >= 10 }, "moving frames from the owner")
        owner.stop(SIGKILL)
        let killed = ContinuousClock.now
        let lastBefore = try #require(follower.frames.last)

        #expect(waitUntil(.seconds(20)) { cluster.owns("demo") == true }, "hub B took the room")
        // How soon is a benchmark figure; a bound of seconds still tells a lease from a slow timeout.
        #expect(ContinuousClock.now - killed < .seconds(10), "within seconds of the lease (1.5 s) running out")
        let report = driver.next("animation")
        #expect(report?["status"]?.stringValue == "cancelled" && report?["reason"]?.stringValue == "failover", "\(String(describing: report))")
        #expect(waitUntil { follower.frames.last?.json["moving"]?.boolValue == false })
        let after = follower.frames.drop { $0.json["seq"] != lastBefore.json["seq"] }.dropFirst()
        let first = try #require(after.first, "a frame after the failover")
        #expect((first.json["seq"]?.numberValue ?? 0) > (lastBefore.json["seq"]?.numberValue ?? 0), "seq keeps increasing")
        #expect(first.json["camera"] == lastBefore.json["camera"], "no jump: \(lastBefore.text) → \(first.text)")
        #expect(report?["camera"] == lastBefore.json["camera"], "ended where the camera stands")
    }
}

extension HubServerTests {
    @Test func theMembersOfAHubKilledWithSignal9LeaveEveryRosterWithinSeconds() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let doomed = try ServeProcess(camhubPath, ["--redis", redis.url])
        defer { doomed.stop(SIGKILL) }
        let gone = try HubClients(port: doomed.port).join(role: "driver")
        let hub = try TestCluster.hub(on: redis)
        defer { hub.shutdown() }
        let watcher = try HubClients(port: hub.port).join(role: "driver")
        #expect(
            watcher.messages("welcome").first?.json["roster"]?.arrayValue?.contains { $0["client"]?.stringValue == gone.client } == true
                || watcher.nextEvent("joined")?["client"]?.stringValue == gone.client)
        doomed.stop(SIGKILL)
        let killed = ContinuousClock.now
        let left = watcher.nextEvent("left", timeout: .seconds(20))
        #expect(left?["client"]?.stringValue == gone.client)
        // How soon is a benchmark figure; a bound of seconds still tells 3 s of silence from never.
        #expect(ContinuousClock.now - killed < .seconds(15), "removed within seconds (3 s of silence)")
    }
}

extension TestCluster {
    /// One in-process hub on an already running Redis (lease 600 ms).
    static func hub(on redis: RedisServer) throws -> RunningHub {
        let endpoint = try RedisEndpoint(url: redis.url)
        let hub = try RunningHub {
            $0.redis = endpoint
            $0.leaseMilliseconds = 600
        }
        #expect(waitUntil { (try? hub.health()["redis"]?["state"]?.stringValue) == "up" })
        return hub
    }
}

extension HubServerTests {
    @Test func aKilledHubsClientsLeaveNoTraceOnTheOwner() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let hub = try TestCluster.hub(on: redis)
        defer { hub.shutdown() }
        let follower = try HubClients(port: hub.port).join(role: "follower")
        let doomed = try ServeProcess(camhubPath, ["--redis", redis.url])
        defer { doomed.stop(SIGKILL) }
        let driver = try HubClients(port: doomed.port).join(role: "driver")
        driver.send(#"{"type":"set","camera":{"zoom":8}}"#)
        #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 8 }, "the owner ran the driver's command")
        let remote = { (field: String) in (try? hub.health()["redis"]?[field]?.numberValue) ?? -1 }
        #expect(remote("remoteClients") == 1 && remote("remoteSessions") == 1, "the owner keeps a key and a session for it")

        doomed.stop(SIGKILL)
        #expect(waitUntil(.seconds(20)) { remote("remoteClients") == 0 && remote("remoteSessions") == 0 }, "both forgotten once its hub is silent")
        #expect(try hub.health()["clients"]?.numberValue == 1, "the follower alone is left: \(String(describing: try? hub.health()))")
    }
}
