import Foundation
import HubCore
import Synchronization

/// Who may use the server API (`--api-key-file`: one key per line) and how
/// often: each key may make `requestsPerSecond` requests a second, in bursts
/// of up to `burst` (a token bucket per key). Shared by every loop.
final class APIAccess: Sendable {
    let keys: [String]
    static let requestsPerSecond = 50.0
    static let burst = 100.0
    private let buckets = Mutex<[String: (tokens: Double, at: ContinuousClock.Instant)]>([:])

    init(keys: [String]) { self.keys = keys }

    /// The key an `Authorization: Bearer KEY` header names, if it is one of
    /// `keys` (compared in constant time); nil otherwise.
    func key(from authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return nil }
        let given = String(authorization.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        var found: String?
        for key in keys where MetricsEndpoint.constantTimeEqual(Array(given.utf8), Array(key.utf8)) { found = key }
        return found
    }

    /// Whether `key` may make one more request now (and counts it).
    func admit(_ key: String, now: ContinuousClock.Instant = .now) -> Bool {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? (Self.burst, now)
            let elapsed = (now - bucket.at) / .seconds(1)
            bucket.tokens = min(Self.burst, bucket.tokens + elapsed * Self.requestsPerSecond)
            bucket.at = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return false
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            return true
        }
    }

}

/// `--api-key-file`: the server API's keys, one per line; blank lines and `#` comments are skipped.
public enum APIKeyFile {
    public static func keys(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
