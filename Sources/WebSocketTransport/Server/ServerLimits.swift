import Foundation

/// One peer address's allowance of new connections: a token bucket that
/// refills at the per-second limit up to the same number.
struct ConnectBucket {
    var tokens: Double
    var at: Double
}

/// `ConnectionLimits`, applied at the WebSocket upgrade (loop thread only).
extension ServerCore {
    /// Why an upgrade from `address` is over a cap (503), or nil. Consumes one
    /// new-connection token of the address when it is not.
    func limitRefusal(address: String, now: Double = ProcessInfo.processInfo.systemUptime) -> UpgradeRefusal? {
        let limits = config.limits
        if connections.count >= limits.maxConnections {
            return UpgradeRefusal(status: 503, message: "server full: \(limits.maxConnections) WebSocket connections open (its --max-connections); try again later",
                                  headers: [("retry-after", "5")])
        }
        if limits.exemptLoopback && Self.isLoopback(address) { return nil }
        let open = openPerAddress[address, default: 0]
        if open >= limits.maxConnectionsPerAddress {
            return UpgradeRefusal(status: 503, message: "too many connections from \(address): \(open) open, at most \(limits.maxConnectionsPerAddress) (its --max-connections-per-ip)",
                                  headers: [("retry-after", "5")])
        }
        let rate = limits.newConnectionsPerSecondPerAddress
        var bucket = connectBuckets[address] ?? ConnectBucket(tokens: rate, at: now)
        bucket.tokens = min(rate, bucket.tokens + max(0, now - bucket.at) * rate)
        bucket.at = now
        guard bucket.tokens >= 1 else {
            connectBuckets[address] = bucket
            return UpgradeRefusal(status: 503, message: "too many new connections from \(address): at most \(Self.number(rate)) per second (its --max-connection-rate-per-ip); try again later",
                                  headers: [("retry-after", "1")])
        }
        bucket.tokens -= 1
        connectBuckets[address] = bucket
        if connectBuckets.count > 4096 { pruneBuckets(now: now) }
        return nil
    }

    func countOpened(from address: String) { openPerAddress[address, default: 0] += 1 }

    func countClosed(from address: String) {
        guard let open = openPerAddress[address] else { return }
        openPerAddress[address] = open > 1 ? open - 1 : nil
    }

    /// Forgets the buckets that have refilled (an address that stopped connecting).
    private func pruneBuckets(now: Double) {
        let rate = config.limits.newConnectionsPerSecondPerAddress
        connectBuckets = connectBuckets.filter { $0.value.tokens + (now - $0.value.at) * rate < rate }
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
