/// One client of a room as the roster (and `welcome`) shows it.
public struct RosterEntry: Hashable, Sendable {
    public var client: String
    public var name: String
    public var role: Role
    /// What the client says its map does (`following` at join).
    public var follow: FollowState
    public init(client: String, name: String, role: Role, follow: FollowState = .following) {
        self.client = client
        self.name = name
        self.role = role
        self.follow = follow
    }
}

/// A change of a room's presenter, to announce as a `presenterChanged` event.
public struct PresenterChange: Hashable, Sendable {
    /// The presenter before (nil: there was none).
    public var previous: String?
    /// The presenter now (nil: there is none).
    public var current: String?
    /// The previous presenter, still in the room and now a driver (nil when it left).
    public var demoted: String?
    public init(previous: String?, current: String?, demoted: String?) {
        self.previous = previous
        self.current = current
        self.demoted = demoted
    }
}
