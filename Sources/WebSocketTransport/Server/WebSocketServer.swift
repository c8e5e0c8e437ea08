import Dispatch

#if canImport(Glibc)
    import Glibc
#endif
/// A WebSocket + HTTP server on one libwebsockets context and one loop thread.
///
/// Threading contract:
/// - The context, every socket and all connection state live on `loop`'s
///   thread. Handlers (`ServerHandlers`), HTTP handlers and loop timers run
///   there, one at a time.
/// - `send`, `sendLatest`, `close`, `execute`, `shutdown` may be called from
///   any thread. On the loop thread they act at once; elsewhere they go
///   through the loop's mailbox (lock + `lws_cancel_service`) and act on the
///   loop thread shortly after, in call order.
/// - `stats` and `connectionCount` are loop-thread only.
///
/// Usage: `let server = try WebSocketServer(configuration: c)`, then
/// `try server.start(handlers)`, read `port`, and eventually call
/// `server.shutdown()`. Handlers may capture `server`; that keeps it alive
/// until `shutdown()` (the handlers are released when the loop ends), so
/// always call `shutdown()` explicitly.
public final class WebSocketServer: Sendable {
    public let configuration: ServerConfiguration
    /// The loop thread that owns this server. Use it for `execute` and
    /// timers (e.g. a 60 Hz room tick that calls `sendLatest`).
    public let loop: WebSocketLoop
    private let core: ServerCore
    private let state = Locked(LifeCycle())
    /// Batches handed over from other threads whose mailbox job has not run
    /// yet, oldest first (each job takes the first). Lets a job see the
    /// newer batches queued behind it (`ServerCore.apply(_:before:)`).
    private let queuedBatches = Locked<[OutboundBatch]>([])

    private struct LifeCycle {
        var started = false
        /// `drain` closed every connection; the loop runs until `shutdown`.
        var drained = false
        var stopped = false
        var port = 0
        var batchesSends = false
    }

    public init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        loop = WebSocketLoop(name: "lws-server")
        core = try ServerCore(config: configuration, loop: loop)
    }

    /// Creates the context on a new loop thread and starts listening.
    /// Returns the bound port (useful with port 0). Call once. Throws
    /// `ListenError` when the address cannot be listened on (port taken,
    /// not this machine's address, privileged port), else `TransportError`.
    @discardableResult
    public func start(_ handlers: ServerHandlers) throws -> Int {
        try state.withLock { s in
            guard !s.started else { throw TransportError("server already started") }
            s.started = true
        }
        WebSocketTransportSettings.raiseOpenFileLimit()
        let core = self.core
        core.handlers = handlers  // before the thread exists: no race
        let logMark = LibraryLog.lineCount
        do {
            try loop.start(
                createContext: { core.createContext() },
                beforeDestroy: {
                    core.flushBatchedSends()
                    core.pendingAccepts?.closeAll()  // while the libev loop its watchers are on still exists
                },
                afterDestroy: { core.didDestroyContext() },
                afterEachPass: { core.endOfPass() })
        } catch {
            state.withLock { $0.stopped = true }
            // lws only logs why; say it in one line of our own.
            if configuration.listens, let listen = ListenError.probe(host: configuration.host, port: configuration.port) { throw listen }
            if let said = LibraryLog.lines(since: logMark).first {
                throw TransportError("\(error); libwebsockets said: \(said)")
            }
            throw error
        }
        loop.scheduleRepeating(every: .seconds(ServerCore.sweepInterval) / Int(ServerCore.sweepSlices)) { core.sweepIdle() }
        let port = core.boundPort  // written before the start handshake completed
        let batches = core.batchedSends != nil  // likewise
        state.withLock {
            $0.port = port
            $0.batchesSends = batches
        }
        return port
    }

    /// The port the server listens on (0 before `start`).
    public var port: Int { state.withLock { $0.port } }

    /// Queues `message` on the connection's ordered control lane.
    public func send(_ message: WebSocketMessage, to connection: ConnectionID) {
        send(SharedFrame(message), to: connection)
    }

    /// Queues a shared frame on the ordered control lane (never dropped;
    /// past `sendQueueLimits` the connection is closed with 1008).
    public func send(_ frame: SharedFrame, to connection: ConnectionID) {
        let core = self.core
        loop.onLoop { core.send(frame, to: connection) }
    }

    /// Puts `frame` in the connection's frame lane, written when the loop's
    /// current pass ends. A connection the loop has not written yet keeps up
    /// to `ServerCore.framesOwedAtMost` frames (sent together, the oldest
    /// dropped past it); one whose socket is full keeps only the newest.
    ///
    /// On the loop thread (the hub's tick) this runs inline without building a
    /// closure: it is called once per frame per follower.
    public func sendLatest(_ frame: SharedFrame, to connection: ConnectionID) {
        let core = self.core
        if loop.isCurrentThread {
            core.sendLatest(frame, to: connection)
        } else {
            loop.onLoop { core.sendLatest(frame, to: connection) }
        }
    }

    /// Closes with a close frame carrying `code` and `reason` (≤ 123 UTF-8
    /// bytes kept), after the control messages already queued are written.
    public func close(_ connection: ConnectionID, code: CloseCode = .normal, reason: String = "") {
        let core = self.core
        loop.onLoop { core.close(connection, code: code, reason: reason) }
    }

    /// Applies `batch` on the loop thread, in order, with one mailbox post
    /// (inline when called on the loop thread).
    ///
    /// When this loop falls behind, several batches wait in its mailbox. A
    /// frame for a connection that a newer waiting batch also has a frame for
    /// is then skipped (counted as replaced): each follower gets its newest
    /// frame once, not a backlog of stale ones (the latest-frame lane's rule,
    /// across batches). Everything else is applied in order. More than
    /// `maxQueuedBatches` waiting are merged into one by the same rule
    /// (`OutboundBatch.merging`), so what waits stays one frame per follower
    /// plus the ordered messages; a connection with more of those than its
    /// control lane holds is closed 1013 instead.
    public func apply(_ batch: OutboundBatch) {
        guard !batch.isEmpty else { return }
        let core = self.core
        if loop.isCurrentThread {
            core.apply(batch, before: [])
            return
        }
        let queued = queuedBatches
        let bound = configuration.maxQueuedBatches
        let controlLimit = configuration.sendQueueLimits.maxMessages
        let replaced = queued.withLock { waiting in
            waiting.append(batch)
            guard waiting.count > bound else { return 0 }
            let (merged, replaced) = OutboundBatch.merging(waiting, controlLimit: controlLimit)
            waiting = [merged]
            return replaced
        }
        core.framesReplaced.add(replaced, ordering: .relaxed)
        let posted = loop.execute {
            // A job whose batch was merged into an earlier one finds nothing left to apply.
            guard let (mine, newer) = queued.withLock({ waiting in waiting.isEmpty ? nil : (waiting.removeFirst(), waiting) }) else { return }
            core.apply(mine, before: newer)
        }
        if !posted { queued.withLock { _ = $0.popLast() } }  // the loop has stopped: nothing will take it
    }

    /// Any thread: batches handed to this loop and not yet applied (at most
    /// `ServerConfiguration.maxQueuedBatches`).
    public var queuedBatchCount: Int { queuedBatches.withLock { $0.count } }

    /// Any thread: serve `socket`, a TCP connection another server accepted
    /// (`ServerConfiguration.handOff`), as if this server had accepted it:
    /// HTTP, upgrade, TLS and caps as for its own. Takes ownership of the
    /// descriptor (closed if the server is stopping or lws cannot adopt it).
    public func adopt(socket: Int32) {
        let core = self.core
        if !loop.execute({ core.adopt(socket) }) { Glibc.close(socket) }
    }

    /// Runs `work` on the loop thread (always later, via the mailbox).
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        loop.execute(work)
    }

    /// Loop thread only: the send-lane snapshot of a live connection.
    public func stats(_ connection: ConnectionID) -> ConnectionStats? {
        precondition(loop.isCurrentThread, "stats(_:) is loop-thread only")
        return core.stats(connection)
    }

    /// Any thread: frames dropped so far, over all connections, from a frame
    /// lane before they were written (newer frames replaced them).
    public var framesReplaced: Int { core.framesReplaced.load(ordering: .relaxed) }

    /// Any thread: clients closed 1008 "too slow" so far, by what showed they stopped reading.
    public var slowCloses: SlowCloses { core.slowCloses.snapshot }

    /// Any thread, after `start`: whether frames written straight from the
    /// loop go out in io_uring batches (`ServerConfiguration.batchedSends`
    /// asked for it, no TLS, and the kernel allows io_uring).
    public var batchesSends: Bool { state.withLock { $0.batchesSends } }

    /// Any thread: what became of the frames gathered for io_uring batches so far.
    public var batchedSendStats: BatchedSendStats { core.batchedSendCounts.snapshot }

    /// Any thread: live WebSocket connections (echo included), as of the
    /// loop's last open or close.
    public var openConnections: Int { core.openConnections.load(ordering: .relaxed) }

    /// Loop thread only: live WebSocket connections (echo included).
    public var connectionCount: Int {
        precondition(loop.isCurrentThread, "connectionCount is loop-thread only")
        return core.connections.count
    }

    /// Any thread: closes every WebSocket with 1001, waits up to
    /// `drainTimeout` for them to go, stops the loop, destroys the context
    /// and joins the thread. `onClose` runs for every connection. Called on
    /// the loop thread it cannot join itself: it only starts the shutdown.
    /// Idempotent.
    public func shutdown() {
        shutdown(closeCode: .goingAway, reason: "server shutting down")
    }

    /// `shutdown()`, closing every WebSocket with `closeCode` and `reason`
    /// (e.g. 1012 "service restart" before a planned restart).
    public func shutdown(closeCode: CloseCode, reason: String) {
        let proceed = state.withLock { s -> (go: Bool, drained: Bool) in
            guard s.started, !s.stopped else { return (false, false) }
            s.stopped = true
            return (true, s.drained)
        }
        guard proceed.go else { return }
        let core = self.core
        let loop = self.loop
        if proceed.drained {
            loop.onLoop { loop.stop() }  // after the work posted before this call
        } else {
            loop.onLoop { core.beginShutdown(code: closeCode, reason: reason) }
        }
        loop.join()
    }

    /// Any thread but the loop's: the first half of `shutdown`. Refuses new
    /// connections, closes every WebSocket with `closeCode` and `reason`
    /// (spread over `drainSpread`) and returns once they are all gone or
    /// `drainTimeout` has passed. The loop keeps running, so work other loops
    /// post (such as what their clients' closes cause here) still runs, until
    /// `shutdown` stops it. Idempotent; nothing once `shutdown` has begun.
    public func drain(closeCode: CloseCode, reason: String) {
        let proceed = state.withLock { s -> Bool in
            guard s.started, !s.stopped, !s.drained else { return false }
            s.drained = true
            return true
        }
        guard proceed else { return }
        let core = self.core
        let done = DispatchSemaphore(value: 0)
        loop.onLoop {
            core.whenDrained = { done.signal() }
            core.beginShutdown(code: closeCode, reason: reason)
        }
        // The loop ends the drain by `drainTimeout`; the margin covers a loop that has stopped on its own.
        _ = done.wait(timeout: DispatchTime.now() + .milliseconds(Int(configuration.drainTimeout / .milliseconds(1)) + 1_000))
    }

    deinit {
        shutdown()
    }
}
