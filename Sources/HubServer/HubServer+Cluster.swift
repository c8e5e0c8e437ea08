import HubCluster
import HubCore
import WebSocketTransport

extension HubServer.State {
    /// Makes this hub a member of the cluster sharing `endpoint` (`--redis`):
    /// the Redis engine becomes the hub's broker, its client ids get the hub's
    /// id as a suffix, and what Redis answers is handed to the loop thread.
    func joinCluster(_ endpoint: RedisEndpoint, leaseMilliseconds: Int, server: WebSocketServer) throws {
        let engine = try ClusterEngine(endpoint: endpoint, leaseMilliseconds: leaseMilliseconds) { [self] event in
            _ = server.execute { self.clusterEvent(event) }
        }
        cluster = engine
        hub.broker = engine
        hub.setClientIDSuffix(engine.clientIDSuffix)
    }

    /// Loop thread: one event from the Redis thread.
    func clusterEvent(_ event: ClusterEngine.Event) {
        guard let cluster, let sink else { return }
        cluster.handle(event, hub: &hub, at: now(), sink: sink)
    }
}

extension HubServer.State {
    /// Loop thread, every lease renewal interval: leases and presence.
    func clusterTick() {
        guard let cluster, let sink else { return }
        cluster.tick(hub: &hub, at: now(), sink: sink)
    }
}
