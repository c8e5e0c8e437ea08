import CameraCore
import CameraMotion

/// Handling one client message: decode, check, dispatch, answer.
extension Hub {
    /// A complete text message from `connection`. Bad input is answered with
    /// `error` (and a close where the protocol says so); the state is unchanged.
    public mutating func receive(_ bytes: [UInt8], from connection: ConnectionKey, at time: HubTime, sink: some HubSink) {
        guard sessions[connection] != nil else { return }
        switch sessions[connection]!.limiter.admit(now: time.seconds) {
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
        let session = sessions[connection]!
        guard let role = role(of: session), let owner = owner(of: session), let roomName = session.room else {
            guard case .hello(let hello) = message else { throw .notJoined(ref: message.ref) }
            try join(hello, connection: connection, at: time, sink: sink)
            return
        }
        if case .hello = message {
            throw ProtocolError(.conflict, "hello: already joined room \(roomName) as \(owner.client)", ref: "hello")
        }
        try message.authorize(role)
        let now = time.seconds
        let ref = message.ref
        if message.runsOnOwner, !runsCamera(roomName, at: now) {
            guard rooms[roomName]!.mirror != nil, let broker else { throw .unavailable(ref: ref) }
            var command = ForwardedCommand(room: roomName, client: owner.client, role: role, viewport: session.viewport, message: bytes)
            command.ref = ref
            broker.forward(command)
            return
        }
        switch message {
        case .hello:
            break
        case .set(let update):
            let accepted = try Self.check(rooms[roomName]!.manager.set(update, owner: owner, viewport: session.viewport, at: now), ref: ref)
            if !accepted.clamped.isEmpty {
                send(.clamped(properties: accepted.clamped, camera: accepted.camera), to: connection, in: roomName, at: time, sink: sink)
            }
        case .ease(let command):
            try requireFreeAnimationID(command.id, owner: owner, in: roomName, at: now, ref: ref)
            var request = EaseRequest(
                update: command.camera, duration: command.duration, curve: command.curve,
                around: command.around, viewport: session.viewport)
            request.essential = command.essential
            _ = try Self.check(rooms[roomName]!.manager.ease(request, id: command.id, owner: owner, at: now), ref: ref)
        case .fly(let command):
            try requireFreeAnimationID(command.id, owner: owner, in: roomName, at: now, ref: ref)
            var request = FlyRequest(
                update: command.camera, duration: command.duration, speed: command.speed, rho: command.curve,
                minZoom: command.minZoom, viewport: session.viewport)
            request.essential = command.essential
            _ = try Self.check(rooms[roomName]!.manager.fly(request, id: command.id, owner: owner, at: now), ref: ref)
        case .animate(let command):
            try requireFreeAnimationID(command.id, owner: owner, in: roomName, at: now, ref: ref)
            var request = EaseRequest(
                update: command.to, duration: command.duration, curve: command.curve,
                viewport: session.viewport, delay: command.delay, after: command.after, from: command.from)
            request.essential = command.essential
            _ = try Self.check(rooms[roomName]!.manager.animate(request, id: command.id, owner: owner, at: now), ref: ref)
        case .cancel(let scope):
            switch scope {
            case .id(let id):
                _ = try Self.check(rooms[roomName]!.manager.cancel(id: id, owner: owner, at: now), ref: ref)
            case .own:
                rooms[roomName]!.manager.cancelAnimations(of: owner.client, by: owner.client, at: now)
            case .all:  // presenter only (`ClientMessage.requiredRole`)
                rooms[roomName]!.manager.cancelAnimations(of: nil, by: owner.client, at: now)
            }
        case .gesture(let gesture):
            try handleGesture(gesture, from: connection, session: session, owner: owner, room: roomName, at: time, sink: sink)
        case .gestures(let toggle):
            sessions[connection]!.disabledGestures = toggle.applied(to: session.disabledGestures)
            sink.send(HubMessage.gestures(disabled: sessions[connection]!.disabledGestures), to: connection)
        case .viewport(let viewport):
            sessions[connection]!.viewport = viewport
        case .limits(let change):
            // presenter only (`ClientMessage.requiredRole`)
            let limits = try Self.check(rooms[roomName]!.manager.setLimits(change, by: owner.client, at: now), ref: ref)
            if broker != nil {  // mirrors have the new limits before the event announcing them
                rooms[roomName]!.updateFrameState()
                publishFrame(of: roomName, at: time)
            }
            broadcast(.limitsChanged(limits: limits, by: owner.client), in: roomName, at: time, sink: sink)
        case .track(let track):
            let mode = track.mode ?? rooms[roomName]!.manager.trackingMode
            _ = try Self.check(
                rooms[roomName]!.manager.track(
                    mode, location: track.location, owner: owner, viewport: session.viewport,
                    at: now), ref: ref)
        case .route(let route):
            let updated = try Self.check(rooms[roomName]!.manager.setRoute(route.points, append: route.append, at: now), ref: ref)
            broker?.routeChanged(updated?.points ?? [], epoch: rooms[roomName]!.epoch, in: roomName)
            broadcast(
                .routeChanged(by: owner.client, points: route.points, append: route.append, total: updated?.points.count ?? 0),
                in: roomName, at: time, sink: sink)
        case .query(let query):
            let room = rooms[roomName]!
            let answer = try query.answer(camera: room.camera, viewport: session.viewport, limits: room.limits)
            sink.send(HubMessage.result(id: query.id, answer), to: connection)
        case .subscribe(let events):
            if let member = session.member { rooms[roomName]!.setEvents(events, at: Int(member)) }
        case .ping(let t):
            sink.send(HubMessage.pong(t: t, time: time.epochMilliseconds), to: connection)
        case .follow(let state):
            try setFollow(state, session: session, role: role, in: roomName, at: time, sink: sink)
        case .summon(let id):  // presenter only (`ClientMessage.requiredRole`)
            summon(id: id, by: owner.client, from: connection, in: roomName, at: time, sink: sink)
        case .followPolicy(let explore):  // presenter only
            setFollowPolicy(explore: explore, by: owner.client, in: roomName, at: time, sink: sink)
        case .fit(let mode):
            sessions[connection]!.fit = mode
        case .refresh(let token):
            try refreshToken(token, role: role, room: roomName, from: connection, at: time, sink: sink)
        case .pointer(let at):  // driver and presenter (`ClientMessage.requiredRole`)
            rooms[roomName]!.setPointer(at.map { RoomPointer(latitude: $0.latitude, longitude: $0.longitude, by: owner.client) })
        }
        if message.movesCamera {
            noteView(by: owner.client, viewport: session.viewport, in: roomName, at: time, sink: sink)
        } else if case .viewport(let viewport) = message, rooms[roomName]!.view?.by == owner.client {
            noteView(by: owner.client, viewport: viewport, in: roomName, at: time, sink: sink)
        }
        deliverMotionEvents(in: roomName, at: time, sink: sink)
        wake(roomName)
    }

    /// Hands an accepted command to the recording sink (`RecordEntry.recordedTypes` only).
    /// Records an accepted command where the room's camera runs: here, or on a
    /// mirror's owner (`receiveForwarded`), never on the mirror that forwarded it.
    func record(_ type: String, _ bytes: [UInt8], from connection: ConnectionKey, at time: HubTime, sink: some HubSink) {
        guard RecordEntry.recordedTypes.contains(type), let session = sessions[connection], let client = session.client,
            let room = session.room, rooms[room]?.mirror == nil, let role = role(of: session)
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
        rooms[room]!.manager.advance(to: now)  // an animation that ended by now frees its id
        guard rooms[room]!.manager.animationIDs(of: owner.client).contains(id) else { return }
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
