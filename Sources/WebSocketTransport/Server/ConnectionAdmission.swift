import Foundation

/// One peer address's allowance of new connections: a token bucket that
/// refills at the per-second limit up to the same number.
struct ConnectBucket {
    var tokens: Double
    var at: Double
}

/// The bookkeeping behind `ConnectionLimits`: open WebSockets in all, open
/// per peer address, and each address's new-connection bucket.
///
/// Servers that share a port (`ServerConfiguration.loops`) share one of these,
/// so the caps hold for the port as a whole, not per loop. Any thread: the
/// state sits behind a lock, taken once per upgrade and once per close, never
/// per message.
public final class ConnectionAdmission: Sendable {
    private struct State {
        var open = 0
        var openPerAddress: [String: Int] = [:]
        var buckets: [String: ConnectBucket] = [:]
    }

    public let limits: ConnectionLimits
    private let state = Locked(State())

    public init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Why an upgrade from `address` is over a cap (503), or nil. When nil,
    /// the upgrade took one new-connection token of its address. (Between
    /// this check and `opened`, loops sharing the admission may each let one
    /// more in: a cap can be passed by at most the number of loops minus one.)
    func refusal(address: String, now: Double = ProcessInfo.processInfo.systemUptime) -> UpgradeRefusal? {
        state.withLock { s in refusal(address: address, now: now, &s) }
    }

    /// A WebSocket from `address` is established.
    func opened(from address: String) {
        state.withLock { s in
            s.open += 1
            s.openPerAddress[address, default: 0] += 1
        }
    }

    /// A WebSocket `opened` counted has ended.
    func closed(from address: String) {
        state.withLock { s in
            s.open -= 1
            guard let open = s.openPerAddress[address] else { return }
            s.openPerAddress[address] = open > 1 ? open - 1 : nil
        }
    }

    /// Open WebSockets counted here (all loops sharing this admission).
    public var openConnections: Int { state.withLock { $0.open } }

    private func refusal(address: String, now: Double, _ s: inout State) -> UpgradeRefusal? {
        if s.open >= limits.maxConnections {
            return UpgradeRefusal(
                status: 503, message: "server full: \(limits.maxConnections) WebSocket connections open (its --max-connections); try again later",
                headers: [("retry-after", "5")])
        }
        if limits.exemptLoopback && Self.isLoopback(address) { return nil }
        let open = s.openPerAddress[address, default: 0]
        if open >= limits.maxConnectionsPerAddress {
            return UpgradeRefusal(
                status: 503,
                message: "too many connections from \(address): \(open) open, at most \(limits.maxConnectionsPerAddress) (its --max-connections-per-ip)",
                headers: [("retry-after", "5")])
        }
        let rate = limits.newConnectionsPerSecondPerAddress
        var bucket = s.buckets[address] ?? ConnectBucket(tokens: rate, at: now)
        bucket.tokens = min(rate, bucket.tokens + max(0, now - bucket.at) * rate)
        bucket.at = now
        guard bucket.tokens >= 1 else {
            s.buckets[address] = bucket
            return UpgradeRefusal(
                status: 503,
                message:
                    "too many new connections from \(address): at most \(Self.number(rate)) per second (its --max-connection-rate-per-ip); try again later",
                headers: [("retry-after", "1")])
        }
        bucket.tokens -= 1
        s.buckets[address] = bucket
        if s.buckets.count > 4096 {
            // Forget the buckets that have refilled (addresses that stopped connecting).
            s.buckets = s.buckets.filter { $0.value.tokens + (now - $0.value.at) * rate < rate }
        }
        return nil
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
