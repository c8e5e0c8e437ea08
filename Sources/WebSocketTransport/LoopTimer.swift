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

/// A timer armed on the loop's lws sorted-usec-list. Loop thread only.
/// Owned by `WebSocketLoop.timers`; the lws node points back to it unretained.
final class RepeatingTimer {
    let id: UInt64
    let intervalUS: Int64
    let repeats: Bool
    let tick: @Sendable () -> Void
    unowned let loop: WebSocketLoop
    private let node: UnsafeMutablePointer<clws_timer>
    private var due: Int64 = 0
    private var armed = false

    init(id: UInt64, intervalUS: Int64, repeats: Bool, loop: WebSocketLoop,
         tick: @escaping @Sendable () -> Void) {
        self.id = id
        self.intervalUS = intervalUS
        self.repeats = repeats
        self.loop = loop
        self.tick = tick
        node = .allocate(capacity: 1)
        node.initialize(to: clws_timer())
        node.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        if armed { lws_sul_cancel(sul) }
        node.deinitialize(count: 1)
        node.deallocate()
    }

    private var sul: UnsafeMutablePointer<lws_sorted_usec_list_t> {
        UnsafeMutableRawPointer(node).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }

    func arm(context: OpaquePointer, delayUS: Int64) {
        due = lws_now_usecs() + delayUS
        armed = true
        lws_sul_schedule(context, 0, sul, timerFired, delayUS)
    }

    func disarm() {
        guard armed else { return }
        armed = false
        lws_sul_cancel(sul)
    }

    fileprivate func fire() {
        guard armed else { return }
        armed = false // lws already unlinked the node before calling back
        if !repeats { loop.forgetTimer(id: id) }
        tick()
        guard repeats, let context = loop.context, loop.hasTimer(id: id) else { return }
        let now = lws_now_usecs()
        due += intervalUS
        if due <= now { due = now + intervalUS } // skip missed ticks
        armed = true
        lws_sul_schedule(context, 0, sul, timerFired, due - now)
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
