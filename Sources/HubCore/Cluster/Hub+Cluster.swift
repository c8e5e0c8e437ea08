import CamHubProtocol
import CameraCore
import CameraMotion

/// The hub's side of the broker seam (`RoomBroker`): rooms owned here or
/// mirrored from another hub, and commands run for clients of other hubs.
/// All of it is called by the broker's owner on the hub's thread.
extension Hub {
    /// Whether this hub runs `room`'s camera (nil: no such room here).
    public func owns(_ room: RoomName) -> Bool? {
        rooms.read(room) { $0.authority == .owned }
    }

    /// What the broker needs of a room at each lease renewal (nil: no such
    /// room). Read in place: it is asked for every room twice a second, and
    /// reading through `rooms[room]` would copy the whole room each time.
    public func leaseState(of room: RoomName) -> RoomLeaseState? {
        rooms.read(room) { RoomLeaseState(owned: $0.authority == .owned, hasMembers: !$0.members.isEmpty, epoch: $0.epoch) }
    }

    /// Creates `name` before its first local join, as the cluster has it:
    /// owned here (continuing from `frame`, the last one published, if any) or
    /// mirroring `frame`. An owner without a `lease` (Redis did not answer)
    /// starts fenced: it runs the camera once a renewal succeeds. Does nothing
    /// if the room exists.
    /// `route`: the room's route as the cluster keeps it (empty: none).
    public mutating func prepareRoom(
        _ name: RoomName, owned: Bool, lease: ClusterLease?, frame: RoomFrame?, route: [GeoCoordinate] = [], at time: HubTime
    ) {
        guard !rooms.contains(name) else { return }
        var room = newRoom(name, at: time.seconds)
        room.emptySince = time.seconds
        if let frame {
            room.manager = AnimatorManager(camera: frame.camera, limits: frame.limits, time: time.seconds)
            room.frameRevision = room.manager.revision
            room.seq = frame.seq
            room.publishedSeq = frame.seq
            room.frameMoving = frame.moving  // a last frame that was moving is followed by a resting one
            room.view = frame.view
            if owned {
                room.projection = frame.projection  // a mirror reads it from its frame
                if let story = frame.story { room.storyRoom.story = story }
            }
        }
        room.epoch = max(lease?.epoch ?? 0, frame?.epoch ?? 0)
        if owned {
            if let lease { confirm(name, lease) } else { unconfirm(name) }
            if !route.isEmpty { _ = room.manager.setRoute(route, append: false, at: time.seconds) }
        } else {
            room.mirrorRoute = route
            room.mirror =
                frame
                ?? RoomFrame(
                    seq: room.seq, time: time.epochMilliseconds, camera: room.manager.camera,
                    limits: room.manager.limits, moving: false, by: nil)
            room.mirrorStale = frame == nil
        }
        rooms.insert(room)
        wake(name)
    }

    /// Mirror: the owner's route changed (to `points`, all of it; empty: none),
    /// as the owner of lease `epoch` has it. Dropped if that epoch is older than this hub's.
    public mutating func applyRemoteRoute(_ points: [GeoCoordinate], epoch: UInt64, in name: RoomName) {
        rooms.update(name) { room in
            guard room.authority == .mirrored, epoch >= room.epoch else { return }
            room.mirrorRoute = points
        }
    }

    /// Whether this hub runs `name`'s camera at hub second `now`: it owns the
    /// room and, in a cluster, the hub's lease cannot have run out yet and
    /// Redis confirmed the room (`HubLease`). A fenced owner neither moves,
    /// shows nor publishes the camera until a renewal succeeds: another hub
    /// may own the room by now.
    func runsCamera(_ name: RoomName, at now: Double) -> Bool {
        switch rooms.read(name, \.authority) {
        case .owned: lease?.holds(name, at: now) ?? true
        case .mirrored, nil: false
        }
    }

    /// The lease epoch this hub knows for `room` (0: none, or no such room).
    public func epoch(of room: RoomName) -> UInt64 { rooms.read(room, \.epoch) ?? 0 }

    /// Whether this hub owns `room` but may no longer act as its owner: its
    /// lease may have run out by its own clock, and no renewal has succeeded since.
    /// `now`: hub seconds.
    public func isFenced(_ name: RoomName, at now: Double) -> Bool {
        owns(name) == true && lease?.holds(name, at: now) == false
    }

    /// Redis confirmed `name` as this hub's (it took the room, or found it
    /// still its own): a mirror adopts the room; an owner runs its camera
    /// until the hub's lease runs out (`lease.until`, or a later renewal).
    ///
    /// An owner that was fenced (its camera stood still) does not jump ahead
    /// along its animations' paths: they end where the camera stood, reported
    /// `cancelled` (reason `failover`) as when another hub takes a room over.
    public mutating func leaseHeld(_ name: RoomName, _ lease: ClusterLease, at time: HubTime, sink: some HubSink) {
        guard let owned = leaseState(of: name)?.owned else { return }
        let resumes = !owned || !runsCamera(name, at: time.seconds)
        if !owned { adopt(name, at: time, sink: sink) }
        raiseEpoch(of: name, to: lease.epoch)
        confirm(name, lease)
        if resumes && owned { resume(name, at: time, sink: sink) }
        if resumes { wake(name) }  // a renewal of a running room changes nothing it shows
    }

    /// The hub's key lived through a renewal sent at a hub second before
    /// `until` minus the lease: every confirmed room stays this hub's until
    /// `until`. Rooms that were fenced run again.
    public mutating func hubLeaseRenewed(until: Double, at time: HubTime, sink: some HubSink) {
        var held = lease ?? HubLease()
        let wasFenced = time.seconds >= held.until
        held.until = max(held.until, until)
        lease = held
        guard wasFenced, held.until > time.seconds else { return }
        for name in roomNames where owns(name) == true && held.holds(name, at: time.seconds) {
            resume(name, at: time, sink: sink)
            wake(name)
        }
    }

    /// The hub's key had expired (a stall, or a Redis that lost its data):
    /// another hub may have taken any room, so each owned room stays fenced
    /// until Redis confirms it again (`leaseHeld`) or names its new owner (`leaseLost`).
    public mutating func hubLeaseLapsed() {
        for name in roomNames where owns(name) == true { unconfirm(name) }
    }

    /// Owned rooms that wait for Redis to confirm them (`hubLeaseLapsed`, or started while Redis did not answer).
    public var unconfirmedRooms: Set<RoomName> { lease?.unconfirmed ?? [] }

    /// The link to Redis went down: the hub's lease counts as run out from
    /// `now` (hub seconds). Redis may come back without it (a restart without
    /// persistence), and then another hub may take a room at once; the owner
    /// runs its rooms again when a renewal succeeds.
    public mutating func leasesInDoubt(at now: Double) {
        if let until = lease?.until, until > now { lease?.until = now }
    }

    private mutating func confirm(_ name: RoomName, _ held: ClusterLease) {
        var hubLease = lease ?? HubLease()
        hubLease.until = max(hubLease.until, held.until)
        hubLease.unconfirmed.remove(name)
        lease = hubLease
    }

    private mutating func unconfirm(_ name: RoomName) {
        var hubLease = lease ?? HubLease()
        hubLease.unconfirmed.insert(name)
        lease = hubLease
    }

    /// An owner that was fenced (its camera stood still) does not jump ahead
    /// along its animations' paths: they end where the camera stood.
    private mutating func resume(_ name: RoomName, at time: HubTime, sink: some HubSink) {
        guard let stoodSince = rooms.read(name, \.manager.time), time.seconds - stoodSince > 2 / configuration.tick else { return }
        rooms.update(name) { room in
            room.manager.cancelAnimations(of: nil, by: nil, reason: "failover", at: room.manager.time)
        }
        deliverMotionEvents(in: name, at: time, sink: sink)
    }

    /// Another hub holds `name`'s lease, of `epoch`: an owner becomes a mirror.
    public mutating func leaseLost(_ name: RoomName, epoch: UInt64) {
        demote(name)
        raiseEpoch(of: name, to: epoch)
    }

    /// The newest epoch this hub knows for `name` becomes `epoch` if that is
    /// newer; this hub's presence is then announced again under it (other
    /// hubs drop presence of an older epoch than they know).
    mutating func raiseEpoch(of name: RoomName, to epoch: UInt64) {
        // The cluster box changes only when the epoch does.
        let raised = rooms.update(name) { room in
            guard room.epoch < epoch else { return false }
            room.epoch = epoch
            return true
        }
        if raised == true && broker != nil { presenceChanged.insert(name) }
    }

    /// Mirror: the owner's newest frame. Its `seq` is kept (plus an offset
    /// that grows only when the owner's numbering would go back, after a change
    /// of owner), so followers here see `seq` only increase. Wakes the room so
    /// due followers get it.
    ///
    /// Fencing: a frame of an older epoch than this hub has seen for the room
    /// comes from an owner that lost its lease, and is dropped; one of a newer
    /// epoch on a room this hub believes it owns means another hub took it
    /// over, and this hub becomes a mirror at once.
    public mutating func applyRemoteFrame(_ frame: RoomFrame, in name: RoomName) {
        guard let (known, authority) = rooms.read(name, { ($0.epoch, $0.authority) }), frame.epoch >= known else { return }
        switch authority {
        case .owned:  // another hub took the room over if the frame is of a newer epoch
            guard frame.epoch > known else { return }
            leaseLost(name, epoch: frame.epoch)
        case .mirrored:
            break
        }
        raiseEpoch(of: name, to: frame.epoch)
        let applied = rooms.update(name) { room in
            guard let mirror = room.mirror else { return false }
            // An older frame of the same owner (a checkpoint read that crossed newer frames) is dropped.
            if frame.epoch == known && !room.mirrorStale && frame.seq < mirror.seq { return false }
            if frame.seq == mirror.seq && !room.mirrorStale {
                room.mirror = frame  // the same frame again, with new limits
                return false
            }
            if frame.seq &+ room.mirrorSeqOffset <= room.seq { room.mirrorSeqOffset = room.seq + 1 - frame.seq }
            room.mirror = frame
            room.mirrorStale = false
            room.seq = frame.seq &+ room.mirrorSeqOffset
            room.frameMoving = frame.moving
            room.frameCorner = frame.corner
            if frame.prompt { room.promptSeq = room.seq }
            room.frame = nil
            return true
        }
        if applied == true { wake(name) }
    }

    /// This hub became the room's owner (it took the lease): the camera goes
    /// on from the last published frame, `seq` keeps increasing, and a frame
    /// that was moving is followed by a resting one (the old owner's
    /// animations ended with it).
    public mutating func adopt(_ name: RoomName, at time: HubTime, sink: some HubSink) {
        guard let frame = rooms.read(name, \.mirror) ?? nil else { return }
        reportFailover(of: frame, at: time, sink: sink)
        rooms.update(existing: name) { room in
            room.manager = AnimatorManager(camera: frame.camera, limits: frame.limits, time: time.seconds)
            let route = room.mirrorRoute
            if !route.isEmpty { _ = room.manager.setRoute(route, append: false, at: time.seconds) }  // route modes go on
            room.mirrorRoute = []
            if frame.trackingMode != .none, let owner = frame.trackingOwner {
                // The mode goes on (its owner, if it was on the dead hub, leaves with that hub's presence).
                _ = room.manager.resumeTracking(frame.trackingMode, location: frame.trackedLocation, owner: owner, at: time.seconds)
            }
            room.frameRevision = room.manager.revision
            room.frameMoving = frame.moving
            room.publishedSeq = room.seq
            room.mirror = nil
            room.view = frame.view
            room.projection = frame.projection
            if var story = frame.story {
                story.playing = false  // autoplay's hold ended with the old owner
                room.storyRoom = StoryRoomState(story: story)
            }
            room.mirrorSeqOffset = 0
            room.frame = nil
        }
        unconfirm(name)  // until the caller confirms the lease it took
        wake(name)
    }

    /// Another hub owns the room now (this one lost its lease): stop running
    /// the camera and serve the owner's frames from here on.
    public mutating func demote(_ name: RoomName) {
        let demoted = rooms.update(name) { room in
            guard room.authority == .owned else { return false }
            var frame = RoomFrame(
                seq: room.seq, time: 0, camera: room.manager.camera, limits: room.manager.limits,
                moving: false, by: room.manager.lastMovedBy)
            frame.view = room.view
            frame.projection = room.projection
            frame.story = room.story
            room.storyRoom = StoryRoomState()
            room.mirror = frame
            room.mirrorStale = true
            room.mirrorRoute = room.manager.route?.points ?? []
            return true
        }
        guard demoted == true else { return }
        lease?.unconfirmed.remove(name)
        wake(name)
    }

    /// Owner: hands a changed frame to the broker, once per `seq`.
    mutating func publishFrame(of name: RoomName, at time: HubTime) {
        guard let broker, runsCamera(name, at: time.seconds) else { return }
        let changed = rooms.update(name) { room -> RoomFrame? in
            guard
                room.seq != room.publishedSeq || room.publishedLimits != room.manager.limits
                    || room.publishedTracking != room.manager.trackingMode || room.publishedView != room.view
                    || room.publishedProjection != room.projection || room.publishedStoryRevision != room.storyRoom.revision
            else { return nil }
            room.publishedSeq = room.seq
            room.publishedLimits = room.manager.limits
            room.publishedTracking = room.manager.trackingMode
            room.publishedView = room.view
            room.publishedProjection = room.projection
            room.publishedStoryRevision = room.storyRoom.revision
            return Self.frame(of: room, at: time)
        }
        if let frame = changed ?? nil { broker.publish(frame, in: name) }
    }

    /// The frame an owner publishes of `room`'s state at `time`.
    private static func frame(of room: Room, at time: HubTime) -> RoomFrame {
        var frame = RoomFrame(
            seq: room.seq, time: time.epochMilliseconds, camera: room.manager.camera, limits: room.manager.limits,
            moving: room.frameMoving, by: room.manager.lastMovedBy)
        frame.epoch = room.epoch
        frame.corner = room.frameCorner
        frame.prompt = room.promptSeq == room.seq
        frame.velocity = room.frameMoving ? room.manager.velocity(at: room.manager.time) : nil
        frame.trackingMode = room.manager.trackingMode
        frame.trackingOwner = room.manager.trackingOwner
        frame.trackedLocation = room.manager.trackedLocation
        frame.view = room.view
        frame.pointer = room.framePointer
        frame.projection = room.projection
        frame.story = room.story
        if room.frameMoving || room.manager.due != .never {
            frame.animations = room.manager.liveAnimations.map { AnimationSummary($0, epoch: time.epochMilliseconds(at:)) }
        }
        return frame
    }

    /// The animations of an owner that died ended with it: each is reported
    /// `cancelled` (reason `failover`) to its client, here or on its own hub,
    /// where the camera stands (the last published frame).
    private func reportFailover(of frame: RoomFrame, at time: HubTime, sink: some HubSink) {
        for animation in frame.animations {
            let message = HubMessage.animation(
                AnimationMessage(
                    id: animation.id, status: .cancelled, by: nil, camera: frame.camera,
                    reason: "failover", owner: animation.by),
                time: time.epochMilliseconds)
            if let connection = connectionOfClient[animation.by], connection < remoteConnectionBase {
                sink.send(message, to: connection)
            } else {
                broker?.deliver(message, toClient: animation.by)
            }
        }
    }

    /// Owner: runs a command a mirror forwarded for one of its clients, as
    /// `connection`: a key the broker gave that client (at `remoteConnectionBase`
    /// and above), whose output (`error`, `clamped`, `animation`, `result`) the
    /// sink hands back to the broker, which sends it to the client's hub.
    /// Returns whether it ran: not when this hub does not own the room, or is
    /// fenced (another hub may own it by now and run the command itself).
    @discardableResult
    public mutating func receiveForwarded(
        _ command: ForwardedCommand, as connection: ConnectionKey, at time: HubTime,
        sink: some HubSink
    ) -> Bool {
        guard connection >= remoteConnectionBase, runsCamera(command.room, at: time.seconds) else {
            return false
        }
        remoteSession(connection, for: command)
        do throws(ProtocolError) {
            let message = try ClientMessage.decode(command.message, tick: configuration.tick)
            sink.note(.command(type: message.type))
            try handle(message, bytes: command.message, from: connection, at: time, sink: sink)
            if sink.isRecording { record(message.type, command.message, from: connection, at: time, sink: sink) }
        } catch {
            sink.send(HubMessage.error(error), to: connection)
        }
        return true
    }

    /// Owner: a client of another hub left; what it had going ends.
    /// Also for a client of a hub that died (its presence expired), which may
    /// never have sent this hub a command: what it ran (e.g. a tracking mode
    /// taken over in a failover) ends all the same.
    public mutating func remoteClientLeft(_ client: String, in name: RoomName, at time: HubTime, sink: some HubSink) {
        if let connection = remoteConnections.removeValue(forKey: client) {
            sessions[connection] = nil
            connectionOfClient[client] = nil
        } else if connectionOfClient[client] != nil {
            return  // a client of this hub: its own close ends what it ran
        }
        let ended = rooms.update(name) { room in
            guard room.authority == .owned else { return false }  // a mirror's owner ends it
            room.clientLeft(client, at: time.seconds)
            return true
        }
        guard ended == true else { return }
        deliverMotionEvents(in: name, at: time, sink: sink)
        storyPlayerLeft(client, in: name, at: time, sink: sink)
        wake(name)
    }

    /// The local connection of `client` (nil: not on this hub, or a follower,
    /// which nothing is addressed to by id).
    public func connection(ofClient client: String) -> ConnectionKey? {
        connectionOfClient[client]
    }

    private mutating func remoteSession(_ key: ConnectionKey, for command: ForwardedCommand) {
        var session: Session
        if let known = sessions[key] {
            session = known
        } else {
            session = Session()
            session.client = command.client
            session.room = command.room
            remoteConnections[command.client] = key
            connectionOfClient[command.client] = key
        }
        session.viewport = command.viewport
        session.remoteRole = command.role
        sessions[key] = session
    }
}

extension Hub {
    /// The rooms this hub has (owned or mirrored), in no particular order.
    public var roomNames: [RoomName] { Array(rooms.names) }

    /// Whether `room` has members on this hub.
    public func hasMembers(_ room: RoomName) -> Bool {
        rooms.read(room) { !$0.members.isEmpty } ?? false
    }

    /// Gives this hub's client ids a suffix (a cluster hub's id: ids unique across hubs).
    public mutating func setClientIDSuffix(_ suffix: String) { ids.suffix = suffix }
}

extension EventSubscriptions {
    /// Events that come from the room's camera state, which only its owner runs:
    /// relayed to mirrors (`RoomBroker.relay`). The others (`joined`, `left`,
    /// `audience`, `presenterChanged`, gestures) each hub makes for its own members.
    public static let ofTheCamera: EventSubscriptions = [
        .steady, .significantChange, .limitsChanged, .trackingModeChanged, .routeChanged, .viewChanged, .projectionChanged,
        .storyStep, .storyChanged,
    ]
}

extension Hub {
    /// Mirror: a room event the owner of lease `epoch` relayed, for the members
    /// subscribed to `kind`; dropped when this hub knows a newer epoch.
    public func applyRemoteEvent(_ event: [UInt8], kind: EventSubscriptions, epoch: UInt64, in name: RoomName, sink: some HubSink) {
        guard let room = rooms[name], room.authority == .mirrored, epoch >= room.epoch else { return }
        let recipients = room.members.lazy.filter { $0.events.contains(kind) }.map(\.connection)
        guard !recipients.isEmpty else { return }
        sink.send(event, to: recipients)
    }
}
