import CameraCore

/// What a hub is told at start (the `camhub serve` options).
public struct HubConfiguration: Sendable {
    /// Room ticks per second (frames are sent at most this often).
    public var tick: Double = 60
    /// Tokens required for presenter/driver (nil: anyone may take the role).
    public var tokens = RoleTokens()
    /// Seconds an empty room is kept before it is removed.
    public var roomTTL: Double = 600
    /// Seconds a connection may stay without a successful `hello`.
    public var helloTimeout: Double = HubProtocol.helloTimeout
    /// A new room's camera and limits.
    public var defaultCamera = Camera.world
    public var defaultLimits = CameraLimits()

    public init() {}
}
