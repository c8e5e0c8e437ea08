import CamHubProtocol
import CameraCore
import CameraMotion

extension Hub {
    /// A gesture becomes camera motion in the room's gesture engine (in the
    /// sender's viewport). Every accepted gesture is reported to the room's
    /// `gesture` listeners (HERE: a listener does not change the default
    /// action, and hears gestures whose action was disabled too); taps and
    /// long presses are also room events with the point and geo point.
    mutating func handleGesture(
        _ gesture: GestureMessage, from connection: ConnectionKey, session: Session, owner: Owner, room: RoomName,
        at time: HubTime, sink: some HubSink
    ) throws(ProtocolError) {
        let client = GestureClient(owner: owner, viewport: session.viewport, disabled: session.disabledGestures)
        let result = rooms.update(existing: room) { $0.gesture(gesture, client: client, at: time.seconds) }
        let outcome = try Self.check(result, ref: "gesture")
        if let seq = gesture.seq { acknowledge(gesture, seq: seq, effect: outcome.effect, to: connection, owner: owner, room: room, at: time, sink: sink) }
        guard let event = outcome.event else { return }
        switch (outcome.effect, gesture.kind) {
        case (.reported, .tap):
            if let geo = event.geo { broadcast(.tap(by: owner.client, at: geo, point: event.point), in: room, at: time, sink: sink) }
        case (.reported, .longPress):
            broadcast(
                .longPress(by: owner.client, phase: gesture.phase ?? .begin, point: event.point, at: event.geo),
                in: room, at: time, sink: sink)
        default:
            break
        }
        broadcast(
            .gesture(
                by: owner.client, kind: gesture.kind, phase: gesture.phase, point: event.point, at: event.geo,
                disabled: event.disabled), in: room, at: time, sink: sink)
    }

    /// Tells the sender (only) that its gesture `seq` was applied and the
    /// camera it made, with the animation it started (momentum, tap or scroll
    /// zoom), so its local prediction can be reconciled. Followers never get this.
    private func acknowledge(
        _ gesture: GestureMessage, seq: Int, effect: GestureEffect, to connection: ConnectionKey, owner: Owner, room: RoomName,
        at time: HubTime, sink: some HubSink
    ) {
        let manager = rooms.read(existing: room, \.manager)
        var animationID: String?
        switch effect {
        case .ended(let momentum?): animationID = momentum
        case .animation(let id): animationID = id
        default: break
        }
        let animation = animationID.flatMap { id in
            manager.runningAnimation(id, of: owner.client).map { GestureAck.Animation(id: id, duration: $0.duration, to: $0.to) }
        }
        let ack = GestureAck(
            seq: seq, kind: gesture.kind, phase: gesture.phase, time: time.epochMilliseconds,
            camera: manager.camera, animation: animation)
        sink.send(HubMessage.gestureAck(ack), to: connection)
    }
}
