import Synchronization

/// Bounds what one loop hands to the hub's loop (loop 0): the messages its
/// clients sent that loop 0 has not run yet. Opens and closes always go
/// (there are at most as many as connections); a message beyond `limit`
/// waiting is not queued: its client is closed 1013 (try again later), so
/// nothing it sent is lost silently and a stalled hub loop cannot grow the
/// queue without bound. Any thread: loop k admits, loop 0 marks each done.
final class HubMailboxGate: Sendable {
    /// Messages that may wait for loop 0 from this loop.
    let limit: Int
    private let waiting = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// Loop k: takes a place for one message; false when `limit` are waiting already.
    func admit() -> Bool {
        while true {
            let now = waiting.load(ordering: .relaxed)
            guard now < limit else { return false }
            if waiting.compareExchange(expected: now, desired: now + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    /// Loop 0: one admitted message was run.
    func done() { waiting.subtract(1, ordering: .relaxed) }

    /// Messages waiting now (any thread).
    var depth: Int { waiting.load(ordering: .relaxed) }
}
