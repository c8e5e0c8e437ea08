import CamHubProtocol

/// The hub's rooms by name, and the one way into them. A room is stored
/// inline (~700 bytes), so how it is reached matters on the hot paths: the
/// rooms sit in an array and a dictionary maps each name to its index, so
/// `read` looks at a room in place (through the array's buffer; a dictionary's
/// value, or an array's element read by subscript, is copied out with a retain
/// of every reference it holds) and `update` changes it in place (a
/// dictionary's key subscript would move the whole room out and back).
///
/// Every lookup says what happens when the room is not there (an optional
/// result): no caller can assume a room that another path removed.
struct RoomTable {
    /// The rooms, in no particular order (`remove` moves the last into the gap).
    private var storage: [Room] = []
    /// Each room's index in `storage`, by its own `name` (`insert`).
    private var indices: [RoomName: Int] = [:]
    /// The rooms of every hub of the process, when this table is one of
    /// several (nil: this hub's rooms are all there is; see `RoomCount`).
    var shared: RoomCount?

    /// The rooms `maxRooms` caps: every hub's sharing `shared`, or this table's.
    var counted: Int { shared?.current ?? storage.count }

    /// How many rooms the hub holds (owned or mirrored).
    var count: Int { storage.count }

    /// Whether there is a room called `name`.
    func contains(_ name: RoomName) -> Bool { indices[name] != nil }

    /// A copy of `name`'s room (nil: none). For cold paths and tests: `read`
    /// does not copy.
    subscript(name: RoomName) -> Room? { indices[name].map { storage[$0] } }

    /// The rooms' names, in no particular order.
    var names: Dictionary<RoomName, Int>.Keys { indices.keys }

    /// The rooms, in no particular order.
    var values: [Room] { storage }

    /// What `body` makes of `name`'s room, read in place (nil: no such room).
    func read<R, E: Error>(_ name: RoomName, _ body: (Room) throws(E) -> R) throws(E) -> R? {
        guard let index = indices[name] else { return nil }
        // Through the buffer: an element read by `storage[index]` is a copy.
        return try storage.withUnsafeBufferPointer { rooms throws(E) in try body(rooms[index]) }
    }

    /// Runs `body` on `name`'s room in place (nil: no such room).
    @discardableResult
    mutating func update<R, E: Error>(_ name: RoomName, _ body: (inout Room) throws(E) -> R) throws(E) -> R? {
        guard let index = indices[name] else { return nil }
        return try body(&storage[index])
    }

    /// `update` of a room the caller found or made while handling the same
    /// message or event. It is there: only the tick removes a room (its visit,
    /// once the room has been empty for `roomTTL`), and the tick runs between
    /// messages and events, never inside one. A missing room is a bug in the hub.
    @discardableResult
    mutating func update<R, E: Error>(existing name: RoomName, _ body: (inout Room) throws(E) -> R) throws(E) -> R {
        guard let result = try update(name, body) else { preconditionFailure(Self.gone(name)) }
        return result
    }

    /// `read` of a room the caller found or made while handling the same
    /// message or event (see `update(existing:_:)`).
    func read<R, E: Error>(existing name: RoomName, _ body: (Room) throws(E) -> R) throws(E) -> R {
        guard let result = try read(name, body) else { preconditionFailure(Self.gone(name)) }
        return result
    }

    /// Why a room the caller had found cannot be gone.
    static func gone(_ name: RoomName) -> String {
        "room \(name) is gone while handling a message or event that found it: only the tick removes rooms"
    }

    /// Adds `room` under its own name. The caller checked there was none:
    /// a room is created once, and replacing it would lose its members.
    mutating func insert(_ room: Room) {
        shared?.add()
        store(room)
    }

    /// Adds `room` if fewer than `limit` rooms are counted (`counted`); false:
    /// the cap is reached and nothing changed.
    mutating func insert(_ room: Room, below limit: Int) -> Bool {
        if let shared {
            guard shared.reserve(below: limit) else { return false }
        } else {
            guard storage.count < limit else { return false }
        }
        store(room)
        return true
    }

    private mutating func store(_ room: Room) {
        precondition(indices.updateValue(storage.count, forKey: room.name) == nil, "room \(room.name) already exists")
        storage.append(room)
    }

    /// Takes `name`'s room out (nil: there was none).
    @discardableResult
    mutating func remove(_ name: RoomName) -> Room? {
        guard let index = indices.removeValue(forKey: name) else { return nil }
        shared?.release()
        if index != storage.count - 1 {
            storage.swapAt(index, storage.count - 1)
            indices[storage[index].name] = index
        }
        return storage.removeLast()
    }
}
