import CamHubProtocol
import CameraCore

/// What a hub is told at start (the `camhub serve` options).
public struct HubConfiguration: Sendable {
    /// Room ticks per second (frames are sent at most this often).
    public var tick: Double = HubProtocol.defaultTick
    /// Static role tokens and signed room tokens (default: anyone may take any role).
    public var tokens = TokenPolicy()
    /// Seconds an empty room is kept before it is removed.
    public var roomTTL: Double = 600
    /// Seconds a connection may stay without a successful `hello`.
    public var helloTimeout: Double = HubProtocol.helloTimeout
    /// A new room's camera and limits.
    public var defaultCamera = Camera.world
    public var defaultLimits = CameraLimits()
    /// Followers announced (`joined`/`left`) and listed in `welcome.roster`
    /// per room; beyond this, followers are only counted (`audience` events),
    /// so a join costs O(1) messages instead of one per member.
    public var listedFollowers = 50
    /// Rooms the hub holds at most (empty rooms count until `roomTTL` removes
    /// them); a `hello` that would create one more gets `full`, then close 1013.
    public var maxRooms = 10_000
    /// Clients one room holds at most; one more gets `full`, then close 1013.
    public var maxClientsPerRoom = 20_000
    /// Seconds between two `audience` events of a room (at most).
    public var audienceInterval: Double = 1
    /// Seconds between two `viewports` events of a room (at least: a room
    /// of any size costs a presenter at most one a second).
    public var viewportsInterval: Double = 1
    /// Bytes reserved in front of each encoded frame for the transport's own
    /// header (the server sets libwebsockets' `LWS_PRE`), so the transport
    /// writes every follower's copy of the frame from the same bytes.
    public var frameHeadroom = 16
    /// Frames sent at most per `tick` or `continueSending` call before the hub
    /// lets its owner do other work. The server sizes each slice below this
    /// ceiling from what frames cost it lately (`SendSliceBudget`: a quarter of
    /// the tick interval); a caller without a clock gets this many.
    public var sendBudget = 10_000
    /// Whether the hub notes which rooms changed for `takeChangedRoomStates`
    /// (the server turns it on when it keeps rooms across restarts, `--data`).
    /// Off, nothing drains that set, and it would keep every room name ever used.
    public var tracksChangedRooms = false

    public init() {}
}
