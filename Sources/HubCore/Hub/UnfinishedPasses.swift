import CamHubProtocol
import DequeModule

/// Rooms whose send pass ran out of budget, in the order they did: the tick
/// and `continueSending` go on with the oldest first.
///
/// Every operation is O(1) (amortized): a tick may leave thousands of passes
/// unfinished, and each room's visit asks whether its own pass is among them.
/// (An array made each visit a walk over the queue, comparing room names:
/// with 2,000 moving rooms behind, that walk took a third of the hub's CPU.)
/// A room taken out of the middle leaves its entry in the order; the entry
/// is skipped when it reaches the front, since the room's current pass (if it
/// was queued again) carries a newer number.
struct UnfinishedPasses {
    private var order = Deque<(room: RoomName, number: UInt64)>()
    /// Each queued room and the number of its entry in `order`.
    private var members: [RoomName: UInt64] = [:]
    private var nextNumber: UInt64 = 0

    var isEmpty: Bool { members.isEmpty }
    /// Rooms with a pass under way.
    var count: Int { members.count }

    /// Queues `room` behind the others, unless its pass is queued already.
    mutating func append(_ room: RoomName) {
        guard members[room] == nil else { return }
        nextNumber += 1
        members[room] = nextNumber
        order.append((room, nextNumber))
    }

    /// Takes `room` out, wherever it is.
    mutating func remove(_ room: RoomName) {
        members[room] = nil
        if members.isEmpty { order.removeAll(keepingCapacity: true) }
    }

    /// The oldest unfinished pass (entries of rooms taken out are dropped on the way).
    mutating func first() -> RoomName? {
        while let entry = order.first {
            if members[entry.room] == entry.number { return entry.room }
            order.removeFirst()
        }
        return nil
    }

    /// Takes out the oldest (the room `first()` returns).
    mutating func removeFirst() {
        guard let room = first() else { return }
        order.removeFirst()
        members[room] = nil
    }
}
