import Dispatch
import Synchronization
import WebSocketTransport

/// The hub of every loop (`HubServer.State`, one per loop, each in a
/// `LoopBound` on its loop) and where rooms live among them (`placement`).
/// Any thread may post work to a loop's hub; only that loop runs it.
struct LoopHubs: Sendable {
    let states: [LoopBound<HubServer.State>]
    let placement: RoomPlacement

    var count: Int { states.count }

    /// Runs `work` with loop `index`'s hub, later, on that loop (in posting
    /// order from any one thread). False: that loop has stopped, and `work` will not run.
    @discardableResult
    func post(to index: Int, _ work: @escaping @Sendable (HubServer.State) -> Void) -> Bool {
        let state = states[index]
        return state.loop.execute { work(state.value) }
    }

    /// Runs `part` with every loop's hub, each on its own loop, then `combine`
    /// on loop 0 with the parts in loop order (a loop that has stopped gives
    /// none; `LoopPart`s add up with `sum`). No loop waits for another: each
    /// hands its part over and goes on.
    func gather<Part: Sendable>(
        _ part: @escaping @Sendable (HubServer.State) -> Part,
        then combine: @escaping @Sendable (HubServer.State, [Part]) -> Void
    ) {
        let parts = Mutex<[Part?]>(Array(repeating: nil, count: states.count))
        let left = Atomic<Int>(states.count)
        let first = states[0]
        @Sendable func arrived() {
            guard left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
            _ = first.loop.execute { combine(first.value, parts.withLock { $0.compactMap { $0 } }) }
        }
        for (index, state) in states.enumerated() {
            let posted = state.loop.execute {
                let mine = part(state.value)
                parts.withLock { $0[index] = mine }
                arrived()
            }
            if !posted { arrived() }
        }
    }

    /// Off the loops: returns once every loop has run what was posted to it
    /// before, `hops` times over (work a loop passes on to another, such as a
    /// close following its client's hand-over, takes a hop each), or after a
    /// second per hop. For shutdown, between the drain and the stop.
    func settle(hops: Int) {
        for _ in 0..<hops {
            let done = DispatchSemaphore(value: 0)
            let posted = states.filter { state in state.loop.execute { done.signal() } }.count
            let deadline = DispatchTime.now() + 1
            for _ in 0..<posted where done.wait(timeout: deadline) == .timedOut { return }
        }
    }
}

/// One loop's share of a figure the hub reports whole (`/healthz`, `/metrics`):
/// the loops' parts add up with `+`.
protocol LoopPart: Sendable {
    static func + (a: Self, b: Self) -> Self
}

extension Array where Element: LoopPart {
    /// Every loop's part added up; nil when no loop gave one.
    var sum: Element? { first.map { dropFirst().reduce($0, +) } }
}
