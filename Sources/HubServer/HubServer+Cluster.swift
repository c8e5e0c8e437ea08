import HubCluster
import HubCore
import Logging
import WebSocketTransport

extension HubServer.State {
    /// Makes this hub a member of the cluster sharing `endpoint` (`--redis`):
    /// the Redis engine becomes the hub's broker and its output's route to
    /// clients of other hubs, and its client ids get the hub's id as a suffix.
    /// Called before loop 0 runs; `post` hands what the Redis thread reports
    /// to loop 0, where `clusterEvent` takes it.
    func joinCluster(
        _ endpoint: RedisEndpoint, leaseMilliseconds: Int, redisQueue: Int, redisInbox: Int,
        post: @escaping @Sendable (ClusterEngine.Event) -> Void
    ) throws -> ClusterEngine {
        let engine = try ClusterEngine(
            endpoint: endpoint, leaseMilliseconds: leaseMilliseconds, redisQueue: redisQueue, redisInbox: redisInbox, post: post)
        cluster = engine
        sink.cluster = engine
        hub.broker = engine
        hub.setClientIDSuffix(engine.clientIDSuffix)
        return engine
    }

    /// Loop 0: one event from the Redis thread (`bound`: this state, for the server API's later answers).
    func clusterEvent(_ event: ClusterEngine.Event, bound: LoopBound<HubServer.State>) {
        guard let cluster else { return }
        let before = cluster.link
        cluster.handle(event, hub: &hub, at: now(), sink: sink)
        if cluster.link != before { logLink(cluster) }
        takeClusterAPI(bound)
        sink.flush()
    }

    /// One log line each time the link to Redis changes: an operator sees at
    /// once that Redis is unreachable (the hub keeps serving, degraded).
    private func logLink(_ cluster: ClusterEngine) {
        let metadata: Logger.Metadata = [
            "state": "\(cluster.link.rawValue)", "reason": "\(cluster.linkReason ?? "")",
            "hub": "\(cluster.hubID)",
        ]
        switch cluster.link {
        case .up: log.logger.notice("redis linked", metadata: metadata)
        case .down, .connecting: log.logger.warning("redis unreachable, retrying (clients stay connected; /healthz says degraded)", metadata: metadata)
        }
    }

    /// Loop 0, every lease renewal interval: leases and presence.
    func clusterTick() {
        guard let cluster else { return }
        let time = now()
        cluster.tick(hub: &hub, at: time, sink: sink)
        forwarded.expire(at: time.seconds) { cluster.isSilent(hub: $0, at: time.seconds) }
        sink.flush()
    }
}
