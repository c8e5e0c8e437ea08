import CameraCore
import CameraMotion

/// One connection's state in the hub. Owned by `Hub` (on the server's loop thread).
struct Session {
    let connection: ConnectionKey
    let openedAt: Double
    /// Set by a successful `hello`.
    var client: String?
    var room: RoomName?
    var role: Role = .follower
    var viewport = Viewport(width: 1280, height: 720)
    var limiter = CommandRateLimiter()
    var disabledGestures: Set<GestureMessage.Kind> = []

    init(connection: ConnectionKey, openedAt: Double) {
        self.connection = connection
        self.openedAt = openedAt
    }

    var owner: Owner? { client.map { Owner(client: $0, rank: role.rank) } }
}
