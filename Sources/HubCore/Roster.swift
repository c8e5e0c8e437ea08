import CamHubProtocol
import CameraCore
import CameraMotion

/// Hands out hub-wide client ids `c1`, `c2`, … (never reused while the hub runs).
public struct ClientIDAllocator: Sendable {
    private var upcoming: UInt64
    private let step: UInt64
    /// Appended to every id (a cluster hub's own, so ids are unique across hubs; default none).
    public var suffix = ""
    /// Ids `c<first>`, `c<first + step>`, …: hubs of one process (one per loop)
    /// take every `step`-th number from their own `first`, so ids never repeat across them.
    public init(first: UInt64 = 1, step: UInt64 = 1) {
        precondition(first >= 1 && step >= 1, "client ids count from 1")
        upcoming = first
        self.step = step
    }
    public mutating func next() -> String {
        defer { upcoming += step }
        return "c\(upcoming)\(suffix)"
    }
}

/// The hub's `--presenter-token` / `--driver-token`. A role whose token is set
/// needs it in `hello` (the presenter token also grants driver); without
/// tokens anyone may take any role. Followers never need a token.
public struct RoleTokens: Hashable, Sendable {
    public var presenter: String?
    public var driver: String?

    public init(presenter: String? = nil, driver: String? = nil) {
        self.presenter = presenter.flatMap { $0.isEmpty ? nil : $0 }
        self.driver = driver.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Throws `forbidden` (then close 1008) when `role` needs a token that `token` is not.
    public func authorize(role: Role, token: String?) throws(ProtocolError) {
        let accepted: [String]
        switch role {
        case .follower: return
        case .presenter:
            guard let presenter else { return }
            accepted = [presenter]
        case .driver:
            guard let driver else { return }
            accepted = [driver] + (presenter.map { [$0] } ?? [])
        }
        var ok = false
        if let token {
            for expected in accepted where Self.constantTimeEqual(token, expected) { ok = true }
        }
        guard ok else {
            throw ProtocolError(
                .forbidden, "token: \(token == nil ? "missing" : "wrong") token for role \(role)",
                ref: "hello", close: .policyViolation)
        }
    }

    /// Compares without returning early on the first differing byte.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var diff = UInt8(truncatingIfNeeded: x.count ^ y.count)
        diff |= UInt8(truncatingIfNeeded: (x.count ^ y.count) >> 8)
        for i in 0..<max(x.count, y.count) {
            let p = i < x.count ? x[i] : 0
            let q = i < y.count ? y[i] : 0
            diff |= p ^ q
        }
        return diff == 0 && x.count == y.count
    }
}

/// Who is in one room and in which role: the one place a member's role is
/// kept (sessions and the hub ask here). A value owned by the room.
///
/// Joining and leaving cost O(1) whatever the room's size: presenters,
/// drivers and the first `listedFollowerLimit` followers are *listed* (kept
/// in join order, announced with `joined`/`left`, sent in `welcome.roster`);
/// later followers are only counted, and not stored at all (a large
/// audience costs the roster nothing per head): `role(of:)` is nil for
/// them, and the room, which knows who joined, takes them as followers.
public struct Roster: Hashable, Sendable {
    public struct JoinOutcome: Hashable, Sendable {
        public var entry: RosterEntry
        /// Set when the client joined as presenter (a previous presenter is demoted to driver).
        public var presenterChange: PresenterChange?
        /// The client is listed (announced to the room and shown in rosters).
        public var isListed: Bool
    }

    public struct LeaveOutcome: Hashable, Sendable {
        public var entry: RosterEntry
        /// Set when the presenter left (the room then has none).
        public var presenterChange: PresenterChange?
    }

    /// The listed clients by id.
    private var listed: [String: RosterEntry] = [:]
    /// Listed clients in join order.
    private var listedOrder: [String] = []
    /// Followers listed, counted but not listed, and (of both) exploring and
    /// away. 32 bits each: a room holds at most `maxClientsPerRoom` clients,
    /// and the roster is stored inline in every room (`RoomMemoryTests`).
    private var listedFollowers: Int32 = 0
    private var unlistedFollowers: Int32 = 0
    private var exploringFollowers: Int32 = 0
    private var awayFollowers: Int32 = 0
    /// Followers listed at most; beyond, followers are only counted.
    public let listedFollowerLimit: Int
    public private(set) var presenter: String?

    /// The room's followers, listed or counted.
    public var followerCount: Int { Int(listedFollowers) + Int(unlistedFollowers) }

    /// The followers (listed and counted) in each follow state.
    public var followCounts: FollowCounts {
        let exploring = Int(exploringFollowers)
        let away = Int(awayFollowers)
        return FollowCounts(following: followerCount - exploring - away, exploring: exploring, away: away)
    }

    /// Counts a follower into (+1) or out of (-1) the count of `state` (`following` is what is left).
    private mutating func countFollower(_ state: FollowState, _ delta: Int32) {
        switch state {
        case .following: break
        case .exploring: exploringFollowers += delta
        case .away: awayFollowers += delta
        }
    }

    public init(listedFollowerLimit: Int = .max) {
        self.listedFollowerLimit = listedFollowerLimit
    }

    /// The listed clients in join order.
    public var entries: [RosterEntry] {
        listedOrder.map { client in
            guard let entry = listed[client] else { preconditionFailure("\(client) is in join order but not listed: join and leave change both") }
            return entry
        }
    }
    /// Everyone in the room, listed or counted.
    public var count: Int { listed.count + Int(unlistedFollowers) }
    public var isEmpty: Bool { count == 0 }
    /// A listed client's entry (nil for a counted follower or a stranger).
    public func entry(for client: String) -> RosterEntry? { listed[client] }
    /// A listed client's role (nil for a counted follower or a stranger).
    public func role(of client: String) -> Role? { listed[client]?.role }
    /// Head counts for `audience` events.
    public var audience: Audience { Audience(clients: count, followers: followerCount, follow: followCounts) }

    /// Checks the token, then adds the client (`name` defaults to the client id).
    public mutating func join(client: String, hello: Hello, tokens: RoleTokens) throws(ProtocolError) -> JoinOutcome {
        try tokens.authorize(role: hello.role, token: hello.token)
        return try join(client: client, name: hello.name, role: hello.role)
    }

    /// Adds a client. A new presenter takes over: the old one becomes a driver.
    /// Throws `conflict` when the id is already listed.
    public mutating func join(client: String, name: String?, role: Role) throws(ProtocolError) -> JoinOutcome {
        guard listed[client] == nil else { throw ProtocolError(.conflict, "client: \(client) already joined", ref: "hello") }
        let entry = RosterEntry(client: client, name: name ?? client, role: role)
        var change: PresenterChange?
        if role == .presenter {
            let previous = presenter
            if let previous { listed[previous]?.role = .driver }
            presenter = client
            change = PresenterChange(previous: previous, current: client, demoted: previous)
        }
        let isListed = role != .follower || Int(listedFollowers) < listedFollowerLimit
        if role == .follower {
            if isListed { listedFollowers += 1 } else { unlistedFollowers += 1 }
        }
        if isListed {
            listed[client] = entry
            listedOrder.append(client)
        }
        return JoinOutcome(entry: entry, presenterChange: change, isListed: isListed)
    }

    /// Removes a listed client (nil when it is not listed here), in O(listed).
    public mutating func leave(client: String) -> LeaveOutcome? {
        guard let entry = listed.removeValue(forKey: client) else { return nil }
        if let index = listedOrder.firstIndex(of: client) { listedOrder.remove(at: index) }
        if entry.role == .follower {
            listedFollowers -= 1
            countFollower(entry.follow, -1)
        }
        var change: PresenterChange?
        if presenter == client {
            presenter = nil
            change = PresenterChange(previous: client, current: nil, demoted: nil)
        }
        return LeaveOutcome(entry: entry, presenterChange: change)
    }

    /// A counted (unlisted) follower left, in `state`, in O(1).
    public mutating func leaveCounted(in state: FollowState = .following) {
        guard unlistedFollowers > 0 else { return }
        unlistedFollowers -= 1
        countFollower(state, -1)
    }

    /// A client's follow state changed from `old` to `new`, in O(1): a
    /// follower's moves between the counts, and a listed client's entry
    /// shows it. Returns the listed entry (nil: a counted follower).
    public mutating func setFollow(of client: String, from old: FollowState, to new: FollowState, isFollower: Bool) -> RosterEntry? {
        if isFollower {
            countFollower(old, -1)
            countFollower(new, 1)
        }
        listed[client]?.follow = new
        return listed[client]
    }
}

extension Roster {
    /// The presenter became a driver because a presenter joined on another hub
    /// of the cluster (nil: there was none here).
    public mutating func demotePresenter() -> String? {
        guard let previous = presenter else { return nil }
        listed[previous]?.role = .driver
        presenter = nil
        return previous
    }
}
