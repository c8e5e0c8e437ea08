/// Where a client's map is with respect to the room's camera, as the client
/// says (`{"type":"follow","state":…}`): the hub keeps it, counts it and
/// tells the room; it never moves anyone's map.
public enum FollowState: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Shows the room's camera (everyone's state at join).
    case following
    /// Looks around on its own map; the room's camera is untouched.
    case exploring
    /// The page is hidden, or the user idle.
    case away

    /// The wire name (`following`, `exploring`, `away`).
    public var name: String {
        switch self {
        case .following: "following"
        case .exploring: "exploring"
        case .away: "away"
        }
    }

    /// The state named `name` (nil: no such state).
    public init?(name: String) {
        guard let state = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = state
    }

    public var description: String { name }

    /// Whether a `summon` reaches a client in this state (it is not following).
    public var isSummonable: Bool { self != .following }
}

/// How many of a room's followers are in each `FollowState` (presenters and
/// drivers are not counted here). Kept by the roster as followers join, leave
/// and change state, so reading it costs nothing.
public struct FollowCounts: Hashable, Sendable {
    public var following: Int
    public var exploring: Int
    public var away: Int

    public init(following: Int = 0, exploring: Int = 0, away: Int = 0) {
        self.following = following
        self.exploring = exploring
        self.away = away
    }

    /// The count of `state`.
    public subscript(state: FollowState) -> Int {
        get {
            switch state {
            case .following: following
            case .exploring: exploring
            case .away: away
            }
        }
        set {
            switch state {
            case .following: following = newValue
            case .exploring: exploring = newValue
            case .away: away = newValue
            }
        }
    }

    /// Both hubs' counts added up.
    public static func + (a: FollowCounts, b: FollowCounts) -> FollowCounts {
        FollowCounts(following: a.following + b.following, exploring: a.exploring + b.exploring, away: a.away + b.away)
    }
}

/// Whether a room's clients may explore on their own maps, set by its
/// presenter (`{"type":"followPolicy","explore":false}` locks the room).
public struct FollowPolicy: Hashable, Sendable {
    /// False: `follow` `exploring` is refused with `policy`.
    public var explore: Bool
    /// Who set it (nil: the default).
    public var by: String?
    /// When it was set (ms since the epoch; 0: the default). Across hubs the
    /// latest setting wins.
    public var since: Double

    public init(explore: Bool = true, by: String? = nil, since: Double = 0) {
        self.explore = explore
        self.by = by
        self.since = since
    }

    /// A room's policy before any presenter set one: exploring allowed.
    public static let open = FollowPolicy()
}
