import CameraCore
import Testing

@testable import HubCore

/// `Hub.takeChangedRoomStates`: what persistence reads once a second costs
/// O(rooms changed), nothing while every room is at rest.
@Suite struct HubChangedRoomsTests {
    @Test func aTakeWithNothingChangedBuildsNoRoomState() {
        let bench = HubBench { $0.tracksChangedRooms = true }
        for i in 0..<50 { _ = bench.join("room\(i)", role: "follower") }
        bench.run(seconds: 5)
        #expect(bench.hub.takeChangedRoomStates().changed.count == 50, "every new room is saved once")
        bench.run(seconds: 3)
        let built = bench.hub.roomStatesBuilt
        let taken = bench.hub.takeChangedRoomStates()
        #expect(taken.changed.isEmpty && taken.removed.isEmpty)
        #expect(bench.hub.roomStatesBuilt == built, "no room was read")
    }

    @Test func aCommandMarksOnlyItsOwnRoom() {
        let bench = HubBench { $0.tracksChangedRooms = true }
        let driver = bench.join("moved", role: "driver").key
        for i in 0..<5 { _ = bench.join("still\(i)", role: "follower") }
        bench.run(seconds: 2)
        _ = bench.hub.takeChangedRoomStates()
        bench.send(#"{"type":"set","camera":{"zoom":7.25}}"#, from: driver)
        bench.run(seconds: 1)
        let taken = bench.hub.takeChangedRoomStates()
        #expect(taken.changed.map(\.name) == ["moved"])
        #expect(taken.changed.first?.camera.zoom == 7.25)
    }

    @Test func anExpiredRoomIsTakenAsRemoved() {
        let bench = HubBench {
            $0.roomTTL = 1
            $0.tracksChangedRooms = true
        }
        let follower = bench.join("brief", role: "follower").key
        bench.run(seconds: 0.5)
        _ = bench.hub.takeChangedRoomStates()
        bench.disconnect(follower)
        bench.run(seconds: 1.5)
        let taken = bench.hub.takeChangedRoomStates()
        #expect(taken.removed == ["brief"])
        #expect(taken.changed.isEmpty)
    }

    @Test func aHubThatKeepsNoRoomsNotesNoChangesSoRoomNamesDoNotPileUp() {
        let bench = HubBench { $0.roomTTL = 1 }
        for i in 0..<200 {
            let follower = bench.join("call\(i)", role: "follower").key
            bench.run(seconds: 0.05)
            bench.disconnect(follower)
        }
        bench.run(seconds: 2)
        #expect(bench.hub.counts.rooms == 0, "every room expired")
        #expect(bench.hub.changedRooms.isEmpty, "nothing drains the set without persistence")
    }
}
