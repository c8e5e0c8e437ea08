/// Settings shared by every connection of one `WebSocketClient`.
public struct ClientConfiguration: Sendable {
    /// Largest accepted incoming message; bigger closes with 1009.
    public var maxMessageSize = 16 << 20
    /// Reject incoming text that is not UTF-8 with close 1007.
    public var validateUTF8 = false
    /// Bytes lws reads per RECEIVE callback (allocated per connection:
    /// keep it small for thousands of sockets).
    public var receiveBufferSize = 4096
    /// Bounds of each connection's outgoing queue; overflow closes with 1008.
    public var sendQueueLimits = SendQueueLimits(maxMessages: 4096, maxBytes: 16 << 20)
    /// Seconds lws allows for TCP connect plus handshake.
    public var connectTimeoutSeconds: UInt32 = 10
    /// Handshakes in flight at once; further `connect`s wait their turn.
    /// Opening thousands at once overflows the server's accept backlog and
    /// costs 1 s SYN retransmits; pacing keeps it fast.
    public var maxConcurrentConnects = 128
    /// TLS for `wss://` requests (nil: this client opens plain `ws://` only).
    public var tls: ClientTLS?
    public init() {}
}

/// How a client checks the servers it reaches over TLS.
public struct ClientTLS: Sendable, Hashable {
    /// PEM file of the certificate authorities to trust instead of the
    /// system's (a private CA); nil trusts the system's store.
    public var caFile: String?
    /// Accept a self-signed, expired or wrongly named server certificate
    /// (tests only: the connection is encrypted but the server unverified).
    public var insecure: Bool
    public init(caFile: String? = nil, insecure: Bool = false) {
        self.caFile = caFile
        self.insecure = insecure
    }
}

/// Where and how to open one client WebSocket: ws://host:port/path.
public struct ConnectRequest: Sendable, Hashable {
    /// An IP literal or host name (resolved synchronously on the loop
    /// thread: prefer literals such as 127.0.0.1 under load).
    public var host: String
    public var port: Int
    public var path: String
    /// Sent as Sec-WebSocket-Protocol; the server must select it.
    public var subprotocol: String?
    /// Sent verbatim as the Origin header (browser-like clients).
    public var origin: String?
    /// Open the connection over TLS (`wss://`); the client needs `ClientConfiguration.tls`.
    public var useTLS: Bool
    /// The name the server's certificate must carry and the Host header's
    /// name (nil: `host`); lets a client dial 127.0.0.1 but check "localhost".
    public var serverName: String?

    public init(
        host: String = "127.0.0.1", port: Int, path: String = "/",
        subprotocol: String? = nil, origin: String? = nil, useTLS: Bool = false, serverName: String? = nil
    ) {
        self.host = host
        self.port = port
        self.path = path
        self.subprotocol = subprotocol
        self.origin = origin
        self.useTLS = useTLS
        self.serverName = serverName
    }
}

/// How a client connection ended.
public struct ClientCloseEvent: Sendable, Hashable {
    /// The close code (see `CloseCode`); nil when no close frame was exchanged.
    public let code: CloseCode?
    /// False when the connection never opened (refused, handshake rejected).
    public let wasOpen: Bool
    /// Why connecting failed: lws's description, or for a refused upgrade
    /// "HTTP 404 Not Found: " and the reason the server gave.
    public let error: String?
    /// The HTTP status of a refused upgrade (the server answered, but not 101).
    public let httpStatus: Int?

    public init(code: CloseCode?, wasOpen: Bool, error: String?, httpStatus: Int? = nil) {
        self.code = code
        self.wasOpen = wasOpen
        self.error = error
        self.httpStatus = httpStatus
    }
}

/// Callbacks a client makes, all ON THE CLIENT'S LOOP THREAD, one at a time.
public struct ClientHandlers: Sendable {
    public var onOpen: @Sendable (ConnectionID) -> Void
    public var onMessage: @Sendable (ConnectionID, WebSocketMessage) -> Void
    /// Exactly once per `connect`, whether it opened or not.
    public var onClose: @Sendable (ConnectionID, ClientCloseEvent) -> Void

    public init(
        onOpen: @escaping @Sendable (ConnectionID) -> Void = { _ in },
        onMessage: @escaping @Sendable (ConnectionID, WebSocketMessage) -> Void = { _, _ in },
        onClose: @escaping @Sendable (ConnectionID, ClientCloseEvent) -> Void = { _, _ in }
    ) {
        self.onOpen = onOpen
        self.onMessage = onMessage
        self.onClose = onClose
    }
}
