import CamHubProtocol

/// What went wrong, typed: the hub's own error code when the hub refused
/// something, else what happened to the connection.
public struct CamHubError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The hub answered `error` with this code (`hub.code`), about the message `hub.ref` names.
        case hub(ProtocolError.Code)
        /// The connection could not be made, or is not open now.
        case connection
        /// The server answered the WebSocket upgrade with something else (a wrong path or
        /// subprotocol, an origin it does not take): swift-websocket does not pass its response on.
        case upgradeRefused
        /// The connection closed with this code (1006: dropped without a close
        /// frame; 1012: the hub restarts) before the answer came.
        case closed(ConnectionClose)
        /// The hub sent something protocol v1 does not say (a malformed message).
        case protocolViolation
        /// An argument was not valid before anything was sent (a room name, say).
        case badArgument
        /// `getToken` threw or gave an empty token.
        case tokenSource
    }

    public var kind: Kind
    public var message: String
    /// The `ref` of a hub error: the offending message's id, else its type.
    public var ref: String?

    public init(_ kind: Kind, _ message: String, ref: String? = nil) {
        self.kind = kind
        self.message = message
        self.ref = ref
    }

    init(_ error: ProtocolError) {
        self.init(.hub(error.code), error.message, ref: error.ref)
    }

    /// The hub's error code, when the hub refused something.
    public var code: ProtocolError.Code? { if case .hub(let code) = kind { code } else { nil } }

    /// The close code of a connection that ended before the answer came.
    public var closeCode: Int? { if case .closed(let close) = kind { close.code } else { nil } }

    public var description: String {
        switch kind {
        case .hub(let code): "\(code.rawValue): \(message)" + (ref.map { " (ref \($0))" } ?? "")
        case .connection: "connection: \(message)"
        case .upgradeRefused: "upgrade: \(message)"
        case .closed(let close): "closed (\(close)): \(message)"
        case .protocolViolation: "protocol: \(message)"
        case .badArgument: "argument: \(message)"
        case .tokenSource: "getToken: \(message)"
        }
    }
}
