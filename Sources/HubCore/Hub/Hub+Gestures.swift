import CameraCore
import CameraMotion

extension Hub {
    /// A gesture becomes camera motion in the room's gesture engine (in the
    /// sender's viewport); taps, long presses and disabled gestures are
    /// reported to the whole room as events with the geo point under them.
    mutating func handleGesture(_ gesture: GestureMessage, session: Session, owner: Owner, room: RoomName,
                                at time: HubTime, sink: some HubSink) throws(ProtocolError) {
        let input = GestureInput(gesture.kind, gesture.phase, x: gesture.x, y: gesture.y, t: gesture.t, scale: gesture.scale,
                                 rotation: gesture.rotation, dy: gesture.dy, delta: gesture.delta)
        let client = GestureClient(owner: owner, viewport: session.viewport, disabled: session.disabledGestures)
        let result = rooms[room]!.gesture(input, client: client, at: time.seconds)
        let outcome = try Self.check(result, ref: "gesture")
        guard let event = outcome.event else { return }
        switch (outcome.effect, gesture.kind) {
        case (.reported, .tap):
            if let geo = event.geo { broadcast(.tap(by: owner.client, at: geo), in: room, at: time, sink: sink) }
        case (.reported, .longPress):
            if let geo = event.geo { broadcast(.longPress(by: owner.client, at: geo), in: room, at: time, sink: sink) }
        default:
            broadcast(.gesture(by: owner.client, kind: gesture.kind, phase: gesture.phase, at: event.geo), in: room, at: time, sink: sink)
        }
    }
}
