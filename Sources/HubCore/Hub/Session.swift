import CamHubProtocol
import CameraCore
import CameraMotion

/// One connection's state in the hub, stored in `Hub.sessions` under its
/// connection key (not repeated here). Owned by `Hub` (on the server's loop
/// thread).
///
/// Every open connection has one for its whole life, inline in a dictionary
/// that keeps up to twice as many slots as entries, so it holds only what the
/// hub needs of a joined client: when the connection opened is kept only
/// until it joins (`Hub.awaitingHello`), and the rate limiter keeps its
/// bucket's state, not the policy.
struct Session {
    /// Set by a successful `hello`. The client's role is its room's roster's.
    var client: String?
    var room: RoomName?
    var viewport = Viewport(width: 1280, height: 720)
    var disabledGestures: Set<GestureMessage.Kind> = []
    var limiter = CommandRateLimiter()
    /// Where the client is in its room's `Room.members` (nil: not a member
    /// here). 32 bits: with the role after it, this fits the session's last 8 bytes.
    var member: UInt32?
    /// A client of another hub whose commands this hub runs (`Hub.receiveForwarded`): its role there.
    var remoteRole: Role?
    /// How the client fits the room's camera to its screen (`hello.fit`, `fit`): kept for the session, it
    /// changes no frame (the client applies it).
    var fit = FitMode.same
}
