import CamHubProtocol

/// A presenter's commands the hub answered `unavailable` (the room had no
/// reachable owner: a failover under way, or Redis unreachable), sent again
/// after a backoff: 0.25 s doubling per attempt, with ±20 % jitter so that
/// the clients of a room do not all come back at once, at most `maxAttempts`
/// times. Keyed by the command's `ref` (its id, else its type): a step that
/// sends a new command with that ref starts its count again.
struct UnavailableRetries {
    static let maxAttempts = 5

    struct Retry: Equatable {
        var ref: String
        var message: ClientMessage
        /// 1 for the first retry.
        var attempt: Int
        /// Monotonic seconds at which to send it.
        var at: Double
    }

    private var lastSent: [String: (message: ClientMessage, attempts: Int)] = [:]
    private(set) var due: [Retry] = []
    /// Commands sent again, in all.
    private(set) var sent = 0

    /// A step sent `message` (its `ref`: its id, else its type).
    mutating func sent(_ message: ClientMessage) { lastSent[message.ref] = (message, 0) }

    /// The hub answered `ref` with `unavailable` at `now`: the retry to send,
    /// or nil when it was not ours or its attempts are used up.
    mutating func unavailable(ref: String, at now: Double, jitter: Double = Double.random(in: -0.2...0.2)) -> Retry? {
        guard let last = lastSent[ref], last.attempts < Self.maxAttempts else { return nil }
        let attempt = last.attempts + 1
        lastSent[ref] = (last.message, attempt)
        let delay = 0.25 * Double(1 << (attempt - 1)) * (1 + jitter)
        let retry = Retry(ref: ref, message: last.message, attempt: attempt, at: now + delay)
        due.append(retry)
        return retry
    }

    /// Takes out the retries due at `now`, to send.
    mutating func take(at now: Double) -> [Retry] {
        let ready = due.filter { $0.at <= now }
        guard !ready.isEmpty else { return [] }
        due.removeAll { $0.at <= now }
        sent += ready.count
        return ready
    }
}
