import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Testing

extension HubServerTests {
    @Test(.timeLimit(.minutes(2)))
    func whenTheRedisMasterDiesTheHubsFollowSentinelToTheNewOneWithoutAJumpOrAStaleFrame() throws {
        let group = try RedisSentinelGroup()
        defer { group.stop() }
        let endpoint = try RedisEndpoint(url: group.url)
        let hubs = try (0..<2).map { _ in
            try RunningHub {
                $0.redis = endpoint
                $0.leaseMilliseconds = 600
            }
        }
        defer { for hub in hubs { hub.shutdown() } }
        #expect(waitUntil(.seconds(20)) { hubs.allSatisfy { (try? $0.health()["redis"]?["state"]?.stringValue) == "up" } })
        let presenter = try HubClients(port: hubs[0].port).join(role: "presenter")
        let followers = try hubs.map { try HubClients(port: $0.port).join(role: "follower", rate: 60) }
        presenter.send(#"{"type":"animate","id":"climb","to":{"zoom":14},"duration":30}"#)
        #expect(presenter.next("animation")?["status"]?.stringValue == "started")
        #expect(waitUntil { followers.allSatisfy { $0.frames.count >= 10 } }, "moving frames on both hubs")

        group.master.kill9()
        let killed = ContinuousClock.now
        #expect(waitUntil(.seconds(30)) { group.masterPort() == group.replica.port }, "Sentinel promotes the replica")
        #expect(
            waitUntil(.seconds(30)) { hubs.allSatisfy { (try? $0.health()["redis"]?["state"]?.stringValue) == "up" } },
            "both hubs reach the new master")
        let report = presenter.next("animation", timeout: .seconds(20))
        #expect(report?["status"]?.stringValue == "cancelled" && report?["reason"]?.stringValue == "failover", "\(String(describing: report))")
        // The bearing, slowly: a zoom step in the frames can then only come from the failover.
        var moved = false
        for _ in 0..<5 where !moved {
            presenter.send(#"{"type":"animate","to":{"bearing":20},"duration":2}"#)
            moved = waitUntil(.seconds(5)) { followers.allSatisfy { $0.frames.last?.json["camera"]?["bearing"]?.numberValue == 20 } }
        }
        #expect(moved, "the room moves again")
        // How soon is a benchmark figure; a bound of seconds tells a failover from never.
        #expect(ContinuousClock.now - killed < .seconds(30), "within seconds of the master's death")

        for follower in followers {
            let frames = follower.frames.map(\.json)
            let zooms = frames.compactMap { $0["camera"]?["zoom"]?.numberValue }
            let steps = zip(zooms, zooms.dropFirst()).map { abs($1 - $0) }
            // The zoom moves only by the climb, 0.37 levels a second (frames 0.8 s apart would differ by 0.3);
            // resuming it after the seconds the room stood still would jump by a level or more.
            #expect(steps.allSatisfy { $0 < 0.3 }, "no jump: largest step \(steps.max() ?? 0)")
            let seqs = frames.compactMap { $0["seq"]?.numberValue }
            #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "seq only grows")
            let epochs = frames.compactMap { $0["epoch"]?.numberValue }
            #expect(zip(epochs, epochs.dropFirst()).allSatisfy { $0 <= $1 }, "no frame of an older epoch: \(Set(epochs))")
        }
    }
}
