/// A WebSocket client: ONE lws client context on ONE loop thread holding
/// any number of connections (thousands; the fd limit is the bound, and
/// the soft RLIMIT_NOFILE is raised to the hard limit at start). A load
/// tester runs a few of these, not one thread per socket.
///
/// Threading: handlers run on `loop`'s thread. `connect`, `send`, `close`,
/// `setReadingPaused` and `shutdown` may be called from any thread (inline
/// on the loop thread, else via the mailbox).
public final class WebSocketClient: Sendable {
    public let configuration: ClientConfiguration
    public let loop: WebSocketLoop
    private let core: ClientCore
    private let ids = Locked<UInt64>(0)
    private let state = Locked<(started: Bool, stopped: Bool)>((false, false))

    public init(configuration: ClientConfiguration = ClientConfiguration()) {
        self.configuration = configuration
        loop = WebSocketLoop(name: "lws-client")
        core = ClientCore(config: configuration, loop: loop)
    }

    /// Starts the loop thread with its client context. Call once.
    public func start(_ handlers: ClientHandlers) throws {
        try state.withLock { s in
            guard !s.started else { throw TransportError("client already started") }
            s.started = true
        }
        WebSocketTransportSettings.raiseOpenFileLimit()
        let core = self.core
        core.handlers = handlers
        do {
            try loop.start(
                createContext: { core.createContext() },
                beforeDestroy: {},
                afterDestroy: { core.didDestroyContext() })
        } catch {
            state.withLock { $0.stopped = true }
            throw error
        }
    }

    /// Opens a connection; the id is valid at once. Exactly one `onClose`
    /// follows, preceded by `onOpen` if the handshake succeeded.
    @discardableResult
    public func connect(_ request: ConnectRequest) -> ConnectionID {
        let id = ConnectionID(
            rawValue: ids.withLock { n -> UInt64 in
                n += 1
                return n
            })
        let core = self.core
        let (started, stopped) = state.withLock { ($0.started, $0.stopped) }
        precondition(started, "WebSocketClient.connect before start")
        // After shutdown nothing runs on the loop any more: the id is dead
        // and gets no onClose.
        if !stopped { _ = loopAccepts { core.connect(id, request) } }
        return id
    }

    public func send(_ message: WebSocketMessage, to id: ConnectionID, fragmentSize: Int? = nil) {
        send(bytes: message.bytes, kind: message.kind, to: id, fragmentSize: fragmentSize)
    }

    /// Sends raw bytes as one message of `kind` (text bytes are not
    /// validated, so tests can send invalid UTF-8), optionally split into
    /// fragments of at most `fragmentSize` bytes.
    public func send(bytes: [UInt8], kind: MessageKind, to id: ConnectionID, fragmentSize: Int? = nil) {
        let core = self.core
        loop.onLoop {
            core.send(OutgoingPiece.pieces(bytes, kind: kind, fragmentSize: fragmentSize), to: id)
        }
    }

    /// Sends a close frame with `code` on the next writable callback; queued
    /// messages not yet written are dropped.
    public func close(_ id: ConnectionID, code: CloseCode = .normal, reason: String = "") {
        let core = self.core
        loop.onLoop { core.close(id, code: code, reason: reason) }
    }

    /// Stops (true) or resumes (false) reading from the socket, so the
    /// peer's sends back up in the kernel (rx flow control).
    public func setReadingPaused(_ paused: Bool, for id: ConnectionID) {
        let core = self.core
        loop.onLoop { core.setReadingPaused(paused, for: id) }
    }

    /// Any thread: closes open connections with 1001, waits up to one
    /// second for them, stops the loop and joins the thread. Idempotent.
    public func shutdown() {
        let proceed = state.withLock { s -> Bool in
            guard s.started, !s.stopped else { return false }
            s.stopped = true
            return true
        }
        guard proceed else { return }
        let core = self.core
        let loop = self.loop
        loop.onLoop {
            core.stopping = true
            if core.connections.isEmpty {
                loop.stop()
                return
            }
            core.closeAll()
            loop.schedule(after: .seconds(1)) { loop.stop() }
        }
        loop.join()
    }

    private func loopAccepts(_ work: @escaping @Sendable () -> Void) -> Bool {
        if loop.isCurrentThread {
            work()
            return true
        }
        return loop.execute(work)
    }

    deinit { shutdown() }
}
