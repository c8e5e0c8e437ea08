import CamHubProtocol
import CameraCore

/// Follow mode: each client's follow state, the presenter's summons and
/// follow policy. None of it moves the room's camera; it runs on the hub the
/// client is on (never forwarded to the room's owner), and reaches the other
/// hubs of a cluster through presence (states, counts, the policy) and the
/// broker's `summon`.
extension Hub {
    /// `follow`: the sender's own state, in O(1). Exploring is refused with
    /// `policy` while the room is locked (the state stays as it was).
    mutating func setFollow(
        _ state: FollowState, session: Session, role: Role, in name: RoomName, at time: HubTime, sink: some HubSink
    ) throws(ProtocolError) {
        guard let member = session.member, let client = session.client else { return }
        if state == .exploring, !rooms.read(existing: name, \.followPolicy.explore) {
            throw ProtocolError(.policy, "state: the presenter has locked following, so exploring is not allowed", ref: "follow")
        }
        let old = rooms.update(existing: name) { $0.setFollow(state, at: Int(member)) }
        guard old != state else { return }
        if old == .exploring { dropLook(of: client, in: name) }
        let entry = changeRoster(existing: name) { $0.setFollow(of: client, from: old, to: state, isFollower: role == .follower) }
        if let entry { broadcast(.followChanged(entry), in: name, at: time, sink: sink) }
        if role == .follower { rooms.update(existing: name) { $0.audienceChanged = true } }
    }

    /// `summon`: every client of the room that is not following (here and on
    /// the other hubs) gets `summoned`; the presenter gets how many that is.
    mutating func summon(id: String?, by client: String, from connection: ConnectionKey, in name: RoomName, at time: HubTime, sink: some HubSink) {
        let by = displayName(of: client, in: name)
        let here = summonHere(by: client, name: by, reaching: { $0.isSummonable }, except: connection, in: name, at: time, sink: sink)
        broker?.summon(by: client, name: by, epoch: epoch(of: name), in: name)
        let elsewhere = rooms.read(existing: name) { $0.remote.values.reduce(0) { $0 + $1.audience.follow.exploring + $1.audience.follow.away } }
        sink.send(HubMessage.summonResult(id: id, summoned: here + elsewhere), to: connection)
    }

    /// `summon` with `client`: that one client of this hub, when it is not
    /// following, gets `summoned`; the presenter gets 1 or 0 (0 too for a client
    /// of another hub of a cluster: its region is not shown here either).
    /// O(members) for a follower, as every summon.
    mutating func summon(
        id: String?, client target: String, by client: String, from connection: ConnectionKey, in name: RoomName, at time: HubTime,
        sink: some HubSink
    ) {
        var summoned = 0
        if let member = member(ofClient: target, in: name), member.follow.isSummonable, member.connection != connection {
            summoned = 1
            if member.events.contains(.summoned) {
                let event = HubEvent.summoned(by: client, name: displayName(of: client, in: name))
                sink.send(HubMessage.event(event, time: time.epochMilliseconds), to: member.connection)
            }
        }
        sink.send(HubMessage.summonResult(id: id, summoned: summoned), to: connection)
    }

    /// The member of `room` that is `target`: a presenter or driver by its
    /// connection, a follower by a walk over the members (nil: not on this hub).
    private func member(ofClient target: String, in room: RoomName) -> Room.Member? {
        if let connection = connectionOfClient[target], let session = sessions[connection], session.room == room, let index = session.member {
            return rooms.read(existing: room) { $0.members[Int(index)] }
        }
        return rooms.read(room, \.members)?.first { sessions[$0.connection]?.client == target }
    }

    /// `followPolicy`: locks or unlocks exploring (nothing happens when it is
    /// already so).
    mutating func setFollowPolicy(explore: Bool, by client: String, in name: RoomName, at time: HubTime, sink: some HubSink) {
        guard rooms.read(existing: name, \.followPolicy.explore) != explore else { return }
        applyFollowPolicy(FollowPolicy(explore: explore, by: client, since: time.epochMilliseconds), in: name, at: time, sink: sink)
    }

    /// `projection`: the room's map goes to `projection`, and every client hears
    /// `projectionChanged` (nothing happens when it already is).
    mutating func setProjection(_ projection: MapProjection, by client: String, in name: RoomName, at time: HubTime, sink: some HubSink) {
        guard rooms.read(existing: name, \.projection) != projection else { return }
        rooms.update(existing: name) { $0.projection = projection }
        broadcast(.projectionChanged(projection, by: client), in: name, at: time, sink: sink)
    }

    /// Another hub's presenter summoned the room: this hub's clients that are
    /// not following hear it, unless it came from a hub that knew only an older
    /// epoch of the room than this hub does (fencing: a stalled ex-owner's).
    public mutating func applyRemoteSummon(
        by client: String, name: String, epoch: UInt64, in room: RoomName, at time: HubTime, sink: some HubSink
    ) {
        guard rooms.contains(room), epoch >= self.epoch(of: room) else { return }
        _ = summonHere(by: client, name: name, reaching: { $0.isSummonable }, except: nil, in: room, at: time, sink: sink)
    }

    /// Takes `policy` when it is newer than the room's (a presenter's here,
    /// or another hub's through presence): the room hears
    /// `followPolicyChanged`, and a lock summons whoever explores here.
    mutating func applyFollowPolicy(_ policy: FollowPolicy, in name: RoomName, at time: HubTime, sink: some HubSink) {
        rooms.update(existing: name) { $0.followPolicy = policy }
        if broker != nil { presenceChanged.insert(name) }
        broadcast(.followPolicyChanged(policy), in: name, at: time, sink: sink)
        guard !policy.explore, let by = policy.by else { return }
        _ = summonHere(
            by: by, name: displayName(of: by, in: name), reaching: { $0 == .exploring }, except: nil, in: name, at: time, sink: sink)
    }

    /// Sends `summoned` to this hub's members whose state `reaching` picks
    /// (those subscribed to it); returns how many members it picks. O(members):
    /// a summon is a presenter's rare command, not per frame.
    private func summonHere(
        by client: String, name: String, reaching: (FollowState) -> Bool, except: ConnectionKey?, in room: RoomName,
        at time: HubTime, sink: some HubSink
    ) -> Int {
        guard let members = rooms.read(room, \.members) else { return 0 }
        var picked = 0
        var recipients: [ConnectionKey] = []
        for member in members where reaching(member.follow) && member.connection != except {
            picked += 1
            if member.events.contains(.summoned) { recipients.append(member.connection) }
        }
        if !recipients.isEmpty {
            sink.send(HubMessage.event(.summoned(by: client, name: name), time: time.epochMilliseconds), to: recipients)
        }
        return picked
    }

    /// The owner remembers the view of the client whose command moved the
    /// camera (`viewport`, and the camera's padding now); the room hears
    /// `viewChanged` when the area it shows changed, not with every command.
    mutating func noteView(by client: String, viewport: Viewport, in name: RoomName, at time: HubTime, sink: some HubSink) {
        let noted = rooms.update(existing: name) { room -> (view: RoomView, old: RoomView?)? in
            guard room.authority == .owned else { return nil }  // a mirror has the owner's view
            let view = RoomView(by: client, viewport: viewport, padding: room.manager.camera.padding)
            let old = room.view
            guard view != old else { return nil }
            room.view = view
            return (view, old)
        }
        guard let (view, old) = noted else { return }
        if !view.showsTheSameArea(as: old) { broadcast(.viewChanged(view), in: name, at: time, sink: sink) }
    }

    /// A client's display name as the room's roster (across hubs) lists it; its id otherwise.
    func displayName(of client: String, in room: RoomName) -> String {
        guard let room = rooms[room] else { return client }
        return room.roster.entry(for: client)?.name ?? room.clusterRoster.first { $0.client == client }?.name ?? client
    }
}
