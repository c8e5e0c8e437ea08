import CameraCore
import CameraMotion

/// The hub's answer to a `gesture` that carried a `seq`, sent to its sender
/// only (never in the room's shared frame): which of its gesture messages the
/// hub has applied and the camera that made, so the client can reconcile the
/// camera it predicted locally. Old clients send no `seq` and get none.
public struct GestureAck: Hashable, Sendable {
    /// The animation a gesture started (pan momentum, a tap or scroll zoom):
    /// the camera it eases to and for how long, from `camera` at `time`.
    public struct Animation: Hashable, Sendable {
        public var id: String
        public var duration: Double
        public var to: Camera
        public init(id: String, duration: Double, to: Camera) {
            self.id = id
            self.duration = duration
            self.to = to
        }
    }

    public var seq: Int
    public var kind: GestureKind
    public var phase: GesturePhase?
    /// Hub time (ms since the epoch) the gesture was applied at.
    public var time: Double
    /// The room's camera right after the gesture was applied (for a `begin`:
    /// the camera the gesture starts from; with an animation: where it starts).
    public var camera: Camera
    public var animation: Animation?

    public init(seq: Int, kind: GestureKind, phase: GesturePhase?, time: Double, camera: Camera, animation: Animation? = nil) {
        self.seq = seq
        self.kind = kind
        self.phase = phase
        self.time = time
        self.camera = camera
        self.animation = animation
    }
}

extension HubMessage {
    /// `{"type":"gestureAck","seq":…,"kind":…,"phase":…,"time":…,"camera":{…}}`
    /// plus `"animation":{"id","duration","to"}` when the gesture started one.
    public static func gestureAck(_ ack: GestureAck) -> [UInt8] {
        var w = JSONWriter(capacity: 320)
        w.raw("{\"type\":\"gestureAck\",\"seq\":")
        w.integer(UInt64(ack.seq))
        w.raw(",\"kind\":")
        w.string(ack.kind.rawValue)
        w.raw(",\"phase\":")
        w.string(ack.phase?.rawValue)
        w.raw(",\"time\":")
        w.number(ack.time)
        w.raw(",\"camera\":")
        w.camera(ack.camera)
        if let animation = ack.animation {
            w.raw(",\"animation\":{\"id\":")
            w.string(animation.id)
            w.raw(",\"duration\":")
            w.number(animation.duration)
            w.raw(",\"to\":")
            w.camera(animation.to)
            w.raw("}")
        }
        w.raw("}")
        return w.bytes
    }
}
