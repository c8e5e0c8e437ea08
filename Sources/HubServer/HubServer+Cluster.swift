import HubCluster
import HubCore
import Logging
import WebSocketTransport

extension HubServer.State {
    /// Makes this loop's hub a member `hubID` of the cluster sharing `endpoint`
    /// (`--redis`): the Redis engine becomes the hub's broker and its output's
    /// route to clients of other hubs, and its client ids get the hub's id as a
    /// suffix. Called before the loop runs; `post` hands what the Redis thread
    /// reports to this loop, where `clusterEvent` takes it.
    func joinCluster(
        _ endpoint: RedisEndpoint, hubID: String, leaseMilliseconds: Int, redisQueue: Int, redisInbox: Int,
        post: @escaping @Sendable (ClusterEngine.Event) -> Void
    ) throws -> ClusterEngine {
        let engine = try ClusterEngine(
            endpoint: endpoint, hubID: hubID, leaseMilliseconds: leaseMilliseconds, redisQueue: redisQueue, redisInbox: redisInbox,
            post: post)
        cluster = engine
        sink.cluster = engine
        hub.broker = engine
        hub.setClientIDSuffix(engine.clientIDSuffix)
        return engine
    }

    /// This loop: one event from its engine's Redis thread (`bound`: this state,
    /// for the server API's later answers; `links`: every loop's link, for the log).
    func clusterEvent(_ event: ClusterEngine.Event, bound: LoopBound<HubServer.State>, links: ClusterLinks) {
        guard let cluster else { return }
        let before = cluster.link
        cluster.handle(event, hub: &hub, at: now(), sink: sink)
        if cluster.link != before, let worst = links.set(cluster.link, loop: home) { logLink(worst, cluster) }
        takeClusterAPI(bound)
        sink.flush()
    }

    /// One log line each time the worst of the loops' links to Redis changes:
    /// an operator sees at once that Redis is unreachable (the hub keeps
    /// serving, degraded), and once that it is back.
    private func logLink(_ worst: RedisLinkState, _ cluster: ClusterEngine) {
        let metadata: Logger.Metadata = [
            "state": "\(worst.rawValue)", "reason": "\(cluster.linkReason ?? "")", "hub": "\(cluster.hubID)",
        ]
        switch worst {
        case .up: log.logger.notice("redis linked", metadata: metadata)
        case .down, .connecting: log.logger.warning("redis unreachable, retrying (clients stay connected; /healthz says degraded)", metadata: metadata)
        }
    }

    /// This loop, every lease renewal interval: its engine's leases and presence.
    func clusterTick() {
        guard let cluster else { return }
        let time = now()
        cluster.tick(hub: &hub, at: time, sink: sink)
        forwarded.expire(at: time.seconds) { cluster.isSilent(hub: $0, at: time.seconds) }
        sink.flush()
    }
}
