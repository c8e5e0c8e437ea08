import CameraCore
import CameraMotion
import HubCore
import Testing

@testable import HubServer

/// What waits for the room store's writer: one write per room, the newest.
@Suite struct PendingRoomWritesTests {
    static func state(_ name: String, seq: UInt64) -> RoomState {
        RoomState(name: name, camera: .world, limits: CameraLimits(), trackingMode: .none, seq: seq)
    }

    @Test func aRoomSavedAgainBeforeTheWriterTookItWaitsOnceWithItsNewestState() {
        var pending = PendingRoomWrites()
        for seq in 1...1_000 { pending.merge(changed: [Self.state("a", seq: UInt64(seq)), Self.state("b", seq: 7)], removed: []) }
        #expect(pending.count == 2, "a thousand flushes of two rooms wait as two writes")
        let taken = pending.take()
        #expect(taken.changed == [Self.state("a", seq: 1_000), Self.state("b", seq: 7)] && taken.removed.isEmpty)
        #expect(pending.isEmpty)
    }

    @Test func theLastOfASaveAndARemovalOfOneRoomWins() {
        var pending = PendingRoomWrites()
        pending.merge(changed: [Self.state("a", seq: 1), Self.state("b", seq: 1)], removed: [])
        pending.merge(changed: [], removed: ["a"])
        pending.merge(changed: [Self.state("c", seq: 1)], removed: ["c"])  // one flush: removed, then the room came back
        let taken = pending.take()
        #expect(taken.changed == [Self.state("b", seq: 1), Self.state("c", seq: 1)])
        #expect(taken.removed == ["a"])
    }
}
