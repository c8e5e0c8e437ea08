import CamHubProtocol
import CameraCore
import CameraMotion

/// Handling one client message: decode, check, dispatch, answer.
extension Hub {
    /// A complete text message from `connection`. Bad input is answered with
    /// `error` (and a close where the protocol says so); the state is unchanged.
    public mutating func receive(_ bytes: [UInt8], from connection: ConnectionKey, at time: HubTime, sink: some HubSink) {
        guard let admission = sessions[connection]?.limiter.admit(now: time.seconds) else { return }
        switch admission {
        case .accept: break
        case .drop:
            sink.note(.rateLimited)
            return
        case .dropAndReport:
            sink.note(.rateLimited)
            sink.send(HubMessage.error(.rateLimited(ref: nil)), to: connection)
            return
        }
        do throws(ProtocolError) {
            let message = try ClientMessage.decode(bytes, tick: configuration.tick)
            sink.note(.command(type: message.type))
            try handle(message, bytes: bytes, from: connection, at: time, sink: sink)
            if sink.isRecording { record(message.type, bytes, from: connection, at: time, sink: sink) }
        } catch {
            sink.send(HubMessage.error(error), to: connection)
            if let close = error.close {
                closeSession(connection, code: close, reason: error.code.rawValue, at: time, sink: sink)
            }
        }
    }

    mutating func handle(_ message: ClientMessage, bytes: [UInt8], from connection: ConnectionKey, at time: HubTime, sink: some HubSink) throws(ProtocolError) {
        guard let session = sessions[connection] else {
            preconditionFailure("connection \(connection) has no session: `receive` and `receiveForwarded` checked or made it")
        }
        guard let role = role(of: session), let owner = owner(of: session), let roomName = session.room else {
            guard case .hello(let hello) = message else { throw .notJoined(ref: message.ref) }
            try join(hello, connection: connection, at: time, sink: sink)
            return
        }
        if case .hello = message {
            throw ProtocolError(.conflict, "hello: already joined room \(roomName) as \(owner.client)", ref: "hello")
        }
        if !(role == .driver && message.isStoryboard && rooms.read(existing: roomName, { $0.story?.drivers ?? false })) {
            try message.authorize(role)
        }
        let now = time.seconds
        let ref = message.ref
        if try forwardedToOwner(message, bytes: bytes, session: session, role: role, owner: owner, in: roomName, at: now) { return }
        switch message {
        case .hello:
            break
        case .set(let update):
            let result = rooms.update(existing: roomName) { $0.manager.set(update, owner: owner, viewport: session.viewport, at: now) }
            let accepted = try Self.check(result, ref: ref)
            if !accepted.clamped.isEmpty {
                send(.clamped(properties: accepted.clamped, camera: accepted.camera), to: connection, in: roomName, at: time, sink: sink)
            }
        case .ease, .fly, .animate, .cancel:
            try handleAnimation(message, owner: owner, viewport: session.viewport, in: roomName, at: now)
        case .gesture(let gesture):
            try handleGesture(gesture, from: connection, session: session, owner: owner, room: roomName, at: time, sink: sink)
        case .gestures(let toggle):
            let disabled = toggle.applied(to: session.disabledGestures)
            sessions[connection]?.disabledGestures = disabled
            sink.send(HubMessage.gestures(disabled: disabled), to: connection)
        case .viewport(let viewport):
            sessions[connection]?.viewport = viewport
        case .limits, .track, .route:
            try handleCameraSettings(message, owner: owner, viewport: session.viewport, in: roomName, at: time, sink: sink)
        case .query(let query):
            if case .story = query.what { try authorizeStoryQuery(role, in: roomName, ref: query.id) }
            let answer = try rooms.read(existing: roomName) { room throws(ProtocolError) in
                try query.answer(
                    camera: room.camera, viewport: session.viewport, limits: room.limits, projection: room.projection, story: room.story ?? StoryState())
            }
            sink.send(HubMessage.result(id: query.id, answer), to: connection)
        case .subscribe(let events):
            try events.authorize(role, field: "events", ref: "subscribe")
            if let member = session.member {
                rooms.update(existing: roomName) { room in
                    if events.contains(.viewports) && !room.members[Int(member)].events.contains(.viewports) { room.resendViewports() }
                    room.setEvents(events, at: Int(member))
                }
            }
        case .ping(let t):
            sink.send(HubMessage.pong(t: t, time: time.epochMilliseconds), to: connection)
        case .follow(let state):
            try setFollow(state, session: session, role: role, in: roomName, at: time, sink: sink)
        case .looking(let region):
            try look(region, session: session, in: roomName, at: time, sink: sink)
        case .summon(let id, let client):  // presenter only (`ClientMessage.requiredRole`)
            // A fenced owner may have lost the room (and its presenter the room's audience) meanwhile.
            if rooms.read(existing: roomName, \.authority) == .owned && !runsCamera(roomName, at: now) { throw .unavailable(ref: ref) }
            if let client {
                summon(id: id, client: client, by: owner.client, from: connection, in: roomName, at: time, sink: sink)
            } else {
                summon(id: id, by: owner.client, from: connection, in: roomName, at: time, sink: sink)
            }
        case .followPolicy(let explore):  // presenter only
            setFollowPolicy(explore: explore, by: owner.client, in: roomName, at: time, sink: sink)
        case .fit(let mode):
            sessions[connection]?.fit = mode
        case .projection(let projection):  // driver and presenter
            setProjection(projection, by: owner.client, in: roomName, at: time, sink: sink)
        case .story(let command):  // presenter; driver where the storyboard allows
            try editStory(command, role: role, by: owner.client, in: roomName, at: time, sink: sink)
        case .step(let command):  // presenter; driver where the storyboard allows
            try step(command, role: role, owner: owner, viewport: session.viewport, in: roomName, at: time, sink: sink)
        case .refresh(let token):
            try refreshToken(token, role: role, room: roomName, from: connection, at: time, sink: sink)
        case .pointer(let at):  // driver and presenter (`ClientMessage.requiredRole`)
            let pointer = at.map { RoomPointer(latitude: $0.latitude, longitude: $0.longitude, by: owner.client) }
            rooms.update(existing: roomName) { $0.setPointer(pointer) }
        }
        if message.movesCamera {
            noteView(by: owner.client, viewport: session.viewport, in: roomName, at: time, sink: sink)
        } else if case .viewport(let viewport) = message, rooms.read(existing: roomName, { $0.view?.by == owner.client }) {
            noteView(by: owner.client, viewport: viewport, in: roomName, at: time, sink: sink)
        }
        deliverMotionEvents(in: roomName, at: time, sink: sink)
        wake(roomName)
    }

    /// Hands a command that runs where the room's camera runs to the room's
    /// owner when that is another hub (true: forwarded). Throws `unavailable`
    /// when no hub can run it now: this hub is a fenced owner (another hub may
    /// own the room by now), or a mirror without a broker. False: it runs here.
    private func forwardedToOwner(
        _ message: ClientMessage, bytes: [UInt8], session: Session, role: Role, owner: Owner, in roomName: RoomName, at now: Double
    ) throws(ProtocolError) -> Bool {
        guard message.runsOnOwner else { return false }
        switch rooms.read(existing: roomName, \.authority) {
        case .owned:
            guard runsCamera(roomName, at: now) else { throw .unavailable(ref: message.ref) }
            return false
        case .mirrored:
            guard let broker else { throw .unavailable(ref: message.ref) }
            var command = ForwardedCommand(room: roomName, client: owner.client, role: role, viewport: session.viewport, message: bytes)
            command.ref = message.ref
            broker.forward(command)
            return true
        }
    }

    /// `limits`, `track` and `route`: the room's camera limits, tracking mode
    /// and route, announced to the room (and handed to the broker) when they change.
    private mutating func handleCameraSettings(
        _ message: ClientMessage, owner: Owner, viewport: Viewport, in roomName: RoomName, at time: HubTime, sink: some HubSink
    ) throws(ProtocolError) {
        let now = time.seconds
        let ref = message.ref
        switch message {
        case .limits(let change):
            // presenter only (`ClientMessage.requiredRole`)
            let limits = try Self.check(rooms.update(existing: roomName) { $0.manager.setLimits(change, by: owner.client, at: now) }, ref: ref)
            if broker != nil {  // mirrors have the new limits before the event announcing them
                rooms.update(existing: roomName) { $0.updateFrameState() }
                publishFrame(of: roomName, at: time)
            }
            broadcast(.limitsChanged(limits: limits, by: owner.client), in: roomName, at: time, sink: sink)
        case .track(let track):
            let result = rooms.update(existing: roomName) { room in
                room.manager.track(
                    track.mode ?? room.manager.trackingMode, location: track.location, owner: owner, viewport: viewport, at: now)
            }
            _ = try Self.check(result, ref: ref)
        case .route(let route):
            let (result, epoch) = rooms.update(existing: roomName) { ($0.manager.setRoute(route.points, append: route.append, at: now), $0.epoch) }
            let updated = try Self.check(result, ref: ref)
            broker?.routeChanged(updated?.points ?? [], epoch: epoch, in: roomName)
            broadcast(
                .routeChanged(by: owner.client, points: route.points, append: route.append, total: updated?.points.count ?? 0),
                in: roomName, at: time, sink: sink)
        default:
            break
        }
    }

    /// `ease`, `fly`, `animate` and `cancel`: the room's animator manager starts
    /// or ends animations for `owner` (the other messages are not its to handle).
    private mutating func handleAnimation(
        _ message: ClientMessage, owner: Owner, viewport: Viewport, in roomName: RoomName, at now: Double
    ) throws(ProtocolError) {
        let ref = message.ref
        switch message {
        case .ease(let command):
            try requireFreeAnimationID(command.id, owner: owner, in: roomName, at: now, ref: ref)
            var request = EaseRequest(
                update: command.camera, duration: command.duration, curve: command.curve,
                around: command.around, viewport: viewport)
            request.essential = command.essential
            let started = rooms.update(existing: roomName) { room in
                request.projection = room.projection
                return room.manager.ease(request, id: command.id, owner: owner, at: now)
            }
            _ = try Self.check(started, ref: ref)
        case .fly(let command):
            try requireFreeAnimationID(command.id, owner: owner, in: roomName, at: now, ref: ref)
            var request = FlyRequest(
                update: command.camera, duration: command.duration, speed: command.speed, rho: command.curve,
                minZoom: command.minZoom, viewport: viewport)
            request.essential = command.essential
            let started = rooms.update(existing: roomName) { room in
                request.projection = room.projection
                return room.manager.fly(request, id: command.id, owner: owner, at: now)
            }
            _ = try Self.check(started, ref: ref)
        case .animate(let command):
            try requireFreeAnimationID(command.id, owner: owner, in: roomName, at: now, ref: ref)
            var request = EaseRequest(
                update: command.to, duration: command.duration, curve: command.curve,
                viewport: viewport, delay: command.delay, after: command.after, from: command.from)
            request.essential = command.essential
            _ = try Self.check(rooms.update(existing: roomName) { $0.manager.animate(request, id: command.id, owner: owner, at: now) }, ref: ref)
        case .cancel(let scope):
            switch scope {
            case .id(let id):
                _ = try Self.check(rooms.update(existing: roomName) { $0.manager.cancel(id: id, owner: owner, at: now) }, ref: ref)
            case .own:
                rooms.update(existing: roomName) { $0.manager.cancelAnimations(of: owner.client, by: owner.client, at: now) }
            case .all:  // presenter only (`ClientMessage.requiredRole`)
                rooms.update(existing: roomName) { $0.manager.cancelAnimations(of: nil, by: owner.client, at: now) }
            }
        default:
            break
        }
    }

    /// Hands an accepted command to the recording sink (`RecordEntry.recordedTypes` only).
    /// Records an accepted command where the room's camera runs: here, or on a
    /// mirror's owner (`receiveForwarded`), never on the mirror that forwarded it.
    func record(_ type: String, _ bytes: [UInt8], from connection: ConnectionKey, at time: HubTime, sink: some HubSink) {
        guard RecordEntry.recordedTypes.contains(type), let session = sessions[connection], let client = session.client,
            let room = session.room, rooms.read(room, \.authority) == .owned, let role = role(of: session)
        else { return }
        sink.record(
            .command(
                RecordEntry.Command(
                    room: room.value, client: client, role: role, viewport: session.viewport,
                    message: bytes, time: time)))
    }

    /// `conflict` when one of `owner`'s live animations already has `id` at `now`
    /// (the manager refuses it too, but as bad input; the protocol calls it a conflict).
    mutating func requireFreeAnimationID(_ id: String?, owner: Owner, in room: RoomName, at now: Double, ref: String?) throws(ProtocolError) {
        guard let id else { return }
        let inUse = rooms.update(existing: room) { room in
            room.manager.advance(to: now)  // an animation that ended by now frees its id
            return room.manager.animationIDs(of: owner.client).contains(id)
        }
        guard inUse else { return }
        throw ProtocolError(.conflict, "id: '\(id)' is already in use by a live animation", ref: ref)
    }

    /// The success value, or the manager's refusal as a protocol error.
    static func check<T>(_ result: Result<T, CommandError>, ref: String?) throws(ProtocolError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw ProtocolError(error.protocolCode, error.message, ref: ref)
        }
    }
}

extension CommandError {
    var protocolCode: ProtocolError.Code {
        switch code {
        case .conflict: .conflict
        case .unknownAnimation: .unknownAnimation
        case .badInput: .badMessage
        }
    }
}
