import Synchronization

/// Bounds what the Redis thread hands to the hub's loop: replies, published
/// messages and link changes that its hub's loop has not run yet.
///
/// The rule when full: beyond `limit` waiting, a published *moving* frame of
/// another hub's room (not a corner, not a prompt) is shed and counted: the
/// owner's next frame supersedes it, as the owner's own shedding does on the
/// way out (`RedisClient.sheddingFrom`). Everything else always goes:
/// replies (at most the commands in flight), resting frames (the camera
/// mirrors end on), commands, presence, events and the server API's
/// messages, each a few a second per room or bounded by its sender's rate
/// limits. A hub's loop that stalls therefore holds at most `limit` events plus
/// those.
///
/// Any thread: the Redis thread admits, the hub's loop marks each event it ran.
public final class RedisInbox: Sendable {
    /// Events that may wait for the hub's loop before moving frames are shed.
    public let limit: Int
    private let waiting = Atomic<Int>(0)
    private let shedFrames = Atomic<Int>(0)

    public init(limit: Int) { self.limit = max(1, limit) }

    /// Redis thread: takes a place for one event; false (and counted) when it
    /// is `sheddable` and `limit` are waiting already.
    public func admit(sheddable: Bool = false) -> Bool {
        if sheddable && waiting.load(ordering: .relaxed) >= limit {
            shedFrames.add(1, ordering: .relaxed)
            return false
        }
        waiting.add(1, ordering: .relaxed)
        return true
    }

    /// The hub's loop: one admitted event was run.
    public func done() { waiting.subtract(1, ordering: .relaxed) }

    /// Events waiting now (any thread).
    public var depth: Int { waiting.load(ordering: .relaxed) }

    /// Moving frames shed so far (any thread).
    public var shed: Int { shedFrames.load(ordering: .relaxed) }
}
