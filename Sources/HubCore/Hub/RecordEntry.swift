import CamHubProtocol
import CameraCore
import CameraMotion

/// What the hub hands a recording sink (`HubSink.record`) while
/// `HubSink.isRecording`: every accepted command and every animation's end.
/// Times are the hub's (`HubTime`): `seconds` monotonic, `epochMilliseconds` wall clock.
public enum RecordEntry: Sendable {
    /// A client message the hub accepted (decoded, authorized, applied), as
    /// it arrived. `viewport` is the sender's at that moment (commands such
    /// as `ease` with `around` depend on it); nil when it never sent one.
    case command(Command)
    /// An animation ended (`finished`, `cancelled`, `superseded` or
    /// `interrupted`); `camera` is the room's camera at that moment, and its
    /// `time` the exact moment (between ticks), not the tick that noticed it.
    case animationEnded(AnimationEnd)

    public struct Command: Sendable {
        public var room: String
        public var client: String
        public var role: Role
        public var viewport: Viewport?
        public var message: [UInt8]
        public var time: HubTime
        public init(room: String, client: String, role: Role, viewport: Viewport?, message: [UInt8], time: HubTime) {
            self.room = room
            self.client = client
            self.role = role
            self.viewport = viewport
            self.message = message
            self.time = time
        }
    }

    public struct AnimationEnd: Sendable {
        public var room: String
        public var id: String
        public var owner: String
        public var status: AnimationStatus
        public var camera: Camera
        public var time: HubTime
        public init(room: String, id: String, owner: String, status: AnimationStatus, camera: Camera, time: HubTime) {
            self.room = room
            self.id = id
            self.owner = owner
            self.status = status
            self.camera = camera
            self.time = time
        }
    }

    /// Message types worth replaying: those that change a room's camera, limits,
    /// route, tracking or gestures. `hello` (it may hold a token), `ping`,
    /// `query`, `subscribe` and `viewport` (folded into each command's
    /// `viewport`) are left out.
    public static let recordedTypes: Set<String> = [
        "set", "ease", "fly", "animate", "cancel", "gesture", "gestures",
        "limits", "track", "route", "story", "step",
    ]
}
