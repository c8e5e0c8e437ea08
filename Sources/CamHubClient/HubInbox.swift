import Dispatch
import Foundation
import Synchronization
import WebSocketTransport

/// What one connection's client loop thread hands to the thread that reads
/// it: whether the socket opened, every message in order, then the close.
/// The loop thread only appends (`opened`, `received`, `closed`); reader
/// threads wait and take (`waitOpen`, `next`, `waitClosed`: say, one reading
/// messages while another shuts the connection down). The state is in a
/// `Mutex`; `arrived` wakes the readers waiting (each change signals it once
/// per waiter it counted, and a reader that finds nothing for it after a
/// wake-up waits again).
final class HubInbox: Sendable {
    private struct State {
        var items: [HubConnection.Item] = []
        var head = 0
        var isOpen = false
        var closeEvent: ClientCloseEvent?
        /// Readers between finding nothing and waking up.
        var waiters = 0
    }

    private let state = Mutex(State())
    private let arrived = DispatchSemaphore(value: 0)

    /// Loop thread: the WebSocket opened.
    func opened() { change { $0.isOpen = true } }

    /// Loop thread: a message arrived.
    func received(_ message: HubConnection.Received) { change { $0.items.append(.message(message)) } }

    /// Loop thread: the connection ended (the last item).
    func closed(_ event: ClientCloseEvent) {
        change {
            $0.closeEvent = event
            $0.items.append(.closed(event))
        }
    }

    /// Applies `body` and wakes every reader waiting then.
    private func change(_ body: (inout State) -> Void) {
        let waiting = state.withLock { s in
            body(&s)
            return s.waiters
        }
        for _ in 0..<waiting { arrived.signal() }
    }

    /// How the connection ended (nil: it has not).
    var closeEvent: ClientCloseEvent? { state.withLock { $0.closeEvent } }

    /// Waits until `ready` says what the state holds is enough, or until `deadline`
    /// (monotonic seconds); returns `ready`'s last answer.
    private func wait<R>(until deadline: Double, _ ready: (inout State) -> R?) -> R? {
        while true {
            let left = deadline - monotonicSeconds()
            // Looking and counting oneself a waiter under one lock: a change
            // either is seen here or counts this reader and wakes it.
            let answer: R?? = state.withLock { s in
                if let answer = ready(&s) { return .some(answer) }
                guard left > 0 else { return .some(nil) }
                s.waiters += 1
                return nil
            }
            if let answer { return answer }
            _ = arrived.wait(timeout: .now() + .nanoseconds(Int(left * 1e9)))
            state.withLock { $0.waiters -= 1 }
        }
    }

    /// Whether the socket opened by `deadline` (false: it failed, or time ran out).
    func waitOpen(until deadline: Double) -> Bool {
        wait(until: deadline) { s in s.isOpen ? true : s.closeEvent != nil ? false : nil } ?? false
    }

    /// The next message or the close, by `deadline` (nil: none in time).
    func next(until deadline: Double) -> HubConnection.Item? {
        wait(until: deadline) { s in
            guard s.head < s.items.count else { return nil }
            let item = s.items[s.head]
            s.head += 1
            if s.head > 1024 && s.head * 2 > s.items.count {
                s.items.removeFirst(s.head)
                s.head = 0
            }
            return item
        }
    }

    /// Whether the connection ended by `deadline`.
    func waitClosed(until deadline: Double) -> Bool {
        wait(until: deadline) { s in s.closeEvent == nil ? nil : true } ?? false
    }
}
