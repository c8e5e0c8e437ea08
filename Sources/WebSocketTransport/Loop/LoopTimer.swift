import CLWS

/// Handle to a timer created by `WebSocketLoop.scheduleRepeating` or
/// `schedule(after:)`. `cancel()` may be called from any thread; the tick
/// never runs after a `cancel()` made on the loop thread returns.
public struct LoopTimer: Sendable, Hashable {
    public let id: UInt64
    let loop: WebSocketLoop

    public func cancel() { loop.cancelTimer(id: id) }

    public static func == (a: LoopTimer, b: LoopTimer) -> Bool { a.id == b.id && a.loop === b.loop }
    public func hash(into h: inout Hasher) { h.combine(id) }
}

/// A timer on the loop thread: a libev timer when the loop runs on libev,
/// else an entry on lws's sorted-usec-list. Loop thread only. Owned by
/// `WebSocketLoop.timers`; the native node points back to it unretained.
///
/// Why not lws's list on libev too: lws 4.1 arms its one libev timer for the
/// earliest entry and does not move it earlier when a sooner entry arrives
/// (libev ignores a start on an active watcher), so a 60 Hz tick would wait
/// for whatever lws had scheduled seconds ahead.
final class RepeatingTimer {
    let id: UInt64
    let intervalUS: Int64
    let repeats: Bool
    let tick: @Sendable () -> Void
    unowned let loop: WebSocketLoop
    private enum Node {
        case lws(UnsafeMutablePointer<clws_timer>)
        case libev(UnsafeMutablePointer<clws_ev_timer>, eventLoop: UnsafeMutableRawPointer)
    }
    private let node: Node
    private var due: Int64 = 0
    private var armed = false

    init(
        id: UInt64, intervalUS: Int64, repeats: Bool, loop: WebSocketLoop,
        eventLoop: UnsafeMutableRawPointer?, tick: @escaping @Sendable () -> Void
    ) {
        self.id = id
        self.intervalUS = intervalUS
        self.repeats = repeats
        self.loop = loop
        self.tick = tick
        if let eventLoop {
            let n = UnsafeMutablePointer<clws_ev_timer>.allocate(capacity: 1)
            n.initialize(to: clws_ev_timer())
            node = .libev(n, eventLoop: eventLoop)
        } else {
            let n = UnsafeMutablePointer<clws_timer>.allocate(capacity: 1)
            n.initialize(to: clws_timer())
            node = .lws(n)
        }
        let owner = Unmanaged.passUnretained(self).toOpaque()
        switch node {
        case .lws(let n): n.pointee.owner = owner
        case .libev(let n, _): clws_ev_timer_init(n, owner, evTimerFired)
        }
    }

    deinit {
        disarm()
        switch node {
        case .lws(let n):
            n.deinitialize(count: 1)
            n.deallocate()
        case .libev(let n, _):
            n.deinitialize(count: 1)
            n.deallocate()
        }
    }

    func arm(context: OpaquePointer, delayUS: Int64) {
        due = lws_now_usecs() + delayUS
        start(context, delayUS)
    }

    func disarm() {
        guard armed else { return }
        armed = false
        switch node {
        case .lws(let n): lws_sul_cancel(Self.sul(n))
        case .libev(let n, let eventLoop): clws_ev_timer_stop(eventLoop, n)
        }
    }

    fileprivate func fire() {
        guard armed else { return }
        armed = false  // lws unlinked its node (libev stopped its one-shot) before calling back
        if !repeats { loop.forgetTimer(id: id) }
        tick()
        guard repeats, let context = loop.context, loop.hasTimer(id: id) else { return }
        let now = lws_now_usecs()
        // Keep the grid: a tick that ran late is followed by the next one on
        // schedule (at once if that time has passed), so a late tick costs no
        // tick. More than a whole interval behind, the backlog is dropped:
        // one tick now, then the grid again from there, never a burst.
        due += intervalUS
        if due < now - intervalUS { due = now }
        start(context, max(0, due - now))
    }

    private func start(_ context: OpaquePointer, _ delayUS: Int64) {
        armed = true
        switch node {
        case .lws(let n): lws_sul_schedule(context, 0, Self.sul(n), timerFired, delayUS)
        case .libev(let n, let eventLoop): clws_ev_timer_start(eventLoop, n, Double(delayUS) / 1e6)
        }
    }

    private static func sul(_ n: UnsafeMutablePointer<clws_timer>) -> UnsafeMutablePointer<lws_sorted_usec_list_t> {
        UnsafeMutableRawPointer(n).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }
}

extension WebSocketLoop {
    /// Loop thread. Implemented in terms of the (loop-confined) timer table.
    func hasTimer(id: UInt64) -> Bool { timerIsLive(id) }
}

private let timerFired: sul_cb_t = { sul in
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    let timer = Unmanaged<RepeatingTimer>.fromOpaque(owner).takeUnretainedValue()
    // Keep the timer alive through its own tick even if the tick cancels it.
    withExtendedLifetime(timer) { timer.fire() }
}

private let evTimerFired: clws_ev_timer_cb = { owner in
    guard let owner else { return }
    let timer = Unmanaged<RepeatingTimer>.fromOpaque(owner).takeUnretainedValue()
    withExtendedLifetime(timer) { timer.fire() }
}
