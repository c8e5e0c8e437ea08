import CameraCore
import CameraMotion

extension Hub {
    /// Gestures become camera motion in the room's gesture engine.
    mutating func handleGesture(_ gesture: GestureMessage, session: Session, owner: Owner, room: RoomName,
                                at time: HubTime, sink: some HubSink) throws(ProtocolError) {
        throw ProtocolError(.badMessage, "gesture: not wired yet", ref: "gesture")
    }
}
