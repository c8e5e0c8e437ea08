/// How a WebSocket ended: its close code (1006 when it dropped without a
/// close frame) and the reason the hub gave.
public struct ConnectionClose: Hashable, Sendable, CustomStringConvertible {
    public var code: Int
    public var reason: String

    public init(code: Int, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason.isEmpty ? "\(code)" : "\(code): \(reason)" }
}

/// Where a room's connection is (`Room.connection`, and each change in `Room.changes`).
public enum ConnectionState: Hashable, Sendable {
    /// The first connection is being made (socket, hello, welcome).
    case connecting
    /// Joined: the hub welcomed this client on the current socket.
    case open
    /// The connection was lost (`lastClose`); retry number `attempt` (from 1)
    /// comes after the backoff, and ends in `open` again once welcomed.
    case reconnecting(attempt: Int, lastClose: ConnectionClose)
    /// For good: closed by `close()` (nil), or what ended it (a refused hello,
    /// a final close such as 4001 without `getToken`).
    case closed(CamHubError?)

    public var isOpen: Bool { self == .open }
}

/// What a room tells besides frames and hub events (one consumer: `Room.changes`).
public enum RoomChange: Hashable, Sendable {
    /// The connection's state changed.
    case connection(ConnectionState)
    /// After `.reconnecting(attempt:…)`: that attempt starts in this many seconds (the backoff with its jitter).
    case retrying(attempt: Int, after: Double)
    /// A welcome came (the first, or after a reconnect): the room's state was refreshed from it.
    case welcomed(client: String)
    /// The hub took a new token (`refresh`): its expiry, seconds since 1970.
    case tokenRefreshed(exp: Double)
    /// `getToken` failed or the hub refused its token; the session keeps the old one until it expires.
    case tokenRefreshFailed(CamHubError)
}
