import CamHubProtocol
import CameraCore
import CameraMotion

/// Commands about the room rather than its motion: questions, follow mode,
/// limits, the pointer. Each returns once the hub has handled it, with its
/// answer where the protocol has one; a refusal throws the hub's error.
extension Room {
    /// Asks the hub to compute against the room's camera and this client's
    /// viewport: project, unproject, the visible bounds, or the camera that fits bounds.
    public func query(_ what: QueryCommand.What) async throws(CamHubError) -> QueryAnswer {
        let id = newID("q")
        let answer = try await ask(.query(QueryCommand(id: id, what: what))) { reply in
            switch reply {
            case .result(let answered, _): answered == id
            case .error(let error): error.ref == id
            default: false
            }
        }
        guard case .result(_, let result) = answer else { throw Self.failure(answer) }
        return result
    }

    /// Presenters: calls back everyone who explores or is away, or only `client` (an id of
    /// the roster or of `viewports`); returns how many it reached.
    @discardableResult
    public func summon(client: String? = nil) async throws(CamHubError) -> Int {
        let id = newID("summon")
        let answer = try await ask(.summon(id: id, client: client)) { reply in
            switch reply {
            case .summonResult(let answered, _): answered == id
            case .error(let error): error.ref == id
            default: false
            }
        }
        guard case .summonResult(_, let summoned) = answer else { throw Self.failure(answer) }
        return summoned
    }

    /// This client's follow state: following the room, exploring on its own map, or away.
    public func follow(_ state: FollowState) async throws(CamHubError) {
        try await roundTrip(.follow(state))
        if let i = people.entries.firstIndex(where: { $0.client == client }) {
            people.apply(.followChanged(RosterEntry(client: client, name: people.entries[i].name, role: role, follow: state)))
        }
    }

    /// Presenters: `false` locks following (nobody may explore), `true` unlocks.
    public func followPolicy(explore: Bool) async throws(CamHubError) {
        try await roundTrip(.followPolicy(explore: explore))
    }

    /// Shows this client's pointer at `at` to the room; nil hides it (drivers, presenters).
    public func pointer(_ at: GeoCoordinate?) async throws(CamHubError) {
        try await roundTrip(.pointer(at))
    }

    /// How this client fits the room's camera to its screen from now on (kept for reconnects).
    public func fit(_ mode: FitMode) async throws(CamHubError) {
        try await roundTrip(.fit(mode))
        hello.fit = mode
    }

    /// Presenters: changes the room's limits; returns once everyone has them (`limits` is the room's then).
    public func setLimits(_ change: CameraLimits.Change) async throws(CamHubError) {
        try await roundTrip(.limits(change))
    }

    /// This client's screen in px (queries and fits use it; kept for reconnects).
    public func viewport(_ viewport: Viewport) async throws(CamHubError) {
        try await roundTrip(.viewport(viewport))
        hello.viewport = viewport
    }

    /// Replaces this client's event subscriptions (kept for reconnects).
    public func subscribe(_ events: EventSubscriptions) async throws(CamHubError) {
        try await roundTrip(.subscribe(events))
        hello.events = events
    }

    /// Drivers, presenters: draws the room's map as a globe or flat, for everyone.
    public func setProjection(_ projection: MapProjection) async throws(CamHubError) {
        try await roundTrip(.projection(projection))
    }

    /// Presenters (drivers where allowed): changes the room's storyboard (one message of at most 8 KiB).
    public func story(_ command: StoryCommand) async throws(CamHubError) {
        try await roundTrip(.story(command))
    }
}
