import CLWS

/// The loop-confined half of a `WebSocketClient`: the client context and
/// every connection. Loop thread only (`@unchecked Sendable` so closures
/// capturing it can be posted to the mailbox).
final class ClientCore: @unchecked Sendable {
    let config: ClientConfiguration
    let loop: WebSocketLoop
    var handlers = ClientHandlers()
    var connections: [UInt64: ClientConnection] = [:]
    /// Connections waiting for a handshake slot (`maxConcurrentConnects`).
    private var waiting: [ClientConnection] = []
    private var waitingHead = 0
    private var connecting = 0
    private var pumping = false
    private var scratch: UnsafeMutableRawPointer
    private var scratchCapacity: Int
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private var released = false

    static let protocolName: StaticString = "clws-client"

    init(config: ClientConfiguration, loop: WebSocketLoop) {
        self.config = config
        self.loop = loop
        scratchCapacity = 64 * 1024
        scratch = .allocate(byteCount: clws_pre() + scratchCapacity, alignment: 16)
        protocols = .allocate(capacity: 2)
        protocols.initialize(
            to: lws_protocols(
                name: UnsafeRawPointer(Self.protocolName.utf8Start).assumingMemoryBound(to: CChar.self),
                callback: clientCallback,
                per_session_data_size: 0,
                rx_buffer_size: config.receiveBufferSize,
                id: 0, user: nil, tx_packet_size: 1 << 20))
        (protocols + 1).initialize(to: lws_protocols())
    }

    deinit { release() }

    func release() {
        guard !released else { return }
        released = true
        scratch.deallocate()
        protocols.deinitialize(count: 2)
        protocols.deallocate()
    }

    /// Loop thread: a context that does not listen, sized by the fd limit.
    func createContext() -> OpaquePointer? {
        WebSocketTransportSettings.applyDefaultLogLevel()
        var info = lws_context_creation_info()
        info.port = clws_port_no_listen()
        info.protocols = UnsafePointer(protocols)
        info.options = clws_option_just_use_raw_origin() | clws_option_disable_ipv6()
        if config.tls != nil { info.options |= clws_option_ssl_global_init() }
        let caFile = config.tls?.caFile.map { strdup($0)! }
        defer { free(caFile) }  // lws loads the file while creating the context
        info.client_ssl_ca_filepath = UnsafePointer(caFile)
        info.connect_timeout_secs = config.connectTimeoutSeconds
        info.timeout_secs = config.connectTimeoutSeconds
        info.user = Unmanaged.passUnretained(self).toOpaque()
        loop.configure(&info)
        return lws_create_context(&info)
    }

    func connection(for wsi: OpaquePointer) -> ClientConnection? {
        connections[clws_get_id(wsi)]
    }

    // MARK: commands (loop thread)

    /// Registers the connection and starts it when a handshake slot is free.
    func connect(_ id: ConnectionID, _ request: ConnectRequest) {
        guard !stopping, loop.context != nil else {
            handlers.onClose(id, ClientCloseEvent(code: nil, wasOpen: false, error: "client stopped"))
            return
        }
        let conn = ClientConnection(id: id, request: request, configuration: config)
        connections[id.rawValue] = conn
        waiting.append(conn)
        pumpConnects()
    }

    /// Starts waiting connections while fewer than the limit are in flight.
    private func pumpConnects() {
        guard !pumping else { return }
        pumping = true
        defer { pumping = false }
        while connecting < max(1, config.maxConcurrentConnects), waitingHead < waiting.count {
            let conn = waiting[waitingHead]
            waitingHead += 1
            guard connections[conn.id.rawValue] === conn else { continue }  // cancelled
            conn.isConnecting = true
            connecting += 1
            startConnect(conn)
        }
        if waitingHead == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingHead = 0
        }
    }

    private func handshakeDone(_ conn: ClientConnection) {
        guard conn.isConnecting else { return }
        conn.isConnecting = false
        connecting -= 1
        pumpConnects()
    }

    private func startConnect(_ conn: ClientConnection) {
        guard let context = loop.context else { return }
        let request = conn.request
        var info = lws_client_connect_info()
        info.context = context
        info.address = conn.keep(request.host)
        info.port = Int32(request.port)
        info.path = conn.keep(request.path)
        info.host = conn.keep("\(request.serverName ?? request.host):\(request.port)")
        if request.useTLS {
            guard let tls = config.tls else {
                finish(conn.id.rawValue, error: "wss:// needs TLS settings (ClientConfiguration.tls)")
                return
            }
            var flags = Int32(LCCSCF_USE_SSL.rawValue)
            if tls.insecure {
                flags |= Int32(
                    LCCSCF_ALLOW_SELFSIGNED.rawValue | LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK.rawValue
                        | LCCSCF_ALLOW_EXPIRED.rawValue | LCCSCF_ALLOW_INSECURE.rawValue)
            }
            info.ssl_connection = flags
        }
        info.origin = conn.keep(request.origin)
        info.protocol = conn.keep(request.subprotocol)
        info.local_protocol_name = UnsafeRawPointer(Self.protocolName.utf8Start)
            .assumingMemoryBound(to: CChar.self)
        info.ietf_version_or_minus_one = -1
        info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(conn.id.rawValue))
        if let wsi = lws_client_connect_via_info(&info) {
            if connections[conn.id.rawValue] === conn { conn.wsi = wsi }  // valid until finish()
        } else {
            finish(conn.id.rawValue, error: "connect failed")
        }
    }

    func send(_ pieces: [OutgoingPiece], to id: ConnectionID) {
        guard let conn = connections[id.rawValue], !conn.closing, conn.pendingClose == nil else { return }
        if !conn.enqueue(pieces) {
            conn.dropQueue()
            conn.pendingClose = (.policyViolation, "send queue overflow")
        }
        conn.requestWrite()
    }

    func close(_ id: ConnectionID, code: CloseCode, reason: String) {
        guard let conn = connections[id.rawValue], !conn.closing, conn.pendingClose == nil else { return }
        if !conn.isOpen {
            conn.cancelled = true
            if conn.isConnecting, let wsi = conn.wsi {
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)  // lws closes it soon
            } else {
                finish(id.rawValue, error: "cancelled")  // still waiting for a slot
            }
            return
        }
        conn.pendingClose = (code, reason)
        conn.requestWrite()
    }

    func setReadingPaused(_ paused: Bool, for id: ConnectionID) {
        guard let conn = connections[id.rawValue] else { return }
        conn.readingPaused = paused
        if conn.isOpen, let wsi = conn.wsi { lws_rx_flow_control(wsi, clws_rxflow(paused ? 0 : 1)) }
    }

    func closeAll() {
        for conn in connections.values where !conn.isOpen && !conn.isConnecting {
            finish(conn.id.rawValue, error: "cancelled")
        }
        for conn in connections.values where conn.isOpen && !conn.closing {
            conn.dropQueue()
            conn.pendingClose = (.goingAway, "client shutting down")
            conn.requestWrite()
        }
    }

    // MARK: lws events (loop thread)

    func established(_ wsi: OpaquePointer) {
        guard let conn = connection(for: wsi) else { return }
        conn.wsi = wsi
        conn.isOpen = true
        handshakeDone(conn)
        if conn.readingPaused { lws_rx_flow_control(wsi, clws_rxflow(0)) }
        handlers.onOpen(conn.id)
        if conn.hasQueued || conn.pendingClose != nil { conn.requestWrite() }
    }

    /// ESTABLISHED_CLIENT_HTTP: the server's answer to the upgrade is in,
    /// before lws checks it. lws then fails anything but 101 with "HS: ws
    /// upgrade response not 101" and drops the response body, so the status
    /// and the reason the server gave (a CameraHub server repeats its body in
    /// the x-websocket-refusal header) are kept here for `finish`.
    func httpResponse(_ wsi: OpaquePointer) {
        guard let conn = connection(for: wsi) else { return }
        let status = Int(lws_http_client_http_response(wsi))
        guard status != 101 else { return }
        conn.refusal = (status, Self.customHeader(wsi, UpgradeRefusal.headerName))
    }

    /// A response header lws has no token for (lws keeps those by name), or nil.
    private static func customHeader(_ wsi: OpaquePointer, _ name: String) -> String? {
        let key = name + ":"
        let keyLength = Int32(key.utf8.count)
        let length = lws_hdr_custom_length(wsi, key, keyLength)
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        guard lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), key, keyLength) > 0 else { return nil }
        return LWS.cString(buffer)
    }

    func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let conn = connection(for: wsi), !conn.closing else { return 0 }
        let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        let kind: MessageKind = lws_frame_is_binary(wsi) != 0 ? .binary : .text
        switch conn.assembler.append(
            chunk, isFinal: lws_is_final_fragment(wsi) != 0, kind: kind,
            maxSize: config.maxMessageSize, validateUTF8: config.validateUTF8)
        {
        case .incomplete:
            return 0
        case .tooBig:
            return closeNow(conn, wsi, .messageTooBig, "message too big")
        case .invalidUTF8:
            return closeNow(conn, wsi, .invalidPayload, "invalid utf-8")
        case .complete(let message):
            handlers.onMessage(conn.id, message)
            return 0
        }
    }

    func writeable(_ wsi: OpaquePointer) -> Int32 {
        guard let conn = connection(for: wsi), !conn.closing else { return 0 }
        conn.writeRequested = false
        if let close = conn.pendingClose { return closeNow(conn, wsi, close.code, close.reason) }
        if let piece = conn.dequeue() {
            let count = piece.bytes.count
            ensureScratch(count)
            let payload = scratch + clws_pre()
            piece.bytes.withUnsafeBytes { src in
                if count > 0 { payload.copyMemory(from: src.baseAddress!, byteCount: count) }
            }
            // Client frames are masked in place, hence the scratch copy.
            if lws_write(
                wsi, payload.assumingMemoryBound(to: UInt8.self), count,
                piece.writeProtocol) < 0
            {
                return -1
            }
        }
        if conn.hasQueued { conn.requestWrite() }
        return 0
    }

    func peerInitiatedClose(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) {
        if let conn = connection(for: wsi), conn.closeCode == nil {
            conn.closeCode = LWS.peerCloseCode(input, length) ?? .noStatus
        }
    }

    /// CLIENT_CLOSED, CLIENT_CONNECTION_ERROR or WSI_DESTROY: report once.
    func finish(_ rawID: UInt64, error: String?) {
        guard let conn = connections.removeValue(forKey: rawID) else { return }
        conn.closing = true
        handshakeDone(conn)
        conn.dropQueue()
        var failure = conn.cancelled ? "cancelled" : error
        if !conn.cancelled, let refusal = conn.refusal {
            failure =
                "HTTP \(refusal.status) \(HTTPStatus.reason(refusal.status))"
                + (refusal.reason.map { ": \($0)" } ?? " (the server refused the WebSocket upgrade)")
        }
        let event = ClientCloseEvent(
            code: conn.isOpen ? conn.closeCode : nil,
            wasOpen: conn.isOpen, error: conn.isOpen ? nil : failure,
            httpStatus: conn.isOpen ? nil : conn.refusal?.status)
        handlers.onClose(conn.id, event)
        if stopping && connections.isEmpty { loop.stop() }
    }

    var stopping = false

    private func closeNow(
        _ conn: ClientConnection, _ wsi: OpaquePointer,
        _ code: CloseCode, _ reason: String
    ) -> Int32 {
        conn.closing = true
        conn.pendingClose = nil
        if conn.closeCode == nil { conn.closeCode = code }
        conn.dropQueue()
        LWS.setCloseReason(wsi, code, reason)
        return -1
    }

    private func ensureScratch(_ count: Int) {
        guard count > scratchCapacity else { return }
        scratch.deallocate()
        scratchCapacity = max(count, scratchCapacity * 2)
        scratch = .allocate(byteCount: clws_pre() + scratchCapacity, alignment: 16)
    }

    /// Loop thread, last: drop handler closures (they may capture the client).
    func didDestroyContext() {
        connections.removeAll()
        handlers = ClientHandlers()
    }
}

/// The lws protocol callback of every client context (loop thread).
func clientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi),
        let raw = lws_context_user(context)
    else { return 0 }
    let core = Unmanaged<ClientCore>.fromOpaque(raw).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        core.loop.runPostedWork()
    case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
        core.httpResponse(wsi)
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        core.established(wsi)
    case LWS_CALLBACK_CLIENT_RECEIVE:
        return core.receive(wsi, input, length)
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return core.writeable(wsi)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        core.peerInitiatedClose(wsi, input, length)
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
        core.finish(clws_get_id(wsi), error: message ?? "connection error")
    case LWS_CALLBACK_CLIENT_CLOSED:
        core.finish(clws_get_id(wsi), error: nil)
    case LWS_CALLBACK_WSI_DESTROY:
        core.finish(clws_get_id(wsi), error: "connection dropped")
    default:
        break
    }
    return 0
}
