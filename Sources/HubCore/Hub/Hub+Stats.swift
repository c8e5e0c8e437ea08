/// Read-only views of the hub for operations (metrics, logs); O(connections), so
/// meant for once a second or once per connection event, not per frame.
extension Hub {
    /// Open connections by role; those that have not joined yet are under nil.
    /// O(rooms): each room's roster keeps its counts, so this reads those,
    /// not every session (it runs once a second for the metrics).
    public var connectionsByRole: [Role?: Int] {
        var counts: [Role?: Int] = [:]
        var joined = 0
        for room in rooms.values {
            let roster = room.roster
            let presenters = roster.presenter == nil ? 0 : 1
            counts[.presenter, default: 0] += presenters
            counts[.follower, default: 0] += roster.followerCount
            counts[.driver, default: 0] += roster.count - roster.followerCount - presenters
            joined += roster.count
        }
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
