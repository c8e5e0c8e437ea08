/// How long a room waits before it connects again: the same rule and
/// constants as the JavaScript client's `Connection` (clients/js/src/net/connection.js).
/// Pure: the random number is passed in.
public struct Backoff: Hashable, Sendable {
    /// Seconds before attempt 0, 1, 2, …; the last repeats.
    public var delays: [Double] = [0.5, 1, 2, 4, 8]
    /// Each retry waits its delay ±`jitter` (a fraction), so that the clients
    /// of a hub that restarts do not all come back in the same instant.
    public var jitter = 0.25
    /// After a drain (1001, 1012) the first retry waits a random time within a
    /// window of this many seconds per client of the room …
    public var drainWindowPerClient = 0.001
    /// … at least the first delay, at most this many seconds.
    public var drainWindowMax = 10.0
    /// How many connections are tried one after another before the room gives up
    /// (the Python client's `attempts`); nil: until `close()`.
    public var attempts: Int?

    public init() {}

    /// A backoff with these delays (seconds; the last repeats), jitter and attempts.
    public init(delays: [Double], jitter: Double = 0.25, attempts: Int? = nil) {
        precondition(!delays.isEmpty && delays.allSatisfy { $0 >= 0 }, "Backoff: delays must be one or more seconds ≥ 0")
        self.delays = delays
        self.jitter = jitter
        self.attempts = attempts
    }

    /// Seconds to wait before retry number `attempt` (from 0); `random` in 0..<1.
    public func delay(attempt: Int, random: Double) -> Double {
        let base = delays[min(max(0, attempt), delays.count - 1)]
        return base * (1 + jitter * (2 * random - 1))
    }

    /// The window (seconds) a drained room's clients spread their first return over.
    public func drainWindow(audience: Int) -> Double {
        min(drainWindowMax, max(delays[0], Double(max(0, audience)) * drainWindowPerClient))
    }

    /// Seconds to wait before the first retry after a drain; `random` in 0..<1.
    public func drainWait(audience: Int, random: Double) -> Double {
        random * drainWindow(audience: audience)
    }
}

/// The WebSocket close codes the hub uses, and what a client does after each
/// (docs/PROTOCOL.md, Session).
public enum CloseCode {
    /// The hub stops (1001 going away) or restarts (1012 service restart): its whole audience comes back.
    public static let draining: Set<Int> = [1001, 1012]
    /// A dropped connection: no close frame came.
    public static let dropped = 1006
    /// Policy: before a welcome, a refused hello (retrying the same hello is refused again).
    public static let policy = 1008
    /// The session ended for good: removed by the server API (4000), token
    /// expired (4001) or revoked (4003). The same hello is not tried again.
    public static let final: Set<Int> = [4000, 4001, 4003]
    /// The token problems after which a room with `getToken` joins again with a new token.
    public static let token: Set<Int> = [4001, 4003]
}
