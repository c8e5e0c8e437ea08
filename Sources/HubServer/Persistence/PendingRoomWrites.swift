import HubCore

/// The room store's writes not yet made, at most one per room: a room saved
/// again before the writer got to it replaces its earlier state, and a
/// removal replaces a save (and the other way round). However long the disk
/// stalls, what waits is bounded by the number of rooms.
struct PendingRoomWrites {
    /// Room name → its newest state, or nil when it is to be removed.
    private var writes: [String: RoomState?] = [:]

    /// Rooms waiting to be written or removed.
    var count: Int { writes.count }
    var isEmpty: Bool { writes.isEmpty }

    /// Adds a flush's changes over what waits already (newest wins per room).
    mutating func merge(changed: [RoomState], removed: [String]) {
        for name in removed { writes[name] = .some(nil) }
        for state in changed { writes[state.name] = .some(state) }
    }

    /// Everything waiting, as one save (rooms in name order), and nothing waits after.
    mutating func take() -> (changed: [RoomState], removed: [String]) {
        let taken = writes.sorted { $0.key < $1.key }
        writes.removeAll(keepingCapacity: true)
        return (taken.compactMap(\.value), taken.filter { $0.value == nil }.map(\.key))
    }
}
