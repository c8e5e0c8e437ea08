import CamHubProtocol
import CameraCore
import HubCluster
import HubCore

/// What `GET /healthz` says of the rooms, as a value: read off a hub
/// (`init(_:now:cluster:)`, with its loop's Redis engine in a cluster), and
/// added up over several (`+`).
/// `ticksPerSecond` counts the last whole second of the hub's clock `now`
/// (seconds): the hub's own ticks, and per room the ticks that visited it
/// (while it moves, as often as its members are due frames; 0 at rest);
/// `activeRooms` counts the rooms visited in that second.
struct HealthSnapshot: Equatable, LoopPart {
    struct Room: Equatable, Sendable {
        var name: String
        var clients: Int
        var seq: UInt64
        /// In a cluster: whether this hub owns the room, and whether its lease may have run out.
        var owned: Bool?
        var fenced: Bool?
        var ticksPerSecond: Int
        var camera: Camera
    }

    /// Sessions: this hub's own WebSocket connections (those waiting for their
    /// hello too) and, in a cluster, the `remoteSessions`.
    var connections: Int
    /// Clients in a room: this hub's members and the `remoteSessions`' clients.
    var clients: Int
    var ticksPerSecond: Int
    var activeRooms: Int
    /// Sessions for clients of other hubs whose commands ran here (a cluster's hub).
    var remoteSessions: Int
    /// By name.
    var rooms: [Room]
    /// The Redis engines' figures (`--redis`; nil: the in-memory engine).
    var cluster: ClusterFigures?

    init(_ hub: Hub, now: Double, cluster engine: ClusterEngine? = nil) {
        let cluster = engine != nil
        let counts = hub.counts
        let roomTicks = hub.roomTicksPerSecond(at: now)
        connections = counts.connections
        clients = counts.clients
        ticksPerSecond = hub.ticksPerSecond(at: now)
        activeRooms = roomTicks.values.filter { $0 > 0 }.count
        remoteSessions = hub.remoteClientCount
        rooms = hub.roomSummaries.map { room in
            let name = cluster ? try? RoomName(validating: room.name) : nil
            return Room(
                name: room.name, clients: room.clients, seq: room.seq, owned: name.map { hub.owns($0) ?? false },
                fenced: name.map { hub.isFenced($0, at: now) }, ticksPerSecond: roomTicks[room.name] ?? 0, camera: room.camera)
        }
        self.cluster = engine.map(ClusterFigures.init)
    }

    /// Two hubs' figures as one: counts added, rooms together by name, and the
    /// slower of the two clocks (each ticks its own rooms).
    static func + (a: HealthSnapshot, b: HealthSnapshot) -> HealthSnapshot {
        var sum = a
        sum.connections += b.connections
        sum.clients += b.clients
        sum.ticksPerSecond = min(a.ticksPerSecond, b.ticksPerSecond)
        sum.activeRooms += b.activeRooms
        sum.remoteSessions += b.remoteSessions
        sum.rooms = (a.rooms + b.rooms).sorted { $0.name < $1.name }
        sum.cluster = a.cluster + b.cluster
        return sum
    }
}

/// `GET /healthz`: `{"status":"ok","connections":…,"clients":…,"loops":…,"connectionsPerLoop":[…],"ticksPerSecond":…,"activeRooms":…,
/// "rooms":[{"name":…,"clients":…,"seq":…,"ticksPerSecond":…,"camera":{…}}]}` (`HealthSnapshot` says what each figure is).
enum HealthReport {
    /// `draining`: the hub is shutting down (status "draining", answered with 503 so that a load balancer stops sending clients).
    static func json(
        _ snapshot: HealthSnapshot, connectionsPerLoop: [Int], draining: Bool = false
    ) -> String {
        let cluster = snapshot.cluster
        var w = JSONWriter(capacity: 256)
        let degraded = cluster.map { $0.link != .up } ?? false
        w.raw("{\"status\":")
        w.string(draining ? "draining" : degraded ? "degraded" : "ok")
        w.raw(",\"engine\":")
        w.string(cluster == nil ? "memory" : "redis")
        if let cluster { write(cluster, remoteSessions: snapshot.remoteSessions, into: &w) }
        w.raw(",\"connections\":")
        w.integer(UInt64(snapshot.connections))
        w.raw(",\"clients\":")
        w.integer(UInt64(snapshot.clients))
        w.raw(",\"loops\":")
        w.integer(UInt64(connectionsPerLoop.count))
        w.raw(",\"connectionsPerLoop\":[")
        for (i, n) in connectionsPerLoop.enumerated() {
            if i > 0 { w.raw(",") }
            w.integer(UInt64(max(0, n)))
        }
        w.raw("]")
        w.raw(",\"ticksPerSecond\":")
        w.integer(UInt64(snapshot.ticksPerSecond))
        w.raw(",\"activeRooms\":")
        w.integer(UInt64(snapshot.activeRooms))
        w.raw(",\"rooms\":[")
        for (i, room) in snapshot.rooms.enumerated() {
            if i > 0 { w.raw(",") }
            write(room, into: &w)
        }
        w.raw("]}")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    private static func write(_ room: HealthSnapshot.Room, into w: inout JSONWriter) {
        w.raw("{\"name\":")
        w.string(room.name)
        w.raw(",\"clients\":")
        w.integer(UInt64(room.clients))
        w.raw(",\"seq\":")
        w.integer(room.seq)
        if let owned = room.owned, let fenced = room.fenced {
            w.raw(",\"owned\":")
            w.bool(owned)
            w.raw(",\"fenced\":")  // owned, but its lease may have run out: it runs nothing until renewed
            w.bool(fenced)
        }
        w.raw(",\"ticksPerSecond\":")
        w.integer(UInt64(room.ticksPerSecond))
        w.raw(",\"camera\":")
        w.camera(room.camera)
        w.raw("}")
    }

    /// The Redis engines' part: their link, this hub's ids (one per loop), and what went through them.
    private static func write(_ cluster: ClusterFigures, remoteSessions: Int, into w: inout JSONWriter) {
        w.raw(",\"redis\":{\"state\":")
        w.string(cluster.link.rawValue)
        w.raw(",\"reason\":")
        w.string(cluster.reason)
        w.raw(",\"hub\":")
        w.string(cluster.hubIDs.first ?? "")
        w.raw(",\"hubs\":[")  // every loop's member of the cluster, loop 0's first
        for (i, id) in cluster.hubIDs.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(id)
        }
        w.raw("],\"published\":")
        w.integer(cluster.published)
        w.raw(",\"forwarded\":")
        w.integer(cluster.forwarded)
        w.raw(",\"leaseRenewals\":")  // the hubs' leases, renewed in time or taken again
        w.integer(cluster.leaseRenewals)
        // Clients of other hubs whose commands ran here: the engines' keys and the hubs' sessions for them.
        w.raw(",\"remoteClients\":")
        w.integer(UInt64(cluster.remoteClients))
        w.raw(",\"remoteSessions\":")
        w.integer(UInt64(remoteSessions))
        w.raw(",\"unanswered\":")
        w.integer(cluster.unanswered)
        w.raw(",\"undecodable\":")
        w.integer(cluster.undecodable)
        w.raw(",\"fencedRefusals\":")  // frames and events Redis refused: the room's epoch was not this hub's
        w.integer(cluster.fencedRefusals)
        w.raw(",\"preparing\":")  // rooms whose first hello waits for Redis
        w.integer(UInt64(cluster.preparing))
        w.raw(",\"preparationsGivenUp\":")
        w.integer(cluster.preparationsGivenUp)
        w.raw(",\"heldTooMuch\":")
        w.integer(cluster.heldTooMuch)
        w.raw("}")
    }
}
