import CameraMotion

/// What one other hub of the cluster has in a room: its listed clients and
/// head counts, as it last announced them (`RoomBroker`'s presence messages).
public struct HubPresence: Hashable, Sendable {
    public var entries: [RosterEntry]
    public var audience: Audience
    /// When its presenter took the room (ms since the epoch; nil: it has none):
    /// of two presenters on two hubs, the later one stays.
    public var presenterSince: Double?
    /// The room's follow policy as that hub has it: the newest (`since`) wins.
    public var followPolicy: FollowPolicy
    public init(entries: [RosterEntry], audience: Audience, presenterSince: Double? = nil, followPolicy: FollowPolicy = .open) {
        self.entries = entries
        self.audience = audience
        self.presenterSince = presenterSince
        self.followPolicy = followPolicy
    }

    /// No members at all: that hub has left the room (its announcement clears what it had).
    public var isEmpty: Bool { entries.isEmpty && audience.clients == 0 }
}

/// Cluster-wide rosters: each hub announces its own members of a room (its
/// listed clients and counts), and shows every hub's to its members: in
/// `welcome`, `audience`, `joined`/`left`, `followChanged` and `presenterChanged`.
extension Hub {
    /// This hub's own members of `room`, to announce (nil: no such room here).
    public func localPresence(of room: RoomName) -> HubPresence? {
        rooms[room].map {
            HubPresence(
                entries: $0.roster.entries, audience: $0.roster.audience,
                presenterSince: $0.roster.presenter == nil ? nil : $0.presenterSince, followPolicy: $0.followPolicy)
        }
    }

    /// Another hub's members of `room` as it announced them: who is new is
    /// announced `joined`, who is gone `left`; a presenter there demotes this
    /// hub's presenter to driver (a room has one presenter cluster-wide).
    public mutating func applyRemotePresence(
        _ presence: HubPresence, from hub: String, in name: RoomName, at time: HubTime,
        sink: some HubSink
    ) {
        guard rooms[name] != nil else { return }
        let before = rooms[name]!.remote[hub]?.entries ?? []
        let audienceBefore = rooms[name]!.audience
        rooms[name]!.remote[hub] = presence.isEmpty ? nil : presence
        announceChanges(from: before, to: presence.entries, in: name, at: time, sink: sink)
        if let remotePresenter = presence.entries.first(where: { $0.role == .presenter }),
            let since = presence.presenterSince, rooms[name]!.roster.presenter != nil, since > rooms[name]!.presenterSince,
            let demoted = changeRoster(in: name, { $0.demotePresenter() })!
        {
            if rooms[name]!.mirror == nil { rooms[name]!.manager.setRank(Role.driver.rank, of: demoted) }
            broadcast(
                .presenterChanged(
                    PresenterChange(previous: demoted, current: remotePresenter.client, demoted: demoted),
                    by: remotePresenter.client), in: name, at: time, sink: sink)
        }
        if presence.followPolicy.since > rooms[name]!.followPolicy.since {
            applyFollowPolicy(presence.followPolicy, in: name, at: time, sink: sink)
        }
        if rooms[name]!.audience != audienceBefore { rooms[name]!.audienceChanged = true }
        wake(name)
    }

    /// Forgets what `hub` had in `name` (a hub that went silent: it died):
    /// its clients are announced `left`, and on the room's owner what they ran
    /// ends (`ownerLeft`). Returns those clients, for the broker to forget
    /// what it kept of them.
    @discardableResult
    public mutating func dropRemotePresence(of hub: String, in name: RoomName, at time: HubTime, sink: some HubSink) -> [String] {
        guard let presence = rooms[name]?.remote[hub] else { return [] }
        rooms[name]!.remote[hub] = nil
        announceChanges(from: presence.entries, to: [], in: name, at: time, sink: sink)
        for entry in presence.entries { remoteClientLeft(entry.client, in: name, at: time, sink: sink) }
        rooms[name]!.audienceChanged = true
        wake(name)
        return presence.entries.map(\.client)
    }

    /// Marks `room`'s own members to be announced again (after messages may have been lost).
    public mutating func presenceNeedsAnnouncing(_ room: RoomName) {
        if rooms[room] != nil { presenceChanged.insert(room) }
    }

    /// The rooms whose own members changed since the last call (with a broker only).
    public mutating func takePresenceChanges() -> Set<RoomName> {
        defer { presenceChanged.removeAll(keepingCapacity: true) }
        return presenceChanged
    }

    /// Clients of other hubs whose commands this hub ran and still keeps a session for.
    public var remoteClientCount: Int { remoteConnections.count }

    private func announceChanges(
        from before: [RosterEntry], to after: [RosterEntry], in name: RoomName, at time: HubTime,
        sink: some HubSink
    ) {
        let old = Dictionary(before.map { ($0.client, $0.follow) }, uniquingKeysWith: { first, _ in first })
        let new = Set(after.map(\.client))
        for entry in after {
            switch old[entry.client] {
            case nil:
                broadcast(.joined(entry), in: name, at: time, sink: sink)
                if entry.follow != .following { broadcast(.followChanged(entry), in: name, at: time, sink: sink) }
            case let state? where state != entry.follow:
                broadcast(.followChanged(entry), in: name, at: time, sink: sink)
            default:
                break
            }
        }
        for entry in before where !new.contains(entry.client) { broadcast(.left(entry), in: name, at: time, sink: sink) }
    }
}
