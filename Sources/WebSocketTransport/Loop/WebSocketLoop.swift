import CLWS
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An error starting a server or client (context creation, bind failure).
public struct TransportError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One dedicated thread that owns one `lws_context` and every `wsi` in it.
///
/// libwebsockets is not thread-safe, so nothing here touches lws off this
/// thread except `lws_cancel_service` (inside `Mailbox.post`). Other threads
/// hand work over with `execute`; the loop runs it on
/// `LWS_CALLBACK_EVENT_WAIT_CANCELLED`. Timers are lws sorted-usec-list
/// entries serviced by the same thread (no busy loop, no extra thread).
///
/// A `WebSocketServer` or `WebSocketClient` owns exactly one loop; reach it
/// through their `loop` property.
///
/// `@unchecked Sendable` because of its loop-thread state: `context`, `running`,
/// `timers` and `eventLoop` are touched only on the loop thread, and `backend` is
/// written there before `ready` lets the starting thread go on. Other threads
/// reach the loop only through `mailbox`, `threadState` and `timerIDs` (locked)
/// and `runningThread` (atomic).
public final class WebSocketLoop: @unchecked Sendable {
    let mailbox = Mailbox()
    let name: String

    private struct ThreadState {
        var thread: pthread_t?
        var joined = false
        /// The thread has returned from `pthread_join`: its state is quiet for good.
        var ended = false
    }
    private let threadState = Locked(ThreadState())
    private let timerIDs = Locked<UInt64>(0)
    /// The loop thread's `pthread_t` (0 before it starts): read on every
    /// `isCurrentThread`, which sends ask per message, so an atomic, not a lock.
    private let runningThread = Atomic<UInt>(0)

    // MARK: loop-thread state (touched only by the loop thread)
    /// The context; nil before start and after teardown. Loop thread only.
    private(set) var context: OpaquePointer?
    private var running = false
    private var timers: [UInt64: RepeatingTimer] = [:]
    /// The libev loop lws runs on (nil: lws's own poll() loop). Loop thread only.
    private var eventLoop: UnsafeMutableRawPointer?
    /// Loop thread: the libev loop lws runs on (nil on lws's own poll loop).
    var libevLoop: UnsafeMutableRawPointer? { eventLoop }
    /// `lws_context_creation_info.foreign_loops` points here (one entry per service thread).
    private let foreignLoops = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)

    init(name: String) {
        self.name = name
        foreignLoops.initialize(to: nil)
    }

    deinit { foreignLoops.deallocate() }

    /// Which event loop lws runs on: "libev/epoll" (normal), or "poll" when
    /// libev or lws's libev plugin is missing. Loop thread (or after start).
    public private(set) var backend = "poll"

    /// Loop thread, from `createContext`: makes lws run on this loop's libev
    /// loop. lws's own loop calls poll() over every connection on each wakeup,
    /// which at thousands of sockets costs more than the traffic; libev's
    /// epoll backend only looks at sockets that are ready.
    func configure(_ info: inout lws_context_creation_info) {
        guard let eventLoop else { return }
        foreignLoops.pointee = eventLoop
        info.foreign_loops = foreignLoops
        info.options |= clws_option_libev()
    }

    /// True when called on this loop's thread (any thread may ask).
    public var isCurrentThread: Bool {
        let thread = runningThread.load(ordering: .acquiring)
        return thread != 0 && pthread_equal(pthread_t(thread), pthread_self()) != 0
    }

    /// Any thread: run `work` on the loop thread, later (never inline, even
    /// when called on the loop thread). Work runs in posting order. Returns
    /// false, dropping `work`, once the loop has begun stopping.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        mailbox.post(work)
    }

    /// Any thread: call `tick` on the loop thread every `interval` until the
    /// returned timer is cancelled or the loop stops. Ticks stay on the
    /// grid: after a late tick the next one runs on schedule (at once if its
    /// time has passed); ticks missed by more than one interval are skipped,
    /// never replayed in a burst.
    @discardableResult
    public func scheduleRepeating(
        every interval: Duration,
        _ tick: @escaping @Sendable () -> Void
    ) -> LoopTimer {
        let id = nextTimerID()
        let micros = max(Int64(1), Self.microseconds(interval))
        onLoop { self.installTimer(id: id, intervalUS: micros, repeats: true, tick: tick) }
        return LoopTimer(id: id, loop: self)
    }

    /// Any thread: call `work` once on the loop thread after `delay`.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> LoopTimer {
        let id = nextTimerID()
        let micros = max(Int64(0), Self.microseconds(delay))
        onLoop { self.installTimer(id: id, intervalUS: micros, repeats: false, tick: work) }
        return LoopTimer(id: id, loop: self)
    }

    /// Runs `work` inline when already on the loop thread, else posts it.
    func onLoop(_ work: @escaping @Sendable () -> Void) {
        if isCurrentThread { work() } else { mailbox.post(work) }
    }

    // MARK: lifecycle (used by server and client)

    /// Starts the thread, which calls `createContext` (on the loop thread,
    /// so the context is born where it lives). Blocks until the context
    /// exists or creation failed. `beforeDestroy` runs on the loop thread
    /// after the loop stopped but before `lws_context_destroy`;
    /// `afterDestroy` runs last (also when creation failed). `afterEachPass`
    /// runs on the loop thread after every pass of the event loop (the
    /// events, timers and posted work of one wake-up), before it waits again.
    func start(
        createContext: @escaping () -> OpaquePointer?,
        beforeDestroy: @escaping () -> Void,
        afterDestroy: @escaping () -> Void,
        afterEachPass: @escaping () -> Void = {}
    ) throws {
        let ready = DispatchSemaphore(value: 0)
        let outcome = Locked<Bool>(false)
        let body = ThreadBody { [self] in
            self.threadMain(
                createContext: createContext,
                beforeDestroy: beforeDestroy,
                afterDestroy: afterDestroy,
                afterEachPass: afterEachPass
            ) { ok in
                outcome.withLock { $0 = ok }
                ready.signal()
            }
        }
        let box = Unmanaged.passRetained(body).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
                body.run()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            throw TransportError("\(name): pthread_create failed (\(rc))")
        }
        threadState.withLock { $0.thread = thread }
        ready.wait()
        if !outcome.withLock({ $0 }) {
            join()
            throw TransportError("\(name): lws_create_context failed (bind error or bad configuration)")
        }
    }

    /// Loop thread: leave the service loop after the current iteration.
    func stop() {
        running = false
    }

    /// Any thread but the loop thread: wait for the thread to end. No-op on
    /// the loop thread itself (a thread cannot join itself) and after the
    /// first join.
    func join() {
        guard !isCurrentThread else { return }
        let thread: pthread_t? = threadState.withLock { s in
            guard !s.joined, let t = s.thread else { return nil }
            s.joined = true
            return t
        }
        if let thread {
            pthread_join(thread, nil)
            threadState.withLock { $0.ended = true }
        }
    }

    /// Any thread: true once a `join` has seen the loop thread end.
    public var hasEnded: Bool { threadState.withLock { $0.ended } }

    /// Loop thread: run everything posted so far (called on EVENT_WAIT_CANCELLED).
    func runPostedWork() {
        for job in mailbox.takeAll() { job() }
    }

    private func threadMain(
        createContext: () -> OpaquePointer?,
        beforeDestroy: () -> Void,
        afterDestroy: () -> Void,
        afterEachPass: () -> Void,
        ready: (Bool) -> Void
    ) {
        threadState.withLock { $0.thread = pthread_self() }
        runningThread.store(UInt(pthread_self()), ordering: .releasing)
        setThreadName()
        eventLoop = WebSocketTransportSettings.useLibev ? clws_ev_loop_new() : nil
        var created = createContext()
        if created == nil, let loop = eventLoop {
            // lws's libev plugin may be missing: try its own poll() loop before giving up.
            eventLoop = nil
            created = createContext()
            if created != nil {
                let warning = "\(name): libwebsockets could not use libev (is libwebsockets-evlib-ev installed?); using poll()\n"
                _ = warning.withCString { write(2, $0, strlen($0)) }
            }
            clws_ev_loop_destroy(loop)
        }
        guard let ctx = created else {
            if let loop = eventLoop {
                clws_ev_loop_destroy(loop)
                eventLoop = nil
            }
            mailbox.close()
            afterDestroy()
            ready(false)
            return
        }
        context = ctx
        running = true
        mailbox.attach(context: ctx)
        if let loop = eventLoop {
            backend = "libev/" + String(cString: clws_ev_backend_name(loop))
            // lws services its own timers (timeouts, keepalive pings) only after
            // socket events or when its libev timer fires, and that timer can be
            // armed for a later entry (see RepeatingTimer). Waking lws's loop
            // every 100 ms bounds how late they run on a quiet loop.
            installTimer(
                id: nextTimerID(),
                intervalUS: Self.lwsTimerPumpUS, repeats: true
            ) { [unowned self] in
                if let context = self.context { lws_cancel_service(context) }
            }
        }
        ready(true)
        runPostedWork()
        afterEachPass()
        while running {
            if let loop = eventLoop {
                _ = clws_ev_run_once(loop)
            } else if lws_service(ctx, 0) < 0 {
                break
            }
            afterEachPass()
        }
        running = false
        mailbox.close()
        for timer in timers.values { timer.disarm() }
        timers.removeAll()
        beforeDestroy()
        lws_context_destroy(ctx)
        context = nil
        if let loop = eventLoop {
            clws_ev_loop_destroy(loop)
            eventLoop = nil
        }
        afterDestroy()
    }

    private func setThreadName() {
        String(name.prefix(15)).withCString { clws_set_thread_name($0) }
    }

    // MARK: timers (loop thread)

    private func installTimer(
        id: UInt64, intervalUS: Int64, repeats: Bool,
        tick: @escaping @Sendable () -> Void
    ) {
        guard let context else { return }
        let timer = RepeatingTimer(
            id: id, intervalUS: intervalUS, repeats: repeats,
            loop: self, eventLoop: eventLoop, tick: tick)
        timers[id] = timer
        timer.arm(context: context, delayUS: intervalUS)
    }

    func cancelTimer(id: UInt64) {
        onLoop { [self] in
            guard let timer = timers.removeValue(forKey: id) else { return }
            timer.disarm()
        }
    }

    /// Loop thread, from `RepeatingTimer.fire`: a one-shot timer is done.
    func forgetTimer(id: UInt64) {
        timers.removeValue(forKey: id)
    }

    /// Loop thread: whether the timer is still installed (not cancelled).
    func timerIsLive(_ id: UInt64) -> Bool {
        timers[id] != nil
    }

    /// How often a libev loop wakes lws to run its internal timers (µs).
    static let lwsTimerPumpUS: Int64 = 100_000

    /// A fresh timer id (any thread).
    private func nextTimerID() -> UInt64 {
        timerIDs.withLock { next -> UInt64 in
            next += 1
            return next
        }
    }

    static func microseconds(_ d: Duration) -> Int64 {
        let (seconds, attos) = d.components
        return seconds * 1_000_000 + attos / 1_000_000_000_000
    }
}

/// Boxes the thread entry closure for pthread_create. `@unchecked Sendable`:
/// immutable, and handed to exactly one new thread.
private final class ThreadBody: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
