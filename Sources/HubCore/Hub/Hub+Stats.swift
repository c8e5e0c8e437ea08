import CamHubProtocol

/// Read-only views of the hub for operations (metrics, logs), meant for once a
/// second or once per connection event, not per frame.
extension Hub {
    /// Open connections by role; those that have not joined yet are under nil.
    /// O(1) in the rooms: the hub keeps every roster's counts added up
    /// (`rosterTotals`), so this walks neither the sessions nor the rooms
    /// (it runs once a second for the metrics, and a hub may hold 10,000 rooms at rest).
    public var connectionsByRole: [Role?: Int] {
        var counts: [Role?: Int] = [
            .presenter: rosterTotals.presenters,
            .follower: rosterTotals.followers,
            .driver: rosterTotals.clients - rosterTotals.followers - rosterTotals.presenters,
        ]
        var joined = rosterTotals.clients
        // Clients of other hubs whose commands this hub runs have sessions here too.
        for key in remoteConnections.values {
            guard let role = sessions[key]?.remoteRole else { continue }
            counts[role, default: 0] += 1
            joined += 1
        }
        counts[nil] = sessions.count - joined
        return counts
    }

    /// Who a connection is in the hub: its client id, room and role once it
    /// joined. Nil for an unknown connection.
    public func sessionInfo(_ connection: ConnectionKey) -> SessionInfo? {
        guard let session = sessions[connection] else { return nil }
        return SessionInfo(client: session.client, room: session.room?.value, role: role(of: session))
    }
}

/// One connection as `Hub.sessionInfo` reports it.
public struct SessionInfo: Hashable, Sendable {
    public var client: String?
    public var room: String?
    public var role: Role?
}

/// Every room's roster added up: clients, presenters and followers (drivers
/// are the rest). Kept by `Hub.changeRoster`, which takes a roster's counts
/// out before changing it and puts them back after.
struct RosterTotals: Hashable {
    var clients = 0
    var presenters = 0
    var followers = 0

    mutating func add(_ roster: Roster) {
        clients += roster.count
        presenters += roster.presenter == nil ? 0 : 1
        followers += roster.followerCount
    }

    mutating func remove(_ roster: Roster) {
        clients -= roster.count
        presenters -= roster.presenter == nil ? 0 : 1
        followers -= roster.followerCount
    }
}
