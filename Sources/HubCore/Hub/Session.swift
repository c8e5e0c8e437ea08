import CameraCore
import CameraMotion

/// One connection's state in the hub. Owned by `Hub` (on the server's loop thread).
struct Session {
    let connection: ConnectionKey
    let openedAt: Double
    /// Set by a successful `hello`. The client's role is its room's roster's.
    var client: String?
    var room: RoomName?
    var viewport = Viewport(width: 1280, height: 720)
    var limiter = CommandRateLimiter()
    var disabledGestures: Set<GestureMessage.Kind> = []
    /// A client of another hub whose commands this hub runs (`Hub.receiveForwarded`): its role there.
    var remoteRole: Role?

    init(connection: ConnectionKey, openedAt: Double) {
        self.connection = connection
        self.openedAt = openedAt
    }
}
