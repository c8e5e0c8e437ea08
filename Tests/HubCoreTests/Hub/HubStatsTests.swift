import Testing

@testable import HubCore

/// The once-a-second figures of the metrics endpoint: connections by role and
/// the rooms' tick rates, read from the rooms without walking every session.
@Suite("Hub: operations figures")
struct HubStatsTests {
    @Test func connectionsByRoleCountsEachRoleAcrossRoomsAndTheUnjoined() {
        let bench = HubBench { $0.listedFollowers = 1 }
        let first = bench.join("a", role: "presenter")
        bench.join("a", role: "presenter")  // takes over: the first becomes a driver
        bench.join("a", role: "driver")
        bench.join("a", role: "follower")
        bench.join("a", role: "follower")  // counted, not listed
        bench.join("b", role: "follower")
        _ = bench.connect()  // no hello yet
        var counts = bench.hub.connectionsByRole
        #expect(counts[.presenter] == 1)
        #expect(counts[.driver] == 2)
        #expect(counts[.follower] == 3)
        #expect(counts[nil] == 1)

        bench.disconnect(first.key)
        counts = bench.hub.connectionsByRole
        #expect(counts[.driver] == 1)
        #expect(counts.values.reduce(0, +) == bench.hub.counts.connections)
    }

    @Test func busyRoomRatesListTheMovingRoomsWithTheRatesOfEveryRoomsFigure() {
        let bench = HubBench()
        let p = bench.join("moving", role: "presenter")
        bench.join("moving", role: "follower", rate: 30)
        bench.join("still", role: "follower", rate: 30)
        bench.run(seconds: 3)
        #expect(bench.hub.busyRoomTicksPerSecond(at: bench.now).isEmpty, "every room at rest")

        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":6}"#, from: p.key)
        bench.run(seconds: 2)
        let all = bench.hub.roomTicksPerSecond(at: bench.now)
        #expect(bench.hub.busyRoomTicksPerSecond(at: bench.now) == ["moving": 30])
        #expect(all == ["moving": 30, "still": 0])

        bench.run(seconds: 7)  // the animation ended; the room went to rest
        #expect(bench.hub.busyRoomTicksPerSecond(at: bench.now).isEmpty)
    }
}
