/// Read-only views of the hub for operations (metrics, logs); O(connections), so
/// meant for once a second or once per connection event, not per frame.
extension Hub {
    /// Open connections by role; those that have not joined yet are under nil.
    public var connectionsByRole: [Role?: Int] {
        var counts: [Role?: Int] = [:]
        for session in sessions.values {
            counts[role(of: session), default: 0] += 1
        }
        return counts
    }

    /// Who a connection is in the hub: its client id, room and role once it
    /// joined, and when it opened (hub seconds). Nil for an unknown connection.
    public func sessionInfo(_ connection: ConnectionKey) -> SessionInfo? {
        guard let session = sessions[connection] else { return nil }
        return SessionInfo(client: session.client, room: session.room?.value, role: role(of: session), openedAt: session.openedAt)
    }
}

/// One connection as `Hub.sessionInfo` reports it.
public struct SessionInfo: Hashable, Sendable {
    public var client: String?
    public var room: String?
    public var role: Role?
    public var openedAt: Double
}
