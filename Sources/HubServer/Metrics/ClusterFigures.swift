import HubCluster

/// What `/healthz` and `/metrics` say of a cluster's hub (`--redis`), as a
/// value: read off one loop's Redis engine (`init`), and added up over the
/// loops (`+`): one process with `--loops N` is N members of the cluster.
struct ClusterFigures: Equatable, Sendable {
    /// The members' ids, in loop order (the first is loop 0's, the process's own).
    var hubIDs: [String]
    /// The worst of the members' links to Redis (`down`, then `connecting`, then `up`).
    var link: RedisLinkState
    /// The reason the worst link gave for its state (the first such loop's).
    var reason: String?
    var published: UInt64
    var forwarded: UInt64
    var leaseRenewals: UInt64
    var remoteClients: Int
    var unanswered: UInt64
    var undecodable: UInt64
    /// Fenced writes Redis refused; rooms being prepared now, and given up
    /// for Redis's silence; connections closed for sending too much meanwhile.
    var fencedRefusals: UInt64
    var preparing: Int
    var preparationsGivenUp: UInt64
    var heldTooMuch: UInt64
    /// Redis commands in flight, moving frames shed before Redis, events waiting
    /// for the loops and other hubs' moving frames shed there (`QueueFigures`).
    var commandsInFlight: Int
    var framesShed: Int
    var inboxDepth: Int
    var inboxShed: Int
}

extension ClusterFigures {
    /// On the engine's loop.
    init(_ engine: ClusterEngine) {
        hubIDs = [engine.hubID]
        link = engine.link
        reason = engine.linkReason
        published = engine.published
        forwarded = engine.forwarded
        leaseRenewals = engine.leaseRenewals
        remoteClients = engine.remoteClientCount
        unanswered = engine.unanswered
        undecodable = engine.undecodable
        fencedRefusals = engine.fencedRefusals
        preparing = engine.preparingRooms
        preparationsGivenUp = engine.preparationsGivenUp
        heldTooMuch = engine.heldTooMuch
        commandsInFlight = engine.redis.commandsInFlight
        framesShed = engine.redis.shed
        inboxDepth = engine.inbox.depth
        inboxShed = engine.inbox.shed
    }

    /// Two loops' members as one hub: counts added, the worse link.
    static func + (a: ClusterFigures, b: ClusterFigures) -> ClusterFigures {
        var sum = a
        sum.hubIDs += b.hubIDs
        if b.link.severity > a.link.severity { (sum.link, sum.reason) = (b.link, b.reason) }
        sum.published += b.published
        sum.forwarded += b.forwarded
        sum.leaseRenewals += b.leaseRenewals
        sum.remoteClients += b.remoteClients
        sum.unanswered += b.unanswered
        sum.undecodable += b.undecodable
        sum.fencedRefusals += b.fencedRefusals
        sum.preparing += b.preparing
        sum.preparationsGivenUp += b.preparationsGivenUp
        sum.heldTooMuch += b.heldTooMuch
        sum.commandsInFlight += b.commandsInFlight
        sum.framesShed += b.framesShed
        sum.inboxDepth += b.inboxDepth
        sum.inboxShed += b.inboxShed
        return sum
    }
}

extension Optional where Wrapped == ClusterFigures {
    /// Loops' figures added up; nil without Redis.
    static func + (a: ClusterFigures?, b: ClusterFigures?) -> ClusterFigures? {
        guard let a else { return b }
        guard let b else { return a }
        return a + b
    }
}

extension RedisLinkState {
    /// How bad the link is, for the worst of several: up 0, connecting 1, down 2.
    var severity: Int {
        switch self {
        case .up: 0
        case .connecting: 1
        case .down: 2
        }
    }
}
