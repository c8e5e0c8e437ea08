import CamHubProtocol

/// Replies awaited from the hub, each registered before its question is
/// sent (so an answer that comes before the asker suspends is kept), and
/// handed to its asker when it comes. Owned by one `Room` (actor-isolated).
struct Answers {
    private enum Slot {
        /// Registered; the asker has not suspended yet.
        case expected(matches: @Sendable (HubToClient) -> Bool)
        /// The asker waits.
        case waiting(matches: @Sendable (HubToClient) -> Bool, CheckedContinuation<HubToClient, any Error>)
        /// Answered before the asker waited.
        case answered(HubToClient)
        /// The connection ended before the asker waited.
        case failed(CamHubError)
    }

    private var slots: [Int: Slot] = [:]
    private var next = 0

    /// Registers a reply to wait for; returns its key.
    mutating func expect(_ matches: @escaping @Sendable (HubToClient) -> Bool) -> Int {
        next += 1
        slots[next] = .expected(matches: matches)
        return next
    }

    /// The asker of `key` waits (resumed at once if the answer came already).
    mutating func wait(_ key: Int, _ continuation: CheckedContinuation<HubToClient, any Error>) {
        switch slots[key] {
        case .answered(let reply):
            slots[key] = nil
            continuation.resume(returning: reply)
        case .expected(let matches):
            slots[key] = .waiting(matches: matches, continuation)
        case .failed(let error):
            slots[key] = nil
            continuation.resume(throwing: error)
        case .waiting, nil:
            continuation.resume(throwing: CamHubError(.connection, "the connection ended before the answer came"))
        }
    }

    /// The answer of `key` if it came (and forgets the key).
    mutating func take(_ key: Int) -> HubToClient? {
        defer { slots[key] = nil }
        if case .answered(let reply) = slots[key] { return reply }
        return nil
    }

    mutating func forget(_ key: Int) { slots[key] = nil }

    /// Hands `reply` to every asker waiting for it.
    mutating func deliver(_ reply: HubToClient) {
        for (key, slot) in slots {
            switch slot {
            case .expected(let matches) where matches(reply):
                slots[key] = .answered(reply)
            case .waiting(let matches, let continuation) where matches(reply):
                slots[key] = nil
                continuation.resume(returning: reply)
            default:
                break
            }
        }
    }

    /// The connection ended: every asker gets `error` (one that has not waited yet, when it does).
    mutating func failAll(_ error: CamHubError) {
        for (key, slot) in slots {
            switch slot {
            case .waiting(_, let continuation):
                continuation.resume(throwing: error)
                slots[key] = nil
            case .expected:
                slots[key] = .failed(error)
            case .answered, .failed:
                break
            }
        }
    }
}
