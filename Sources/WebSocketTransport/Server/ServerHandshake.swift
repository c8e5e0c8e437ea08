import CLWS
import CTCPProgress

/// Why a WebSocket upgrade was refused: the HTTP status and a plain-text
/// message naming the problem (the response body).
struct UpgradeRefusal {
    let status: Int
    let message: String
    /// Further response headers (e.g. Sec-WebSocket-Version with a 426).
    var headers: [(String, String)] = []

    /// Carries `message` for clients that cannot read the body of a non-101
    /// answer (libwebsockets' client; see `ClientCore.httpResponse`).
    static let headerName = "x-websocket-refusal"
}

extension WebSocketEndpoint {
    /// "subprotocol camhub.v1" or "no subprotocol", for messages.
    var subprotocolText: String {
        subprotocol.map { "subprotocol \($0)" } ?? "no subprotocol"
    }
}

/// The WebSocket handshake checks of a server (loop thread only).
///
/// Order inside lws: HTTP_CONFIRM_UPGRADE (path, Origin, the handshake
/// headers, subprotocol offer; refused with a real HTTP response naming the
/// problem) → lws binds the first offered subprotocol it knows →
/// FILTER_PROTOCOL_CONNECTION (the bound one must be the path's own) →
/// ESTABLISHED (connection registered, `onOpen`).
extension ServerCore {
    /// HTTP_CONFIRM_UPGRADE: path, origin, handshake headers and subprotocol
    /// offer, answered with an HTTP response when refused. Returns the
    /// callback result.
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        let request = UpgradeRequest(
            path: LWS.header(wsi, WSI_TOKEN_GET_URI),
            host: LWS.header(wsi, WSI_TOKEN_HOST),
            connection: LWS.header(wsi, WSI_TOKEN_CONNECTION),
            key: LWS.header(wsi, WSI_TOKEN_KEY),
            version: LWS.header(wsi, WSI_TOKEN_VERSION),
            origin: LWS.header(wsi, WSI_TOKEN_ORIGIN),
            subprotocols: LWS.header(wsi, WSI_TOKEN_PROTOCOL))
        guard let refusal = upgradeRefusal(request) ?? admission.refusal(address: LWS.peerAddress(wsi)) else { return 0 }
        handlers.onRefused(LWS.peerAddress(wsi), refusal.status, refusal.message)
        return refuseUpgrade(wsi, refusal)
    }

    /// Why `request` cannot become a WebSocket here, or nil when it can.
    func upgradeRefusal(_ request: UpgradeRequest) -> UpgradeRefusal? {
        if shuttingDown { return UpgradeRefusal(status: 503, message: "server shutting down") }
        guard let path = request.path else {
            return UpgradeRefusal(status: 400, message: "a WebSocket upgrade must be a GET request")
        }
        guard let route = routes[path] else {
            return UpgradeRefusal(status: 404, message: "no WebSocket endpoint at \(printableASCII(path)); \(endpointList)")
        }
        guard config.originPolicy.allows(request.origin) else {
            return UpgradeRefusal(status: 403, message: "origin \(printableASCII(request.origin ?? "")) is not allowed at \(path)")
        }
        if request.host?.isEmpty ?? true {
            return UpgradeRefusal(status: 400, message: "Host header required")
        }
        let connectionTokens = Self.tokens(request.connection).map { $0.lowercased() }
        guard connectionTokens.contains("upgrade") else {
            return UpgradeRefusal(status: 400, message: "Connection: Upgrade header required")
        }
        guard request.version?.trimmingCharacters(in: " \t") == "13" else {
            let offered = request.version.map { printableASCII($0) } ?? "none"
            return UpgradeRefusal(
                status: 426, message: "WebSocket version 13 required (offered: \(offered))",
                headers: [("sec-websocket-version", "13")])
        }
        // lws refuses keys of 128 bytes or more without a word; a valid one has 24.
        guard let key = request.key, !key.isEmpty, key.utf8.count < 128 else {
            return UpgradeRefusal(status: 400, message: "Sec-WebSocket-Key header missing or too long (a valid one is 24 characters of base64)")
        }
        let offered = Self.tokens(request.subprotocols)
        let offeredText = offered.isEmpty ? "none" : printableASCII(offered.joined(separator: ", "))
        guard let wanted = route.endpoint.subprotocol else {
            guard offered.isEmpty else {
                return UpgradeRefusal(status: 400, message: "\(path) takes no subprotocol (offered: \(offeredText))")
            }
            return nil
        }
        guard offered.contains(wanted) else {
            return UpgradeRefusal(status: 400, message: "subprotocol \(wanted) required (offered: \(offeredText))")
        }
        // lws binds the first offered name it knows; it must be this path's.
        if let first = offered.first(where: native.protocolNames.contains), first != wanted {
            return UpgradeRefusal(status: 400, message: "subprotocol \(wanted) must come before \(first) in the offer (offered: \(offeredText))")
        }
        return nil
    }

    /// "try /hub (subprotocol camhub.v1)", or "try one of …" (echo last).
    private var endpointList: String {
        let all = routes.values.sorted { ($0.isEcho ? 1 : 0, $0.endpoint.path) < ($1.isEcho ? 1 : 0, $1.endpoint.path) }
        let items = all.map { "\($0.endpoint.path) (\($0.endpoint.subprotocolText))" }
        switch items.count {
        case 0: return "this server has none"
        case 1: return "try \(items[0])"
        default: return "try one of " + items.joined(separator: ", ")
        }
    }

    /// Comma-separated header tokens, trimmed, empty ones dropped.
    static func tokens(_ header: String?) -> [String] {
        (header ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: " \t") }
            .filter { !$0.isEmpty }
    }

    /// FILTER_PROTOCOL_CONNECTION: the protocol lws bound must be the
    /// path's own (lws picks the first name it knows from the offer).
    func filterProtocol(_ wsi: OpaquePointer) -> Int32 {
        let path = LWS.header(wsi, WSI_TOKEN_GET_URI) ?? ""
        guard let route = routes[path] else { return 1 }
        if let wanted = route.endpoint.subprotocol {
            guard let proto = lws_get_protocol(wsi), let name = proto.pointee.name else { return 1 }
            return String(cString: name) == wanted ? 0 : 1
        }
        return LWS.hasHeader(wsi, WSI_TOKEN_PROTOCOL) ? 1 : 0
    }

    /// The largest message an `/echo` connection may send.
    var echoMaxMessageSize: Int { config.echoMaxMessageSize ?? config.maxMessageSize }

    /// An echo connection's send queue holds two of its largest messages.
    var echoQueueLimits: SendQueueLimits {
        SendQueueLimits(
            maxMessages: config.sendQueueLimits.maxMessages,
            maxBytes: max(config.sendQueueLimits.maxBytes, 2 * echoMaxMessageSize))
    }

    /// ESTABLISHED: register the connection and tell the handler.
    func established(_ wsi: OpaquePointer) -> Int32 {
        let path = LWS.header(wsi, WSI_TOKEN_GET_URI) ?? ""
        guard let route = routes[path] else { return -1 }
        let id = nextID()
        clws_set_id(wsi, id)
        if config.notSentLowWatermark > 0 {
            WebSocketTransportSettings.setNotSentLowWatermark(
                fd: lws_get_socket_fd(wsi),
                bytes: config.notSentLowWatermark)
        }
        if config.socketSendBuffer > 0 {
            _ = ctcp_set_send_buffer(lws_get_socket_fd(wsi), Int32(clamping: config.socketSendBuffer))
        }
        let info = ConnectionInfo(
            id: ConnectionID(rawValue: id), path: path,
            subprotocol: route.endpoint.subprotocol,
            origin: LWS.header(wsi, WSI_TOKEN_ORIGIN),
            remoteAddress: LWS.peerAddress(wsi))
        let conn = ServerConnection(id: info.id, wsi: wsi, remoteAddress: info.remoteAddress, isEcho: route.isEcho)
        connections[id] = conn
        openConnections.add(1, ordering: .relaxed)
        admission.opened(from: info.remoteAddress)
        if shuttingDown {
            conn.pendingClose = .init(code: .goingAway, reason: "server shutting down", flushFirst: false)
            conn.requestWrite()
            return 0
        }
        if !route.isEcho { handlers.onOpen(info) }
        return 0
    }
}

/// Client text echoed in a message or header: printable ASCII (others
/// become "?"), at most `limit` characters (then "...").
func printableASCII(_ text: String, limit: Int = 100) -> String {
    var out = ""
    for scalar in text.unicodeScalars.prefix(limit) {
        out.unicodeScalars.append((0x20..<0x7F).contains(scalar.value) ? scalar : "?")
    }
    return text.unicodeScalars.count > limit ? out + "..." : out
}

/// The request headers a WebSocket upgrade is judged by (nil: absent).
struct UpgradeRequest {
    var path: String?
    var host: String?
    var connection: String?
    var key: String?
    var version: String?
    var origin: String?
    var subprotocols: String?
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var s = self[...]
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
