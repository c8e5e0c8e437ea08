import CamHubProtocol
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
    /// The newest lease epoch of the room that hub knew when it announced
    /// this: a hub that knows a newer one drops it (a stalled ex-owner's).
    public var epoch: UInt64
    /// Where that hub's exploring members look (`looking`): at most
    /// `RoomViewports.maxListed`, in its roster order; `lookCount` counts all of them.
    public var looks: [SharedLook]
    public var lookCount: Int
    public init(
        entries: [RosterEntry], audience: Audience, presenterSince: Double? = nil, followPolicy: FollowPolicy = .open, epoch: UInt64 = 0,
        looks: [SharedLook] = [], lookCount: Int? = nil
    ) {
        self.entries = entries
        self.audience = audience
        self.presenterSince = presenterSince
        self.followPolicy = followPolicy
        self.epoch = epoch
        self.looks = looks
        self.lookCount = lookCount ?? looks.count
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
        rooms.read(room) {
            let (looks, lookCount) = $0.sharedLooks
            return HubPresence(
                entries: $0.roster.entries, audience: $0.roster.audience,
                presenterSince: $0.roster.presenter == nil ? nil : $0.presenterSince, followPolicy: $0.followPolicy,
                epoch: $0.epoch, looks: looks, lookCount: lookCount)
        }
    }

    /// Another hub's members of `room` as it announced them: who is new is
    /// announced `joined`, who is gone `left`; a presenter there demotes this
    /// hub's presenter to driver (a room has one presenter cluster-wide).
    /// Dropped when this hub knows a newer epoch of the room than that hub did
    /// (it announces again once it learns it), unless it is empty (that hub left).
    public mutating func applyRemotePresence(
        _ presence: HubPresence, from hub: String, in name: RoomName, at time: HubTime,
        sink: some HubSink
    ) {
        guard presence.isEmpty || presence.epoch >= epoch(of: name) else { return }
        let known = rooms.update(name) { room in
            defer { room.remote[hub] = presence.isEmpty ? nil : presence }
            let old = room.remote[hub]
            if (old?.looks ?? []) != presence.looks || (old?.lookCount ?? 0) != presence.lookCount { room.othersLooksChanged() }
            return (before: old?.entries ?? [], audience: room.audience)
        }
        guard let (before, audienceBefore) = known else { return }
        announceChanges(from: before, to: presence.entries, in: name, at: time, sink: sink)
        if let remotePresenter = presence.entries.first(where: { $0.role == .presenter }),
            let since = presence.presenterSince,
            rooms.read(existing: name, { $0.roster.presenter != nil && since > $0.presenterSince }),
            let demoted = changeRoster(existing: name, { $0.demotePresenter() })
        {
            rooms.update(existing: name) { room in
                // Its animations and gestures run at a driver's rank from now on (a mirror runs none).
                if room.authority == .owned { room.manager.setRank(Role.driver.rank, of: demoted) }
            }
            broadcast(
                .presenterChanged(
                    PresenterChange(previous: demoted, current: remotePresenter.client, demoted: demoted),
                    by: remotePresenter.client), in: name, at: time, sink: sink)
        }
        if presence.followPolicy.since > rooms.read(existing: name, \.followPolicy.since) {
            applyFollowPolicy(presence.followPolicy, in: name, at: time, sink: sink)
        }
        rooms.update(name) { room in
            if room.audience != audienceBefore { room.audienceChanged = true }
        }
        wake(name)
    }

    /// Forgets what `hub` had in `name` (a hub that went silent: it died):
    /// its clients are announced `left`, and on the room's owner what they ran
    /// ends (`ownerLeft`). Returns those clients, for the broker to forget
    /// what it kept of them.
    @discardableResult
    public mutating func dropRemotePresence(of hub: String, in name: RoomName, at time: HubTime, sink: some HubSink) -> [String] {
        let dropped = rooms.update(name) { room -> HubPresence? in
            guard let presence = room.remote[hub] else { return nil }  // unchanged: no cluster state made for nothing
            room.remote[hub] = nil
            if presence.lookCount > 0 { room.othersLooksChanged() }
            return presence
        }
        guard let presence = dropped ?? nil else { return [] }
        announceChanges(from: presence.entries, to: [], in: name, at: time, sink: sink)
        for entry in presence.entries { remoteClientLeft(entry.client, in: name, at: time, sink: sink) }
        rooms.update(name) { $0.audienceChanged = true }
        wake(name)
        return presence.entries.map(\.client)
    }

    /// Marks `room`'s own members to be announced again (after messages may have been lost).
    public mutating func presenceNeedsAnnouncing(_ room: RoomName) {
        if rooms.contains(room) { presenceChanged.insert(room) }
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
