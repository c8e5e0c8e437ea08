import CLWS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// C memory lws keeps pointers to for the life of a server context:
/// the protocol table and its names, the listen address, the idle policy.
/// Built on any thread before start; freed on the loop thread after
/// `lws_context_destroy`. `@unchecked Sendable`: nothing mutates it between
/// those two points, and lws reads it only on the loop thread.
final class ServerNativeConfig: @unchecked Sendable {
    let protocols: UnsafeMutablePointer<lws_protocols>
    let protocolCount: Int
    private let names: [UnsafeMutablePointer<CChar>]
    /// Every protocol name lws knows on this server (an upgrade binds the
    /// first of these the client offers).
    let protocolNames: Set<String>
    let iface: UnsafeMutablePointer<CChar>
    let retry: UnsafeMutablePointer<lws_retry_bo_t>
    let options: UInt64
    /// TLS certificate and key paths (nil: plain).
    let certificate: UnsafeMutablePointer<CChar>?
    let privateKey: UnsafeMutablePointer<CChar>?
    private var freed = false

    /// Name of protocol 0: serves HTTP and subprotocol-less WebSockets.
    /// Clients cannot select it by name (a subprotocol offer on a path
    /// without one is refused), so the name is never seen on the wire.
    static let defaultProtocolName = "clws-default"

    init(config: ServerConfiguration) {
        var subprotocols: [String] = []
        for endpoint in config.endpoints {
            if let p = endpoint.subprotocol, !subprotocols.contains(p) { subprotocols.append(p) }
        }
        let all = [Self.defaultProtocolName] + subprotocols
        names = all.map { strdup($0)! }
        protocolNames = Set(all)
        protocolCount = all.count
        protocols = .allocate(capacity: all.count + 1)
        for (index, name) in names.enumerated() {
            (protocols + index).initialize(
                to: lws_protocols(
                    name: UnsafePointer(name),
                    callback: serverCallback,
                    per_session_data_size: 0,
                    rx_buffer_size: config.receiveBufferSize,
                    id: UInt32(index),
                    user: nil,
                    tx_packet_size: 1 << 20))
        }
        (protocols + all.count).initialize(to: lws_protocols())  // terminator
        iface = strdup(config.host)!
        retry = .allocate(capacity: 1)
        retry.initialize(to: lws_retry_bo_t())
        // Zero turns lws's own keepalive off; ServerKeepalive does it instead.
        retry.pointee.secs_since_valid_ping = 0
        retry.pointee.secs_since_valid_hangup = 0
        var options = clws_option_fail_upon_unable_to_bind()
        if config.validateUTF8 { options |= clws_option_validate_utf8() }
        if !config.host.contains(":") { options |= clws_option_disable_ipv6() }
        if config.tls != nil { options |= clws_option_ssl_global_init() }
        self.options = options
        certificate = config.tls.map { strdup($0.certificateFile)! }
        privateKey = config.tls.map { strdup($0.privateKeyFile)! }
    }

    func release() {
        guard !freed else { return }
        freed = true
        protocols.deinitialize(count: protocolCount + 1)
        protocols.deallocate()
        for name in names { free(name) }
        free(iface)
        free(certificate)
        free(privateKey)
        retry.deinitialize(count: 1)
        retry.deallocate()
    }

    deinit { release() }
}

extension ServerCore {
    /// The ALPN list a TLS server offers (lws copies it; kept for the process).
    nonisolated(unsafe) static let http11 = strdup("http/1.1")!

    /// Loop thread: creates the listening context and records the bound port.
    func createContext() -> OpaquePointer? {
        WebSocketTransportSettings.applyDefaultLogLevel()
        var info = lws_context_creation_info()
        info.port = config.listens ? Int32(config.port) : clws_port_no_listen_server()
        info.iface = UnsafePointer(native.iface)
        info.protocols = UnsafePointer(native.protocols)
        info.options = native.options
        info.retry_and_idle_policy = UnsafePointer(native.retry)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.vhost_name = nil
        info.ssl_cert_filepath = UnsafePointer(native.certificate)
        info.ssl_private_key_filepath = UnsafePointer(native.privateKey)
        // HTTP/1.1 only: lws would offer h2 over TLS, and this server writes
        // HTTP/1.1 responses (and WebSockets over h2 are not served here).
        info.alpn = UnsafePointer(Self.http11)
        loop.configure(&info)
        guard let context = lws_create_context(&info) else { return nil }
        if config.batchedSends, config.tls == nil, WebSocketTransportSettings.allowIOURing {
            batchedSends = BatchedSends()
        }
        if let vhost = lws_get_vhost_by_name(context, "default") {
            boundPort = Int(lws_get_vhost_listen_port(vhost))
        }
        return context
    }
}

/// The one lws protocol callback of every server context. Runs on the loop
/// thread; finds the `ServerCore` through the context user pointer.
func serverCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi),
        let raw = lws_context_user(context)
    else { return 0 }
    let core = Unmanaged<ServerCore>.fromOpaque(raw).takeUnretainedValue()
    core.callbackDepth += 1
    defer { core.callbackDepth -= 1 }
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        // Broadcast once per protocol; drain on protocol 0 only.
        // Posted work runs as a timer does, outside any connection's callback,
        // so the sends it makes (e.g. an `OutboundBatch` from the hub's loop)
        // may write straight to their sockets.
        if let proto = lws_get_protocol(wsi), proto.pointee.id == 0 {
            core.callbackDepth -= 1
            core.loop.runPostedWork()
            core.callbackDepth += 1
        }
        return 0
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return core.accepted(Int32(Int(bitPattern: input)))
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return core.confirmUpgrade(wsi)
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return core.filterProtocol(wsi)
    case LWS_CALLBACK_ESTABLISHED:
        return core.established(wsi)
    case LWS_CALLBACK_RECEIVE:
        return core.receive(wsi, input, length)
    case LWS_CALLBACK_RECEIVE_PONG:
        core.connection(for: wsi)?.heard()
        return 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return core.writeable(wsi)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        return core.peerInitiatedClose(wsi, input, length)
    case LWS_CALLBACK_CLOSED:
        core.closed(wsi)
        return 0
    case LWS_CALLBACK_HTTP:
        return core.http(wsi, input, length)
    case LWS_CALLBACK_HTTP_BODY:
        return core.apiBody(wsi, input, length)
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return core.apiBodyComplete(wsi)
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if core.httpPending[clws_get_id(wsi)] != nil { return core.httpWriteable(wsi) }
        if let rc = core.apiWriteable(wsi) { return rc }
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    case LWS_CALLBACK_CLOSED_HTTP:
        core.httpClosed(wsi)
        return 0
    case LWS_CALLBACK_WSI_DESTROY:
        core.closed(wsi)  // safety net: no-op unless CLOSED was missed
        core.httpClosed(wsi)
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
