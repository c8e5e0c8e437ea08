import CamHubProtocol

/// Per-client token bucket over incoming messages: `rate` per second
/// sustained, up to `burst` at once (`Policy`). Excess messages are dropped
/// (not queued), and the client is told at most once per `reportInterval`
/// seconds. Holds only the bucket's state (24 bytes): one lives in every
/// session.
public struct CommandRateLimiter: Hashable, Sendable {
    public enum Verdict: Hashable, Sendable {
        /// Handle the message.
        case accept
        /// Drop the message silently (a `rate_limited` error went out recently).
        case drop
        /// Drop the message and send one `rate_limited` error.
        case dropAndReport
    }

    /// The bucket's shape. Kept once (the hub uses `standard`, the
    /// protocol's), not in every client's limiter.
    public struct Policy: Hashable, Sendable {
        public let rate: Double
        public let burst: Double
        public let reportInterval: Double

        public init(
            rate: Double = HubProtocol.commandsPerSecond, burst: Double = HubProtocol.commandBurst,
            reportInterval: Double = 1
        ) {
            precondition(rate > 0 && burst >= 1, "rate must be positive and burst at least 1")
            self.rate = rate
            self.burst = burst
            self.reportInterval = reportInterval
        }

        /// `HubProtocol.commandsPerSecond` sustained, `HubProtocol.commandBurst` at once, one report a second.
        public static let standard = Policy()
    }

    /// Whole messages available as of the last call. The first call fills
    /// the bucket: it refills from a `last` of minus infinity.
    private var tokens = 0.0
    private var last = -Double.infinity
    private var lastReport = -Double.infinity

    /// A full bucket (for whichever policy `admit` is given).
    public init() {}

    /// Takes one token for a message arriving at `now` (seconds; a clock that
    /// steps back refills nothing). Pass the same `policy` on every call.
    public mutating func admit(now: Double, policy: Policy = .standard) -> Verdict {
        if now > last {
            tokens = min(policy.burst, tokens + (now - last) * policy.rate)
        }
        last = max(now, last)
        if tokens >= 1 - 1e-9 {  // slack for float refill (0.1 s × 10/s = 0.99999…)
            tokens -= 1
            return .accept
        }
        guard now - lastReport >= policy.reportInterval else { return .drop }
        lastReport = now
        return .dropAndReport
    }
}
