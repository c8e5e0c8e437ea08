/// Fixed numbers of protocol v1 that the transport and the hub share.
public enum HubProtocol {
    /// WebSocket path of the hub endpoint.
    public static let path = "/hub"
    /// WebSocket subprotocol (Sec-WebSocket-Protocol) of version 1.
    public static let subprotocol = "camhub.v1"
    /// Largest accepted client message in bytes; bigger ones close the connection with 1009.
    public static let maxMessageBytes = 8 * 1024
    /// A connection that has not sent a valid `hello` within this many seconds is closed with 1008.
    public static let helloTimeout: Double = 10
    /// The hub pings (WebSocket ping control frame) a connection idle for this many seconds.
    public static let idlePingInterval: Double = 30
    /// Sustained client messages per second before `rate_limited`.
    public static let commandsPerSecond: Double = 240
    /// Messages a client may send in a burst above the sustained rate.
    public static let commandBurst: Double = 240
    /// `looking` messages a client sends at most per second (clients throttle
    /// to this; the hub drops what comes faster than `lookingPerSecond + 1`).
    public static let lookingPerSecond: Double = 2
    /// Default room tick rate in Hz (frames per second a room produces at most).
    public static let defaultTick: Double = 60
    /// Frame rate a client gets when its `hello` has no `rate`: this, capped at the tick.
    public static let defaultRate: Double = 30
    /// Longest room name, client name, animation or query id (Unicode scalars).
    public static let maxNameLength = 64
    /// Longest token (Unicode scalars): static tokens and signed room tokens.
    public static let maxTokenLength = 2048
    /// Most points in one `query`.
    public static let maxQueryPoints = 1000
}

/// WebSocket close codes (RFC 6455 §7.4.1) the hub uses.
public enum HubCloseCode: UInt16, Sendable {
    /// Normal closure.
    case normal = 1000
    /// The hub is shutting down.
    case goingAway = 1001
    /// Invalid UTF-8 in a text message.
    case invalidPayload = 1007
    /// Policy violation: no hello in time, a wrong token.
    case policyViolation = 1008
    /// Message larger than `HubProtocol.maxMessageBytes`.
    case messageTooBig = 1009
    /// Try again later: a cap is reached (`full`).
    case tryAgainLater = 1013
    /// The server API removed the client (`DELETE /api/v1/rooms/{room}/clients/{client}`).
    case removedByServer = 4000
    /// The client's signed token expired and was not refreshed.
    case tokenExpired = 4001
    /// The client's signed token was revoked (`--revoked-file`).
    case tokenRevoked = 4003
}

/// An error the hub reports to a client as an `error` message.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// Not JSON, not an object, no or mistyped `type`, or a field that fails validation.
        case badMessage = "bad_message"
        /// A `type` this hub does not know.
        case unknownType = "unknown_type"
        /// A command before `hello` (or a second `hello`… see `conflict`).
        case notJoined = "not_joined"
        /// The client's role may not do this, or a wrong/missing token.
        case forbidden = "forbidden"
        /// The command clashes with the state: a second `hello`, a duplicate
        /// animation id, an animation of a higher rank holding the properties.
        case conflict = "conflict"
        /// `cancel` or `after` names an animation the room does not have.
        case unknownAnimation = "unknown_animation"
        /// More than `HubProtocol.commandsPerSecond` messages per second.
        case rateLimited = "rate_limited"
        /// A `hello` over a cap (the hub's rooms, the room's clients); then close 1013.
        case full = "full"
        /// The room's follow policy forbids it (`follow` `exploring` while the presenter has locked following).
        case policy = "policy"
        /// The room has no reachable owner right now (a failover under way,
        /// Redis unreachable): the command did not run, or its answer was lost.
        /// Try again shortly.
        case unavailable = "unavailable"
        /// A `refresh` whose token is not accepted (the session keeps its old one).
        case token = "token"
    }

    public var code: Code
    /// Names the offending field first (`camera.lat: must be within -90…90 degrees (got 91.0)`).
    public var message: String
    /// The offending message's `id` if it had one (a string), else its `type`, else nil.
    public var ref: String?
    /// When set, the transport sends the error and then closes the connection with this code.
    public var close: HubCloseCode?

    public init(_ code: Code, _ message: String, ref: String? = nil, close: HubCloseCode? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
        self.close = close
    }

    public var description: String { "\(code.rawValue): \(message)" + (ref.map { " (ref \($0))" } ?? "") }

    /// `not_joined` for any message before a successful hello.
    public static func notJoined(ref: String?) -> ProtocolError {
        ProtocolError(.notJoined, "send hello first", ref: ref)
    }

    /// `rate_limited` (report at most one per second; see `CommandRateLimiter`).
    public static func rateLimited(ref: String?) -> ProtocolError {
        ProtocolError(.rateLimited, "more than \(Int(HubProtocol.commandsPerSecond)) messages per second; excess dropped", ref: ref)
    }

    /// `unavailable`: no hub of the cluster can run the room's camera right now.
    public static func unavailable(ref: String?) -> ProtocolError {
        ProtocolError(.unavailable, "room: no reachable hub holds this room right now (failover or Redis unreachable); try again", ref: ref)
    }
}
