import CLWS
import DequeModule
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The loop-confined half of a `WebSocketServer`: lws context resources,
/// connections and HTTP responses in flight. Every method and property is
/// for the loop thread only (marked `@unchecked Sendable` so the public
/// object can post closures that capture it to the mailbox).
final class ServerCore: @unchecked Sendable {
    struct Route {
        let endpoint: WebSocketEndpoint
        let isEcho: Bool
    }

    let config: ServerConfiguration
    let loop: WebSocketLoop
    let routes: [String: Route]
    /// The static folders by URL prefix, longest prefix first (`/` last).
    let staticFiles: [(prefix: String, files: StaticFiles)]
    var handlers = ServerHandlers()
    let native: ServerNativeConfig

    var connections: [UInt64: ServerConnection] = [:]
    /// The caps' bookkeeping: this server's own, or shared by the loops of one port.
    let admission: ConnectionAdmission
    var httpPending: [UInt64: PendingHTTPBody] = [:]
    /// API requests being read or answered, and their connections (`ServerAPIRequests`).
    var apiPending: [UInt64: PendingAPIRequest] = [:]
    var pendingWSI: [UInt64: OpaquePointer] = [:]
    private var lastID: UInt64 = 0
    var shuttingDown = false
    /// Called once when a drain ends, in place of stopping the loop (`WebSocketServer.drain`).
    var whenDrained: (() -> Void)?
    private var drainEnded = false
    /// How many lws callbacks are running on the loop thread right now (0 in
    /// timer ticks). Sends write through to the socket only at depth 0.
    var callbackDepth = 0
    /// Frames dropped from a frame lane before being written, all connections
    /// (written on the loop thread, read from any).
    let framesReplaced = Atomic<Int>(0)
    /// When the drains of this pass of the loop began (nil: none yet in this
    /// pass): together they take at most `owedSlice` (loop thread).
    private var passDrainStarted: ContinuousClock.Instant?
    /// The slice of connections the next keepalive sweep looks at (`sweepIdle`).
    var sweepSlice: UInt64 = 0
    /// Clients closed for having stopped reading, by what showed it.
    let slowCloses = SlowCloseCounts()
    /// WebSockets open on this loop (written on the loop thread, read from any).
    let openConnections = Atomic<Int>(0)
    /// The keepalive PING payload, with lws headroom. One per server: lws writes
    /// the frame header into the headroom on this loop thread. Not empty, since
    /// lws 4.1 does not report an empty PONG to the protocol callback.
    let pingPayload = SharedFrame(text: "camhub")
    /// Written on the loop thread before `start` returns (then read-only).
    var boundPort = 0
    /// Frames gathered for one io_uring submission per pass of the loop (nil:
    /// each frame is written with lws_write). Created with the context, on the loop thread.
    var batchedSends: BatchedSends?
    /// Accepted sockets waiting for their request target before the hand-off places them (loop 0 of several, on libev).
    var pendingAccepts: PendingAccepts?
    /// What became of the batched frames (written on the loop thread, read from any).
    let batchedSendCounts = BatchedSendCounts()
    /// Connections owed frames, in the order they were first owed one since
    /// their last send (`sendLatest`; `drainOwedFrames` writes them).
    var owing = Deque<ServerConnection>()
    /// A zero-delay timer will run `drainOwedFrames` (one at a time).
    var drainScheduled = false

    init(config: ServerConfiguration, loop: WebSocketLoop) throws {
        self.config = config
        self.loop = loop
        admission = config.sharedAdmission ?? ConnectionAdmission(limits: config.limits)
        var routes: [String: Route] = [:]
        for endpoint in config.endpoints {
            routes[endpoint.path] = Route(endpoint: endpoint, isEcho: false)
        }
        if config.echo {
            routes["/echo"] = Route(endpoint: WebSocketEndpoint(path: "/echo"), isEcho: true)
        }
        self.routes = routes
        var mounts: [(prefix: String, files: StaticFiles)] = []
        for mount in config.staticMounts {
            guard let files = StaticFiles(root: mount.directory) else {
                throw TransportError("\(mount.prefix) folder \(mount.directory) is not a readable directory")
            }
            mounts.append((mount.prefix, files))
        }
        if let root = config.webRoot {
            guard let files = StaticFiles(root: root) else {
                throw TransportError("web root \(root) is not a readable directory")
            }
            mounts.append(("/", files))
        }
        staticFiles = mounts.sorted { $0.prefix.count > $1.prefix.count }
        native = ServerNativeConfig(config: config)
    }

    /// The next connection (or pending HTTP body) id: `loopIndex + loopCount × n`,
    /// so ids never collide among the loops of one port and name their loop.
    func nextID() -> UInt64 {
        lastID += 1
        return config.loopIndex + config.loopCount * lastID
    }

    /// FILTER_NETWORK_CONNECTION (a TCP connection was just accepted): with a
    /// `config.handOff`, takes a duplicate of the descriptor and lws drops its
    /// own. On libev the duplicate waits in `pendingAccepts` until its request
    /// has begun to arrive, so the hand-off sees the request target; then it
    /// goes where the hand-off puts it (another loop, or back to this one
    /// through `adopt`). On lws's own loop the hand-off decides at once,
    /// without a target, and a connection it leaves here stays with lws.
    func accepted(_ socket: Int32) -> Int32 {
        guard let handOff = config.handOff, !shuttingDown else { return 0 }
        let copy = dup(socket)
        guard copy >= 0 else { return 0 }
        if let pending = pendingAccepts ?? makePendingAccepts(handOff) {
            pending.hold(copy)
            return 1
        }
        if handOff(copy, nil) { return 1 }
        Glibc.close(copy)
        return 0
    }

    /// Loop thread: the pending stage, on the loop's libev loop (nil on lws's own loop).
    private func makePendingAccepts(_ handOff: @escaping @Sendable (Int32, String?) -> Bool) -> PendingAccepts? {
        guard let eventLoop = loop.libevLoop else { return nil }
        pendingAccepts = PendingAccepts(eventLoop: eventLoop) { [unowned self] socket, target in
            if shuttingDown {
                Glibc.close(socket)
            } else if !handOff(socket, target) {
                adopt(socket)
            }
        }
        return pendingAccepts
    }

    /// Loop thread: serve a socket another loop accepted.
    func adopt(_ socket: Int32) {
        guard !shuttingDown, let context = loop.context,
            let vhost = lws_get_vhost_by_name(context, "default"),
            lws_adopt_socket_vhost(vhost, socket) != nil
        else {
            Glibc.close(socket)
            return
        }
    }

    func connection(for wsi: OpaquePointer) -> ServerConnection? {
        guard let conn = connections[clws_get_id(wsi)], conn.wsi == wsi else { return nil }
        return conn
    }

    // MARK: traffic

    func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let conn = connection(for: wsi), !conn.closing else { return 0 }
        conn.heard()
        let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        let kind: MessageKind = lws_frame_is_binary(wsi) != 0 ? .binary : .text
        let outcome = conn.assembler.append(
            chunk, isFinal: lws_is_final_fragment(wsi) != 0,
            kind: kind, maxSize: conn.isEcho ? echoMaxMessageSize : config.maxMessageSize,
            validateUTF8: config.validateUTF8)
        switch outcome {
        case .incomplete:
            return 0
        case .tooBig:
            return closeNow(conn, .messageTooBig, "message too big")
        case .invalidUTF8:
            return closeNow(conn, .invalidPayload, "invalid utf-8")
        case .complete(let message):
            if conn.isEcho {
                enqueueControl(SharedFrame(message), to: conn)
            } else if conn.pendingClose == nil {
                handlers.onMessage(conn.id, message)
            }
            return 0
        }
    }

    /// SERVER_WRITEABLE: one lws_write per callback; close first if due.
    func writeable(_ wsi: OpaquePointer) -> Int32 {
        guard let conn = connection(for: wsi), !conn.closing else { return 0 }
        if conn.inBatch {  // its batched frame goes first, when this pass ends
            lws_callback_on_writable(wsi)
            return 0
        }
        conn.writeRequested = false
        if let close = conn.pendingClose, !close.flushFirst || !conn.slots.hasControl {
            return closeNow(conn, close.code, close.reason)
        }
        if conn.pingDue && conn.pendingClose == nil {
            conn.pingDue = false
            if lws_write(wsi, pingPayload.payloadForWrite, pingPayload.count, LWS_WRITE_PING) < 0 { return -1 }
            if !conn.slots.isEmpty { conn.requestWrite() }
            return 0
        }
        let frame = conn.pendingClose == nil ? conn.slots.next() : conn.slots.popControl()
        if let frame {
            let written = lws_write(
                wsi, frame.payloadForWrite, frame.count,
                LWS.writeProtocol(frame.kind))
            if written < 0 { return -1 }
            conn.written()
        }
        if !conn.slots.isEmpty || conn.pendingClose != nil { conn.requestWrite() }
        return 0
    }

    func peerInitiatedClose(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        if let conn = connection(for: wsi), conn.closeCode == nil {
            conn.closeCode = LWS.peerCloseCode(input, length) ?? .noStatus
        }
        return 0  // let lws echo the close
    }

    func closed(_ wsi: OpaquePointer) {
        guard let conn = connection(for: wsi) else { return }
        connections.removeValue(forKey: conn.id.rawValue)
        openConnections.subtract(1, ordering: .relaxed)
        admission.closed(from: conn.remoteAddress)
        conn.slots.removeAll()
        conn.closing = true
        if !conn.isEcho { handlers.onClose(conn.id, conn.closeCode) }
        if shuttingDown && connections.isEmpty { endDrain() }
    }

    /// Sets the close frame and tells lws to close (the caller returns this).
    private func closeNow(_ conn: ServerConnection, _ code: CloseCode, _ reason: String) -> Int32 {
        conn.closing = true
        conn.pendingClose = nil
        if conn.closeCode == nil { conn.closeCode = code }
        conn.slots.removeAll()
        LWS.setCloseReason(conn.wsi, code, reason)
        return -1
    }

    // MARK: sends (loop thread; ids of closed connections are ignored)

    func enqueueControl(_ frame: SharedFrame, to conn: ServerConnection) {
        guard conn.acceptsSends else { return }
        if !conn.slots.enqueueControl(frame, limits: conn.isEcho ? echoQueueLimits : config.sendQueueLimits) {
            conn.slots.removeAll()
            conn.pendingClose = .init(code: .policyViolation, reason: "send queue overflow", flushFirst: false)
        }
        conn.requestWrite()
    }

    func send(_ frame: SharedFrame, to id: ConnectionID) {
        guard let conn = connections[id.rawValue] else { return }
        if writeThrough(frame, to: conn) { return }
        enqueueControl(frame, to: conn)
    }

    /// Puts `frame` in the connection's frame lane. With io_uring batches,
    /// the connection joins `owing` and `drainOwedFrames` writes it after the
    /// caller's pass (see there); while its socket does not drain (a writable
    /// callback is awaited) it holds the newest frame only. Without batches the
    /// frame is written at once when nothing is ahead of it, else kept as the newest.
    func sendLatest(_ frame: SharedFrame, to id: ConnectionID) {
        guard let conn = connections[id.rawValue], conn.acceptsSends else { return }
        if let batch = batchedSends, !batch.isBroken, !conn.writeRequested, !conn.slots.hasControl {
            let dropped = conn.slots.addFrame(frame, keeping: Self.framesOwedAtMost)
            if dropped > 0 { framesReplaced.add(dropped, ordering: .relaxed) }
            if !conn.isOwed {
                conn.isOwed = true
                owing.append(conn)
            }
            return
        }
        if writeThrough(frame, to: conn) { return }
        let replaced = conn.slots.setLatest(frame)
        if replaced > 0 { framesReplaced.add(replaced, ordering: .relaxed) }
        conn.requestWrite()
    }

    /// Most frames a connection is owed while this loop is behind its
    /// followers (not their sockets): they go out together, in one send. Past
    /// it the oldest goes, counted as replaced: the newest frame wins under
    /// overload. Four frames are 133 ms of motion at 30 Hz.
    static let framesOwedAtMost = 4

    /// Wall time the drains of one pass of the loop may take together before
    /// the loop serves its timers and sockets again: an eighth of a 60 Hz
    /// tick, however many batches the pass applied. It is looked at after each
    /// `sendsPerLook` connections, sent in one io_uring submission (~1 ms of
    /// kernel work at 5–8 µs a send).
    static let owedSlice = Duration.milliseconds(2)
    static let sendsPerLook = 128

    /// Writes the frames of the connections in `owing`, first owed first, each
    /// connection's frames in one send through `batchedSends`, for at most
    /// `owedSlice`; what is left goes on from a zero-delay timer, after the
    /// loop served its sockets and timers (the hub's tick), so nothing waits
    /// long behind a large audience. While the loop keeps up, each pass ends
    /// with `owing` empty and every frame went out at once. When it falls
    /// behind, a connection still waiting gets its next frame added to its lane
    /// (`framesOwedAtMost`), and both go in one send: the kernel's cost is per
    /// send more than per byte, so the loop then writes more frames per second
    /// instead of fewer, and followers get every frame, later, not a stutter.
    /// Runs after each batch a pass applies, at the end of every pass
    /// (`endOfPass`), and outside lws callbacks only; the slice is the pass's
    /// (`passDrainStarted`), not each call's.
    func drainOwedFrames() {
        guard callbackDepth == 0, let batch = batchedSends, !owing.isEmpty else { return }
        let started = passDrainStarted ?? ContinuousClock.now
        passDrainStarted = started
        guard ContinuousClock.now - started < Self.owedSlice else {
            scheduleDrain()  // this pass's slice is spent: the rest after the loop served its sockets and timers
            return
        }
        var gathered = 0
        while let conn = owing.popFirst() {
            conn.isOwed = false
            gatherOwedFrames(of: conn, into: batch)
            gathered += 1
            if batch.isFull || gathered % Self.sendsPerLook == 0 {
                flushBatchedSends()
                if ContinuousClock.now - started >= Self.owedSlice { break }
            }
        }
        flushBatchedSends()
        if !owing.isEmpty { scheduleDrain() }
    }

    /// Puts `conn`'s frames in `batch` when nothing is ahead of them; else its
    /// writable callback writes them (a socket that has not drained, a control
    /// message first).
    private func gatherOwedFrames(of conn: ServerConnection, into batch: BatchedSends) {
        guard !conn.closing, conn.slots.latest != nil else { return }
        guard !batch.isBroken, conn.acceptsSends, !conn.writeRequested, !conn.inBatch, !conn.slots.hasControl,
            lws_partial_buffered(conn.wsi) == 0, let (earlier, newest) = conn.slots.takeFrames()
        else {
            conn.requestWrite()
            return
        }
        batch.append(newest, earlier: earlier, to: conn, fd: lws_get_socket_fd(conn.wsi))
        conn.inBatch = true
    }

    /// The end of a pass of the loop: drains what is owed in what is left of
    /// the pass's slice; the next pass has a slice of its own.
    func endOfPass() {
        drainOwedFrames()
        passDrainStarted = nil
    }

    private func scheduleDrain() {
        guard !drainScheduled else { return }
        drainScheduled = true
        loop.schedule(after: .zero) { [self] in
            drainScheduled = false
            drainOwedFrames()
        }
    }

    /// Writes `frame` at once when nothing is ahead of it: both lanes empty, no
    /// writable callback pending, nothing left in lws's partial-send buffer,
    /// and not inside an lws callback (so: from a timer tick). This skips the
    /// ask-for-POLLOUT round trip (two epoll_ctl calls and a wakeup per frame
    /// per follower), which at thousands of followers costs more than the
    /// send itself. If the kernel takes only part of it, lws keeps the rest
    /// and sends it when the socket drains; until then sends take the slow
    /// path, so a slow follower still holds at most its newest frame. True
    /// when the frame was handed to lws (or the connection was found dead).
    /// A keepalive PING goes the same way (`ping`), and is not counted as a
    /// message; being a control frame, it may go ahead of messages waiting in
    /// the lanes (a follower whose frames wait for the drain is pinged at once
    /// instead of through its writable callback, which would cost it the
    /// frames owed: a connection awaiting one keeps its newest frame only).
    func writeThrough(_ frame: SharedFrame, to conn: ServerConnection, ping: Bool = false) -> Bool {
        guard canWriteThrough(conn, lanesMayWait: ping) else { return false }
        let kind = ping ? LWS_WRITE_PING : LWS.writeProtocol(frame.kind)
        if lws_write(conn.wsi, frame.payloadForWrite, frame.count, kind) < 0 {
            conn.drop()  // the socket is gone
            return true
        }
        if !ping { conn.written() }
        return true
    }

    /// Nothing is ahead of a write to `conn` now (`lanesMayWait`: but what
    /// waits in its lanes): see `writeThrough`.
    private func canWriteThrough(_ conn: ServerConnection, lanesMayWait: Bool = false) -> Bool {
        callbackDepth == 0 && conn.acceptsSends && !conn.writeRequested && !conn.inBatch
            && (lanesMayWait || conn.slots.isEmpty) && lws_partial_buffered(conn.wsi) == 0
    }

    /// Sends the frames `batchedSends` gathered (`drainOwedFrames`). A
    /// connection that closed since, or whose socket lws has queued bytes for,
    /// does not get its frames written now: like frames the kernel did not
    /// take, the newest goes back to its lane and waits for the socket to
    /// drain. The rest of a partly taken send goes to lws's own send buffer,
    /// which lws drains before anything else on that socket. Outside lws callbacks only (like
    /// the gathering): a flush asked for inside one waits for the pass's end.
    func flushBatchedSends() {
        guard callbackDepth == 0, let batch = batchedSends, !batch.isEmpty else { return }
        let stillWanted = { (conn: ServerConnection) in !conn.closing && lws_partial_buffered(conn.wsi) == 0 }
        batch.flush(stillWanted: stillWanted) { conn, frames, outcome in
            conn.inBatch = false
            guard !conn.closing else { return }
            let count = frames.earlier.count + 1
            batchedSendCounts.count(outcome, frames: count)
            switch outcome {
            case .sent:
                conn.written(count)
            case .partial(let sentBytes, let wire):
                conn.written(count)
                let rest = UnsafeMutableRawPointer(mutating: wire.baseAddress! + sentBytes)
                if lws_write(conn.wsi, rest.assumingMemoryBound(to: UInt8.self), wire.count - sentBytes, LWS_WRITE_HTTP) < 0 {
                    conn.drop()
                }
            case .notSent:  // its socket is full: the newest frame waits for it to drain
                let dropped = conn.slots.putBack(earlier: frames.earlier, newest: frames.newest, keeping: 1)
                if dropped > 0 { framesReplaced.add(dropped, ordering: .relaxed) }
                conn.requestWrite()
            case .failed:
                conn.drop()
            }
        }
    }

    /// Applies `batch` in order, skipping its frames for connections that a
    /// batch in `newer` (queued behind it, not yet applied) has a frame for.
    func apply(_ batch: OutboundBatch, before newer: [OutboundBatch]) {
        var superseded: Set<UInt64> = []
        for later in newer {
            for case .latest(_, let ids) in later.operations { for id in ids { superseded.insert(id.rawValue) } }
        }
        for operation in batch.operations {
            switch operation {
            case .send(let frame, let id): send(frame, to: id)
            case .latest(let frame, let ids):
                for id in ids {
                    if superseded.contains(id.rawValue) {
                        if connections[id.rawValue] != nil { framesReplaced.add(1, ordering: .relaxed) }
                    } else {
                        sendLatest(frame, to: id)
                    }
                }
            case .close(let id, let code, let reason): close(id, code: code, reason: reason)
            }
        }
        drainOwedFrames()
    }

    func close(_ id: ConnectionID, code: CloseCode, reason: String) {
        guard let conn = connections[id.rawValue], conn.acceptsSends else { return }
        conn.pendingClose = .init(code: code, reason: reason, flushFirst: true)
        conn.requestWrite()
    }

    func stats(_ id: ConnectionID) -> ConnectionStats? {
        guard let conn = connections[id.rawValue] else { return nil }
        return ConnectionStats(
            queuedControlMessages: conn.slots.controlCount,
            queuedControlBytes: conn.slots.controlBytes,
            hasPendingFrame: conn.slots.latest != nil,
            framesReplaced: conn.slots.framesReplaced,
            messagesWritten: Int(conn.messagesWritten))
    }

    // MARK: shutdown

    /// Closes every WebSocket with `code` (1001 by default), evenly over
    /// `drainSpread` (slices of at least `drainSliceClients`, at most one every
    /// `drainSlice`), and stops the loop once they are all gone or after
    /// `drainTimeout`, whichever comes first. New connections are refused
    /// from now on (503).
    func beginShutdown(code: CloseCode = .goingAway, reason: String = "server shutting down") {
        guard !shuttingDown else { return }
        shuttingDown = true
        pendingAccepts?.closeAll()
        if connections.isEmpty {
            endDrain()
            return
        }
        let open = connections.values.filter { !$0.closing }.map(\.id)
        let slices = max(1, min((open.count + Self.drainSliceClients - 1) / Self.drainSliceClients, Int(config.drainSpread / Self.drainSlice)))
        let perSlice = (open.count + slices - 1) / slices
        let interval = config.drainSpread / slices  // at least `drainSlice`
        for slice in 0..<slices {
            let ids = open[min(open.count, slice * perSlice)..<min(open.count, (slice + 1) * perSlice)]
            if slice == 0 {
                close(ids, code: code, reason: reason)
            } else {
                loop.schedule(after: interval * slice) { [self] in close(ids, code: code, reason: reason) }
            }
        }
        loop.schedule(after: config.drainTimeout) { [self] in endDrain() }
    }

    /// Loop thread: the drain is over (every connection gone, or `drainTimeout`):
    /// stops the loop, or calls `whenDrained` once (`WebSocketServer.drain`).
    private func endDrain() {
        guard !drainEnded else { return }
        drainEnded = true
        guard let whenDrained else { return loop.stop() }
        self.whenDrained = nil
        whenDrained()
    }

    /// The shortest time between two slices of a spread drain, and the fewest
    /// clients in a slice (an audience of up to that many is closed at once).
    static let drainSlice = Duration.milliseconds(20)
    static let drainSliceClients = 50

    /// Loop thread: sends `code` to those of `ids` still open (their queued frames are dropped).
    private func close(_ ids: ArraySlice<ConnectionID>, code: CloseCode, reason: String) {
        for id in ids {
            guard let conn = connections[id.rawValue], !conn.closing else { continue }
            conn.slots.removeAll()
            conn.pendingClose = .init(code: code, reason: reason, flushFirst: false)
            conn.requestWrite()
        }
    }

    /// Loop thread, last (after lws_context_destroy, whose CLOSED callbacks
    /// still reached `closed` and the handlers): drop handler closures
    /// (they may capture the server) and free the C configuration.
    func didDestroyContext() {
        pendingAccepts = nil
        batchedSends = nil
        owing.removeAll()
        connections.removeAll()
        httpPending.removeAll()
        apiPending.removeAll()
        pendingWSI.removeAll()
        handlers = ServerHandlers()
        native.release()
    }
}
