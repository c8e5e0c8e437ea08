import Synchronization

/// A value guarded by a `Synchronization.Mutex`, shared by reference between
/// threads (a `Mutex` itself cannot be copied into the closures that share it).
///
/// The only cross-thread state in this module lives in `Locked` values
/// (the mailbox, thread bookkeeping, id counters); everything else is owned
/// by one loop thread. The client library's load tester uses it too.
/// The value need not be `Sendable` (the mailbox keeps a C context pointer):
/// it is handed over to the mutex (`sending`) and only ever reached under it.
public final class Locked<State>: Sendable {
    private let mutex: Mutex<State>

    public init(_ state: sending State) {
        mutex = Mutex(state)
    }

    /// Runs `body` with the value, holding the lock (do not call back into this `Locked` from it).
    public func withLock<R: Sendable, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        try mutex.withLock { (state: inout State) throws(E) -> R in try body(&state) }
    }
}
