import Testing

@testable import CamHubProtocol
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

    /// The figures are running totals (no walk over the rooms), so every way a
    /// roster changes must keep them equal to what the rooms' rosters say.
    @Test func connectionsByRoleStayExactThroughLeavesTakeoversAndExpiredRooms() {
        let bench = HubBench {
            $0.listedFollowers = 1
            $0.roomTTL = 1
        }
        func walked() -> [Role?: Int] {
            var counts: [Role?: Int] = [.presenter: 0, .driver: 0, .follower: 0]
            for room in bench.hub.rooms.values {
                let presenters = room.roster.presenter == nil ? 0 : 1
                counts[.presenter]! += presenters
                counts[.follower]! += room.roster.followerCount
                counts[.driver]! += room.roster.count - room.roster.followerCount - presenters
            }
            counts[nil] = bench.hub.counts.connections - counts.values.reduce(0, +)
            // Joined clients are a running total too (`counts`, once a second in the metrics).
            #expect(bench.hub.counts.clients == bench.hub.rooms.values.reduce(0) { $0 + $1.roster.count })
            return counts
        }
        let first = bench.join("a", role: "presenter")
        let second = bench.join("a", role: "presenter")  // takes over: the first becomes a driver
        let listed = bench.join("a", role: "follower")
        let counted = bench.join("a", role: "follower")  // counted, not listed
        let lone = bench.join("b", role: "driver")
        #expect(bench.hub.connectionsByRole == walked())
        #expect(bench.hub.connectionsByRole[.driver] == 2)

        bench.disconnect(second.key)  // the presenter leaves: the room has none
        bench.disconnect(counted.key)
        #expect(bench.hub.connectionsByRole == walked())
        #expect(bench.hub.connectionsByRole[.presenter] == 0)
        #expect(bench.hub.connectionsByRole[.follower] == 1)

        bench.disconnect(lone.key)
        bench.run(seconds: 2)  // room "b" expires
        #expect(bench.hub.counts.rooms == 1)
        bench.join("b", role: "presenter")  // a new room of the same name
        bench.disconnect(listed.key)
        bench.disconnect(first.key)
        #expect(bench.hub.connectionsByRole == walked())
        #expect(bench.hub.connectionsByRole == [.presenter: 1, .driver: 0, .follower: 0, nil: 0])
    }

    @Test func busyRoomRatesListTheMovingRoomsWithTheRatesOfEveryRoomsFigure() {
        let bench = HubBench()
        let p = bench.join("moving", role: "presenter")
        bench.join("moving", role: "follower", rate: 30)
        bench.join("still", role: "follower", rate: 30)
        bench.run(seconds: 3)
        #expect(bench.hub.busyRoomTicksPerSecond(at: bench.now).isEmpty, "every room at rest")
        // The joins visited both rooms; at rest the figure looks at none of them.
        #expect(bench.hub.recentVisits.rooms(at: bench.now).isEmpty)

        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":6}"#, from: p.key)
        bench.run(seconds: 2)
        let all = bench.hub.roomTicksPerSecond(at: bench.now)
        #expect(bench.hub.busyRoomTicksPerSecond(at: bench.now) == ["moving": 30])
        #expect(all == ["moving": 30, "still": 0])

        #expect(bench.hub.recentVisits.rooms(at: bench.now).map(\.value) == ["moving"])

        bench.run(seconds: 7)  // the animation ended; the room went to rest
        #expect(bench.hub.busyRoomTicksPerSecond(at: bench.now).isEmpty)
        #expect(bench.hub.recentVisits.rooms(at: bench.now).isEmpty)
    }
}
