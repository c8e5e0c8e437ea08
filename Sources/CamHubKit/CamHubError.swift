import CamHubProtocol

/// What went wrong, typed: the hub's own error code when the hub refused
/// something, else what happened to the connection.
public struct CamHubError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The hub answered `error` with this code (`hub.code`), about the message `hub.ref` names.
        case hub(ProtocolError.Code)
        /// The connection could not be made or ended before the answer came.
        case connection
        /// The hub sent something protocol v1 does not say (a malformed message).
        case protocolViolation
        /// An argument was not valid before anything was sent (a room name, say).
        case badArgument
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

    public var description: String {
        switch kind {
        case .hub(let code): "\(code.rawValue): \(message)" + (ref.map { " (ref \($0))" } ?? "")
        case .connection: "connection: \(message)"
        case .protocolViolation: "protocol: \(message)"
        case .badArgument: "argument: \(message)"
        }
    }
}
