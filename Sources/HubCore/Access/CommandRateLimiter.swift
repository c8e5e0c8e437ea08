/// Per-client token bucket over incoming messages: `rate` per second
/// sustained, up to `burst` at once. Excess messages are dropped (not
/// queued), and the client is told at most once per `reportInterval` seconds.
public struct CommandRateLimiter: Hashable, Sendable {
    public enum Verdict: Hashable, Sendable {
        /// Handle the message.
        case accept
        /// Drop the message silently (a `rate_limited` error went out recently).
        case drop
        /// Drop the message and send one `rate_limited` error.
        case dropAndReport
    }

    public let rate: Double
    public let burst: Double
    public let reportInterval: Double
    /// Whole messages available right now (as of the last call).
    public private(set) var tokens: Double
    private var last: Double?
    private var lastReport: Double = -.infinity
    /// Messages dropped since the limiter was made.
    public private(set) var dropped: UInt64 = 0

    public init(
        rate: Double = HubProtocol.commandsPerSecond, burst: Double = HubProtocol.commandBurst,
        reportInterval: Double = 1
    ) {
        precondition(rate > 0 && burst >= 1, "rate must be positive and burst at least 1")
        self.rate = rate
        self.burst = burst
        self.reportInterval = reportInterval
        self.tokens = burst
    }

    /// Takes one token for a message arriving at `now` (seconds; a clock that
    /// steps back refills nothing).
    public mutating func admit(now: Double) -> Verdict {
        if let last, now > last {
            tokens = min(burst, tokens + (now - last) * rate)
        }
        last = max(now, last ?? now)
        if tokens >= 1 - 1e-9 {  // slack for float refill (0.1 s × 10/s = 0.99999…)
            tokens -= 1
            return .accept
        }
        dropped += 1
        guard now - lastReport >= reportInterval else { return .drop }
        lastReport = now
        return .dropAndReport
    }
}
