/// Callbacks a server makes. All of them run ON THE SERVER'S LOOP THREAD,
/// one at a time, so they may touch loop-confined state (for example a hub
/// whose rooms are ticked by a loop timer) without locks. Do not block in them.
public struct ServerHandlers: Sendable {
    /// A WebSocket finished its handshake (never called for `/echo`).
    public var onOpen: @Sendable (ConnectionInfo) -> Void
    /// A complete message arrived (fragments reassembled, size and UTF-8 checked).
    public var onMessage: @Sendable (ConnectionID, WebSocketMessage) -> Void
    /// The connection is gone; `code` as described on `CloseCode`. After
    /// this, sends to the id are ignored.
    public var onClose: @Sendable (ConnectionID, CloseCode?) -> Void
    /// A WebSocket upgrade was refused: the peer's address, the HTTP status
    /// and the reason sent in the response (for logs).
    public var onRefused: @Sendable (_ remoteAddress: String, _ status: Int, _ reason: String) -> Void = { _, _, _ in }
    /// Dynamic GET/HEAD handlers by exact path, given at start (so they may
    /// capture what only exists once the server does); they win over
    /// `ServerConfiguration.httpHandlers` and static files.
    public var http: [String: HTTPHandler] = [:]
    /// Request/response APIs by path prefix, given at start; they win over
    /// `ServerConfiguration.httpAPIHandlers`.
    public var api: [String: HTTPAPIHandler] = [:]

    public init(
        onOpen: @escaping @Sendable (ConnectionInfo) -> Void = { _ in },
        onMessage: @escaping @Sendable (ConnectionID, WebSocketMessage) -> Void = { _, _ in },
        onClose: @escaping @Sendable (ConnectionID, CloseCode?) -> Void = { _, _ in }
    ) {
        self.onOpen = onOpen
        self.onMessage = onMessage
        self.onClose = onClose
    }
}
