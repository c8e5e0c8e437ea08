import CLWS

/// Hand-over point from any thread to one loop thread.
///
/// Threads: `post` from any thread; `attach`, `takeAll` and `close` only on
/// the loop thread. `post` appends under the lock and wakes the loop with
/// `lws_cancel_service`, the only libwebsockets call made off the loop thread.
/// The loop drains on `LWS_CALLBACK_EVENT_WAIT_CANCELLED`. Once closed (the
/// loop is stopping and its context is about to be destroyed) `post` refuses
/// work, so no wake-up can reach a destroyed context.
final class Mailbox: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var context: OpaquePointer?
        var open = true
    }

    private let state = Locked(State())

    /// Loop thread: the context exists; wake it for work posted from now on.
    func attach(context: OpaquePointer) {
        state.withLock { s in
            s.context = context
            if !s.jobs.isEmpty { lws_cancel_service(context) }
        }
    }

    /// Any thread. Returns false (and drops `job`) once the loop is stopping.
    @discardableResult
    func post(_ job: @escaping Job) -> Bool {
        state.withLock { s in
            guard s.open else { return false }
            s.jobs.append(job)
            if let context = s.context { lws_cancel_service(context) }
            return true
        }
    }

    /// Loop thread: everything posted so far, in posting order.
    func takeAll() -> [Job] {
        state.withLock { s in
            let jobs = s.jobs
            s.jobs.removeAll(keepingCapacity: true)
            return jobs
        }
    }

    /// Loop thread, before the context is destroyed: refuse further posts.
    /// Returns the work that was never run (it is dropped).
    @discardableResult
    func close() -> Int {
        state.withLock { s in
            s.open = false
            s.context = nil
            let dropped = s.jobs.count
            s.jobs.removeAll()
            return dropped
        }
    }

    var isOpen: Bool { state.withLock { $0.open } }
}
