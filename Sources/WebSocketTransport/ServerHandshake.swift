import CLWS

/// The WebSocket handshake checks of a server (loop thread only).
///
/// Order inside lws: HTTP_CONFIRM_UPGRADE (path, Origin, subprotocol offer;
/// refused with a real HTTP status) → lws binds the first offered
/// subprotocol it knows → FILTER_PROTOCOL_CONNECTION (the bound one must be
/// the path's own) → ESTABLISHED (connection registered, `onOpen`).
extension ServerCore {
    /// HTTP_CONFIRM_UPGRADE: path, origin and subprotocol offer, answered
    /// with a real HTTP status when refused. Returns the callback result.
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        func refuse(_ status: UInt32) -> Int32 {
            lws_return_http_status(wsi, status, nil) != 0 ? -1 : 1
        }
        if shuttingDown { return refuse(503) }
        let path = LWS.header(wsi, WSI_TOKEN_GET_URI) ?? ""
        guard let route = routes[path] else { return refuse(404) }
        guard config.originPolicy.allows(LWS.header(wsi, WSI_TOKEN_ORIGIN)) else { return refuse(403) }
        let offered = (LWS.header(wsi, WSI_TOKEN_PROTOCOL) ?? "")
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: " \t") }
            .filter { !$0.isEmpty }
        if let wanted = route.endpoint.subprotocol {
            guard offered.contains(wanted) else { return refuse(400) }
        } else {
            guard offered.isEmpty else { return refuse(400) }
        }
        return 0
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

    /// ESTABLISHED: register the connection and tell the handler.
    func established(_ wsi: OpaquePointer) -> Int32 {
        let path = LWS.header(wsi, WSI_TOKEN_GET_URI) ?? ""
        guard let route = routes[path] else { return -1 }
        let id = nextID()
        clws_set_id(wsi, id)
        if config.notSentLowWatermark > 0 {
            WebSocketTransportSettings.setNotSentLowWatermark(fd: lws_get_socket_fd(wsi),
                                                              bytes: config.notSentLowWatermark)
        }
        let info = ConnectionInfo(
            id: ConnectionID(rawValue: id), path: path,
            subprotocol: route.endpoint.subprotocol,
            origin: LWS.header(wsi, WSI_TOKEN_ORIGIN),
            remoteAddress: LWS.peerAddress(wsi))
        let conn = ServerConnection(info: info, wsi: wsi, isEcho: route.isEcho,
                                    limits: config.sendQueueLimits,
                                    maxMessageSize: config.maxMessageSize)
        connections[id] = conn
        if shuttingDown {
            conn.pendingClose = .init(code: .goingAway, reason: "server shutting down", flushFirst: false)
            conn.requestWrite()
            return 0
        }
        if !route.isEcho { handlers.onOpen(info) }
        return 0
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self[...]
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
