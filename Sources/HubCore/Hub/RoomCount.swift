import Synchronization

/// The rooms held by several hubs of one process together (a server runs a
/// hub per loop, each holding some of the rooms), so that `maxRooms` caps the
/// process, not each hub. Every hub's `RoomTable` adds and removes its own
/// rooms here; a new room is counted before it is made (`reserve`), so two
/// hubs making rooms at once cannot pass the cap between them. Any thread.
public final class RoomCount: Sendable {
    private let value = Atomic<Int>(0)

    public init() {}

    /// Rooms held now, over every hub sharing this count.
    public var current: Int { value.load(ordering: .relaxed) }

    /// Counts one room more if fewer than `limit` are counted (false: the cap is reached).
    func reserve(below limit: Int) -> Bool {
        var seen = value.load(ordering: .relaxed)
        while seen < limit {
            let (exchanged, original) = value.compareExchange(expected: seen, desired: seen + 1, ordering: .relaxed)
            if exchanged { return true }
            seen = original
        }
        return false
    }

    /// Counts one room more, whatever the cap (a room that had to be made: a mirror).
    func add() { value.add(1, ordering: .relaxed) }

    /// A room is gone.
    func release() { value.subtract(1, ordering: .relaxed) }
}
