import CamHubProtocol
import CameraCore

/// Where a room's exploring members on this hub look (`looking`), kept for
/// the `viewports` event: only the latest region per client. Bounded by the
/// roster: only listed clients that explore have an entry, and it goes when
/// they stop sharing, follow again, go away or leave. The other hubs' come
/// with their presence (`HubPresence.looks`).
struct RoomLooks: Hashable, Sendable {
    /// By client id.
    var byClient: [String: MemberLook] = [:]
    /// Changed since the last `viewports` event, which went out at `sentAt` (seconds).
    var changed = false
    var sentAt = -Double.infinity
}

/// One exploring member's region as its hub tells the other hubs (`HubPresence.looks`).
public struct SharedLook: Hashable, Sendable {
    public var client: String
    /// Four corners, longitudes wrapped to [-180, 180].
    public var region: [GeoCoordinate]
    public init(client: String, region: [GeoCoordinate]) {
        self.client = client
        self.region = region
    }
}

/// One exploring member's last reported visible region.
struct MemberLook: Hashable, Sendable {
    /// Four corners, longitudes wrapped to [-180, 180].
    var region: [GeoCoordinate]
    /// Its `looking` messages' own bucket (`Hub.lookingPolicy`).
    var limiter = CommandRateLimiter()
}

extension Room {
    /// Takes `region` as where listed `client` looks, unless its `looking`
    /// messages come faster than `policy` allows. O(1).
    mutating func noteLook(of client: String, region: [GeoCoordinate], at now: Double, policy: CommandRateLimiter.Policy)
        -> CommandRateLimiter.Verdict
    {
        var looks = self.looks
        let old = looks.byClient[client]
        var look = old ?? MemberLook(region: region)
        let verdict = look.limiter.admit(now: now, policy: policy)
        if verdict == .accept {
            look.region = region
            if old?.region != region { looks.changed = true }
        }
        looks.byClient[client] = look
        self.looks = looks
        return verdict
    }

    /// Forgets where `client` looked (it stopped sharing, follows again, went
    /// away or left); false when nothing was kept.
    mutating func dropLook(of client: String) -> Bool {
        guard looks.byClient[client] != nil else { return false }
        looks.byClient[client] = nil
        looks.changed = true
        return true
    }

    /// Someone newly subscribed to `viewports` needs the list: the next event carries it.
    mutating func resendViewports() {
        guard !looks.byClient.isEmpty || remote.values.contains(where: { $0.lookCount > 0 }) else { return }
        looks.changed = true
    }

    /// Another hub's explorers look elsewhere now: the next `viewports` tells it.
    mutating func othersLooksChanged() { looks.changed = true }

    /// This hub's looks for the other hubs: the first `RoomViewports.maxListed`
    /// in roster order, and how many there are in all. O(listed).
    var sharedLooks: (looks: [SharedLook], count: Int) {
        let byClient = looks.byClient
        guard !byClient.isEmpty else { return ([], 0) }
        var shared: [SharedLook] = []
        for entry in roster.entries where shared.count < RoomViewports.maxListed {
            if let look = byClient[entry.client] { shared.append(SharedLook(client: entry.client, region: look.region)) }
        }
        return (shared, byClient.count)
    }

    /// The `viewports` event when one is due at `now` (changed, and `interval`
    /// seconds after the last): the first `RoomViewports.maxListed` regions
    /// in cluster roster order (this hub's listed members first, then each
    /// other hub's), the rest counted in `others`; nil otherwise. O(listed).
    mutating func dueViewports(at now: Double, interval: Double) -> RoomViewports? {
        guard looks.changed, now - looks.sentAt >= interval else { return nil }
        looks.changed = false
        looks.sentAt = now
        let local = looks.byClient
        var elsewhere: [String: [GeoCoordinate]] = [:]
        var total = local.count
        for presence in remote.values {
            total += presence.lookCount
            for look in presence.looks { elsewhere[look.client] = look.region }
        }
        var clients: [MemberViewport] = []
        for entry in clusterRoster where clients.count < RoomViewports.maxListed {
            guard let region = local[entry.client]?.region ?? elsewhere[entry.client] else { continue }
            clients.append(MemberViewport(client: entry.client, name: entry.name, state: entry.follow, region: region))
        }
        return RoomViewports(clients: clients, others: max(0, total - clients.count))
    }
}
