import HubCluster
import Synchronization

/// The links to Redis of every loop's engine, as one for the log: they go
/// down and up together when Redis does, so the hub logs the worst of them
/// (one warning when the first link is lost, one notice when the last is
/// back), not one line per loop. Any loop reports its engine's changes; the
/// links are behind a `Mutex`.
final class ClusterLinks: Sendable {
    private let links: Mutex<[RedisLinkState]>

    init(loops: Int) { links = Mutex(Array(repeating: .connecting, count: loops)) }

    /// Loop `index`'s link is now `state`; returns the worst link of all when
    /// that changed (nil: it did not, nothing to log).
    func set(_ state: RedisLinkState, loop index: Int) -> RedisLinkState? {
        links.withLock { links in
            let before = Self.worst(links)
            links[index] = state
            let after = Self.worst(links)
            return after == before ? nil : after
        }
    }

    private static func worst(_ links: [RedisLinkState]) -> RedisLinkState {
        links.max { $0.severity < $1.severity } ?? .up
    }
}
