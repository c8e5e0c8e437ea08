import Synchronization

/// Bounds what one loop hands to other loops' hubs: the messages its clients
/// sent that the hub of their room's loop has not run yet. Opens, closes and
/// the `hello` that hands a client over always go (at most one each per
/// connection, or per room asked); a message beyond `limit` waiting is not
/// queued: its client is closed 1013 (try again later), so nothing it sent
/// is lost silently and a stalled loop cannot grow the queue without bound.
/// Any thread: the client's loop admits, the loop that runs the message marks it done.
final class HubMailboxGate: Sendable {
    /// Messages that may wait for other loops' hubs from this loop.
    let limit: Int
    private let waiting = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// The client's loop: takes a place for one message; false when `limit` are waiting already.
    func admit() -> Bool {
        while true {
            let now = waiting.load(ordering: .relaxed)
            guard now < limit else { return false }
            if waiting.compareExchange(expected: now, desired: now + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    /// The hub's loop: one admitted message was run.
    func done() { waiting.subtract(1, ordering: .relaxed) }

    /// Messages waiting now (any thread).
    var depth: Int { waiting.load(ordering: .relaxed) }
}
