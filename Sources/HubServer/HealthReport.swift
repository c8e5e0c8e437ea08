import CamHubProtocol
import HubCluster
import HubCore

/// `GET /healthz`: `{"status":"ok","connections":…,"clients":…,"loops":…,"connectionsPerLoop":[…],"ticksPerSecond":…,"activeRooms":…,
/// "rooms":[{"name":…,"clients":…,"seq":…,"ticksPerSecond":…,"camera":{…}}]}`.
/// `ticksPerSecond` counts the last whole second of the hub's clock `now`
/// (seconds): the hub's own ticks, and per room the ticks that visited it
/// (while it moves, as often as its members are due frames; 0 at rest);
/// `activeRooms` counts the rooms visited in that second.
enum HealthReport {
    /// `draining`: the hub is shutting down (status "draining", answered with 503 so that a load balancer stops sending clients).
    static func json(_ hub: Hub, now: Double, connectionsPerLoop: [Int], cluster: ClusterEngine? = nil, draining: Bool = false) -> String {
        var w = JSONWriter(capacity: 256)
        let counts = hub.counts
        let roomTicks = hub.roomTicksPerSecond(at: now)
        let degraded = cluster.map { $0.link != .up } ?? false
        w.raw("{\"status\":")
        w.string(draining ? "draining" : degraded ? "degraded" : "ok")
        w.raw(",\"engine\":")
        w.string(cluster == nil ? "memory" : "redis")
        if let cluster {
            w.raw(",\"redis\":{\"state\":")
            w.string(cluster.link.rawValue)
            w.raw(",\"reason\":")
            w.string(cluster.linkReason)
            w.raw(",\"hub\":")
            w.string(cluster.hubID)
            w.raw(",\"published\":")
            w.integer(cluster.published)
            w.raw(",\"forwarded\":")
            w.integer(cluster.forwarded)
            w.raw(",\"leaseRenewals\":")  // the hub's lease, renewed in time or taken again
            w.integer(cluster.leaseRenewals)
            // Clients of other hubs whose commands ran here: the engine's keys and the hub's sessions for them.
            w.raw(",\"remoteClients\":")
            w.integer(UInt64(cluster.remoteClientCount))
            w.raw(",\"remoteSessions\":")
            w.integer(UInt64(hub.remoteClientCount))
            w.raw(",\"unanswered\":")
            w.integer(cluster.unanswered)
            w.raw(",\"undecodable\":")
            w.integer(cluster.undecodable)
            w.raw("}")
        }
        w.raw(",\"connections\":")
        w.integer(UInt64(counts.connections))
        w.raw(",\"clients\":")
        w.integer(UInt64(counts.clients))
        w.raw(",\"loops\":")
        w.integer(UInt64(connectionsPerLoop.count))
        w.raw(",\"connectionsPerLoop\":[")
        for (i, n) in connectionsPerLoop.enumerated() {
            if i > 0 { w.raw(",") }
            w.integer(UInt64(max(0, n)))
        }
        w.raw("]")
        w.raw(",\"ticksPerSecond\":")
        w.integer(UInt64(hub.ticksPerSecond(at: now)))
        w.raw(",\"activeRooms\":")
        w.integer(UInt64(roomTicks.values.filter { $0 > 0 }.count))
        w.raw(",\"rooms\":[")
        for (i, room) in hub.roomSummaries.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw("{\"name\":")
            w.string(room.name)
            w.raw(",\"clients\":")
            w.integer(UInt64(room.clients))
            w.raw(",\"seq\":")
            w.integer(room.seq)
            if cluster != nil, let name = try? RoomName(validating: room.name) {
                w.raw(",\"owned\":")
                w.bool(hub.owns(name) ?? false)
                w.raw(",\"fenced\":")  // owned, but its lease may have run out: it runs nothing until renewed
                w.bool(hub.isFenced(name, at: now))
            }
            w.raw(",\"ticksPerSecond\":")
            w.integer(UInt64(roomTicks[room.name] ?? 0))
            w.raw(",\"camera\":")
            w.camera(room.camera)
            w.raw("}")
        }
        w.raw("]}")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
