import CameraCore
import CameraMotion

/// Everything a joining client needs, sent once as `welcome`.
public struct Welcome: Hashable, Sendable {
    public var client: String
    public var room: RoomName
    public var role: Role
    /// The client's frame rate (frames per second).
    public var rate: Double
    /// The room's tick rate (Hz).
    public var tick: Double
    /// The room's current frame sequence number (`camera` is that frame's camera).
    public var seq: UInt64
    public var camera: Camera
    public var limits: CameraLimits
    public var presenter: String?
    public var roster: [RosterEntry]
    /// Gesture kinds disabled for this client.
    public var gestures: Set<GestureMessage.Kind>
    /// Everyone in the room, and how many of them are followers (`roster`
    /// lists presenters, drivers and the first followers only; see `Audience`).
    public var audience = Audience(clients: 0, followers: 0)
    /// The events the client gets besides frames (its `hello.events` or its role's default).
    public var events: EventSubscriptions = .controllerDefault
    /// The room's live animations, running and queued, oldest first.
    public var animations: [AnimationSummary] = []
    /// The room's tracking mode and the last fix it follows (nil when none).
    public var trackingMode: TrackingMode = .none
    public var trackedLocation: TrackedLocation?
    /// The room's route (empty when none).
    public var route: [GeoCoordinate] = []
    /// Whether the room's clients may explore.
    public var followPolicy = FollowPolicy.open
    /// The view of whoever moved the camera last (nil: nobody yet).
    public var view: RoomView?
    /// How the client fits the room's camera to its screen (its `hello.fit`).
    public var fit = FitMode.same
    /// What the hub adapts in this client's frames because its map cannot draw
    /// it (`RenderCapabilities.limited`: `roll`, `tilt`); empty: nothing.
    public var renderLimited: [String] = []
    /// How the room's map draws the world.
    public var projection = MapProjection.mercator
    /// The room's storyboard and the step it is on (nil: the room has no storyboard).
    public var story: StorySummary?

    public init(
        client: String, room: RoomName, role: Role, rate: Double, tick: Double, seq: UInt64,
        camera: Camera, limits: CameraLimits, presenter: String?, roster: [RosterEntry],
        gestures: Set<GestureMessage.Kind> = [], audience: Audience? = nil, events: EventSubscriptions = .controllerDefault
    ) {
        self.events = events
        self.client = client
        self.room = room
        self.role = role
        self.rate = rate
        self.tick = tick
        self.seq = seq
        self.camera = camera
        self.limits = limits
        self.presenter = presenter
        self.roster = roster
        self.gestures = gestures
        self.audience = audience ?? Audience(clients: roster.count, followers: roster.filter { $0.role == .follower }.count)
    }
}

/// One live animation of a room as `welcome.animations` lists it, times on
/// the hub's wall clock (ms since the epoch).
public struct AnimationSummary: Hashable, Sendable {
    public var id: String
    /// The client that started it (its owner).
    public var by: String
    public var kind: LiveAnimation.Kind
    /// `running`, `delayed` (waits for its `delay`) or `waiting` (for `after`).
    public var status: String
    /// Running: the properties it holds now; queued: the ones it will claim.
    public var properties: CameraProperties
    /// When it started (running), else nil.
    public var started: Double?
    /// Seconds: planned (running) or asked for (queued); nil for a queued
    /// flight whose duration comes from its path when it starts.
    public var duration: Double?
    /// The owner's animation it waits for or waited for.
    public var after: String?
    /// When a delayed one is due to start, else nil.
    public var starts: Double?

    public init(
        id: String, by: String, kind: LiveAnimation.Kind, status: String, properties: CameraProperties,
        started: Double?, duration: Double?, after: String?, starts: Double?
    ) {
        self.id = id
        self.by = by
        self.kind = kind
        self.status = status
        self.properties = properties
        self.started = started
        self.duration = duration
        self.after = after
        self.starts = starts
    }

    /// `live` with room seconds turned into wall-clock ms by `epoch`.
    public init(_ live: LiveAnimation, epoch: (Double) -> Double) {
        var started: Double?
        var starts: Double?
        var duration = live.requestedDuration
        let status: String
        switch live.state {
        case .running(let start, let planned):
            status = "running"
            started = epoch(start)
            duration = planned
        case .delayed(let until):
            status = "delayed"
            starts = epoch(until)
        case .waiting:
            status = "waiting"
        }
        self.init(
            id: live.id, by: live.owner.client, kind: live.kind, status: status, properties: live.properties,
            started: started, duration: duration, after: live.after, starts: starts)
    }
}

/// The life of an animation, reported to clients as `animation`.
/// How many clients a room has (large audiences are counted, not listed).
public struct Audience: Hashable, Sendable {
    public var clients: Int
    public var followers: Int
    /// The followers by follow state (`following`, `exploring`, `away`).
    public var follow: FollowCounts
    /// `follow` defaults to every follower `following`.
    public init(clients: Int, followers: Int, follow: FollowCounts? = nil) {
        self.clients = clients
        self.followers = followers
        self.follow = follow ?? FollowCounts(following: followers)
    }

    /// Both hubs' head counts added up.
    public static func + (a: Audience, b: Audience) -> Audience {
        Audience(clients: a.clients + b.clients, followers: a.followers + b.followers, follow: a.follow + b.follow)
    }
}

public struct AnimationMessage: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// `interrupted`: another command took some (not all) of its properties
        /// at that moment (`lost`, `by`); it runs on with the rest.
        case started, interrupted, finished, cancelled, superseded

        /// Whether the animation is over: `interrupted` is not (it runs on with the
        /// properties it kept), nor is `started`.
        public var isEnd: Bool { self == .finished || self == .cancelled || self == .superseded }
    }

    /// The animation's id (the client's, or one the hub assigned); null on the wire when nil.
    public var id: String?
    public var status: Status
    /// Who caused this status: the starter (started/finished), the canceller,
    /// or the client whose command superseded it. nil: the hub itself.
    public var by: String?
    /// Properties this animation lost to another command (superseded, or partly
    /// taken over); on `interrupted`, the ones taken at that moment.
    public var lost: CameraProperties
    /// Properties whose target the limits adjusted.
    public var clamped: CameraProperties
    /// The target (started) or the camera where it ended (finished, cancelled, superseded).
    public var camera: Camera?
    /// Free text for people ("limits changed", "presenter took over", …).
    public var reason: String?
    /// The client whose animation it is (ids are per client: with
    /// `roomAnimations` a client also gets other clients' reports).
    public var owner: String?
    /// On `started`: the camera its plan ends on, and whether it is essential
    /// (a client preferring reduced motion shows a non-essential one as a jump to `to`).
    public var to: Camera?
    public var essential: Bool?

    public init(
        id: String?, status: Status, by: String?, lost: CameraProperties = [], clamped: CameraProperties = [],
        camera: Camera? = nil, reason: String? = nil, owner: String? = nil
    ) {
        self.id = id
        self.status = status
        self.by = by
        self.lost = lost
        self.clamped = clamped
        self.camera = camera
        self.reason = reason
        self.owner = owner
    }
}

/// A room event, sent to every client of the room as `event`.
public enum HubEvent: Hashable, Sendable {
    /// The camera came to rest.
    case steady(camera: Camera)
    /// The camera moved far enough to matter (e.g. to reload data).
    case significantChange(camera: Camera, by: String?)
    case trackingModeChanged(mode: TrackMessage.Mode, by: String?)
    case limitsChanged(limits: CameraLimits, by: String?)
    /// `client`: the new presenter or nil; `previous`: the old one; `demoted`:
    /// the old one, still here and now a driver.
    case presenterChanged(client: String?, previous: String?, demoted: String?, by: String?)
    case joined(RosterEntry)
    case left(RosterEntry)
    /// A client tapped the map at this geo point (and this point of its view).
    case tap(by: String, at: GeoCoordinate, point: ViewPoint?)
    /// A long press in one of its phases (HERE `onLongPress(state:origin:)`):
    /// the sender's view point and the geo point under it (nil in the sky).
    case longPress(by: String, phase: GesturePhase, point: ViewPoint?, at: GeoCoordinate?)
    /// The room's head count changed (coalesced: at most one a second).
    case audience(Audience)
    /// Any gesture of the room (HERE gesture listeners); `disabled`: the
    /// sender had disabled its default action, so nothing moved.
    case gesture(by: String, kind: GestureKind, phase: GesturePhase?, point: ViewPoint?, at: GeoCoordinate?, disabled: Bool)
    /// To the sender only: its `set` was adjusted by the limits.
    case clamped(properties: CameraProperties, camera: Camera)
    /// The room's route changed: `points` replaced it (none: cleared), or
    /// were added at its end (`append`); `total` is its length in points now.
    case routeChanged(by: String, points: [GeoCoordinate], append: Bool, total: Int)
    /// A listed client's follow state changed (its roster entry, with the new state).
    case followChanged(RosterEntry)
    /// To a client that is not following: `by` (the presenter's id and name) calls it back.
    case summoned(by: String, name: String)
    /// The room's follow policy changed (`by`: the presenter who set it).
    case followPolicyChanged(FollowPolicy)
    /// The view of whoever moves the camera changed (another viewport or padding).
    case viewChanged(RoomView)
    /// The room's map projection changed (`by`: who set it).
    case projectionChanged(MapProjection, by: String?)
    /// The room went to a step of its storyboard, or autoplay started or stopped.
    case storyStep(StoryStepEvent)
    /// The room's storyboard was edited, or who may step it changed.
    case storyChanged(StoryChange)
    /// Where the room's exploring members look (coalesced, at most one a second; only to presenters and drivers).
    case viewports(RoomViewports)

    public var name: String {
        switch self {
        case .steady: "steady"
        case .significantChange: "significantChange"
        case .trackingModeChanged: "trackingModeChanged"
        case .limitsChanged: "limitsChanged"
        case .presenterChanged: "presenterChanged"
        case .joined: "joined"
        case .left: "left"
        case .tap: "tap"
        case .longPress: "longPress"
        case .audience: "audience"
        case .gesture: "gesture"
        case .clamped: "clamped"
        case .routeChanged: "routeChanged"
        case .followChanged: "followChanged"
        case .summoned: "summoned"
        case .followPolicyChanged: "followPolicyChanged"
        case .viewChanged: "viewChanged"
        case .projectionChanged: "projectionChanged"
        case .storyStep: "storyStep"
        case .storyChanged: "storyChanged"
        case .viewports: "viewports"
        }
    }

    /// The event for a roster's presenter change.
    public static func presenterChanged(_ change: PresenterChange, by: String?) -> HubEvent {
        .presenterChanged(client: change.current, previous: change.previous, demoted: change.demoted, by: by)
    }
}

/// Hub → client encoders. Each returns the UTF-8 bytes of one JSON text
/// message, written by hand. `time` is the hub's wall clock in milliseconds
/// since the Unix epoch (the caller reads the clock; HubCore never does).
public enum HubMessage {
    /// `{"type":"frame","seq":…,"time":…,"camera":{…},"moving":…,"by":…}`.
    /// Encode once per room per tick and send the same bytes to every client due a frame.
    /// A room frame; `corner`: the first frame after a change of course (the
    /// field is left out when false); `velocity`: the planned path's slope at
    /// this frame (left out when nil); `pointer`: the room's pointer (left out
    /// when nobody points, so such frames are the bytes they always were);
    /// `epoch`: the lease epoch of the hub that ran the camera (left out when
    /// 0: the in-memory engine).
    public static func frame(
        seq: UInt64, time: Double, camera: Camera, moving: Bool, by: String?, corner: Bool = false, velocity: CameraVelocity? = nil,
        pointer: FramePointer = .none, epoch: UInt64 = 0
    ) -> [UInt8] {
        var w = JSONWriter(capacity: velocity == nil && pointer == FramePointer.none ? 160 : 320)
        w.raw(WirePrefix.frame)
        w.integer(seq)
        w.raw(WirePrefix.frameTime)
        w.number(time)
        w.raw(",\"camera\":")
        w.camera(camera)
        frameState(moving: moving, by: by, corner: corner, epoch: epoch, into: &w)
        if let velocity {
            w.raw(",\"velocity\":")
            w.velocity(velocity)
        }
        switch pointer {
        case .none:
            break
        case .hidden:
            w.raw(",\"pointer\":null")
        case .shown(let p):
            w.raw(",\"pointer\":{\"lat\":")
            w.number(p.latitude)
            w.raw(",\"lon\":")
            w.number(JSONWriter.wireLongitude(p.longitude))
            w.raw(",\"by\":")
            w.string(p.by)
            w.raw("}")
        }
        w.raw("}")
        return w.bytes
    }

    /// A frame's fields between its camera and its velocity:
    /// `,"moving":…,"by":…` and, when they apply, `,"corner":true` and `,"epoch":…`.
    static func frameState(moving: Bool, by: String?, corner: Bool, epoch: UInt64, into w: inout JSONWriter) {
        w.raw(",\"moving\":")
        w.bool(moving)
        w.raw(",\"by\":")
        w.string(by)
        if corner { w.raw(",\"corner\":true") }
        if epoch > 0 {
            w.raw(",\"epoch\":")
            w.integer(epoch)
        }
    }

    public static func welcome(_ m: Welcome, time: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 512 + 64 * m.roster.count)
        w.raw("{\"type\":\"welcome\",\"client\":")
        w.string(m.client)
        w.raw(",\"room\":")
        w.string(m.room.value)
        w.raw(",\"role\":")
        w.string(m.role.rawValue)
        w.raw(",\"rate\":")
        w.number(m.rate)
        w.raw(",\"tick\":")
        w.number(m.tick)
        w.raw(",\"time\":")
        w.number(time)
        roomStateHead(m, into: &w)
        w.raw("],\"gestures\":[")
        var first = true
        for kind in GestureMessage.Kind.allCases where m.gestures.contains(kind) {
            if !first { w.raw(",") }
            first = false
            w.string(kind.rawValue)
        }
        w.raw("],\"events\":[")
        for (i, name) in m.events.names.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(name)
        }
        w.raw("],")
        roomStateTail(m, into: &w)
        w.raw(",\"fit\":")
        w.string(m.fit.rawValue)
        w.raw(",\"projection\":")
        w.string(m.projection.rawValue)
        if let story = m.story {
            w.raw(",\"story\":")
            w.storySummary(story)
        }
        if !m.renderLimited.isEmpty {
            w.raw(",\"renderLimited\":[")
            for (i, name) in m.renderLimited.enumerated() {
                if i > 0 { w.raw(",") }
                w.string(name)
            }
            w.raw("]")
        }
        w.raw("}")
        return w.bytes
    }

    /// The room's state in a welcome, first part: from `,"seq"` to the roster's
    /// items (its closing `]` is the caller's). Shared with the server API's room.
    public static func roomStateHead(_ m: Welcome, into w: inout JSONWriter) {
        w.raw(",\"seq\":")
        w.integer(m.seq)
        w.raw(",\"camera\":")
        w.camera(m.camera)
        w.raw(",\"limits\":")
        w.limits(m.limits)
        w.raw(",\"presenter\":")
        w.string(m.presenter)
        w.audience(m.audience)
        w.raw(",\"followPolicy\":{\"explore\":")
        w.bool(m.followPolicy.explore)
        w.raw("},\"roster\":[")
        for (i, e) in m.roster.enumerated() {
            if i > 0 { w.raw(",") }
            rosterEntry(e, into: &w)
        }
    }

    /// The room's state in a welcome, last part: from the animations (after the
    /// caller's `]`) to `view`. Shared with the server API's room.
    public static func roomStateTail(_ m: Welcome, into w: inout JSONWriter) {
        w.raw("\"animations\":[")
        for (i, a) in m.animations.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw("{\"id\":")
            w.string(a.id)
            w.raw(",\"by\":")
            w.string(a.by)
            w.raw(",\"kind\":")
            w.string(a.kind.rawValue)
            w.raw(",\"status\":")
            w.string(a.status)
            w.raw(",\"properties\":")
            w.properties(a.properties)
            w.raw(",\"started\":")
            w.number(a.started)
            w.raw(",\"duration\":")
            w.number(a.duration)
            w.raw(",\"after\":")
            w.string(a.after)
            if let starts = a.starts {
                w.raw(",\"starts\":")
                w.number(starts)
            }
            w.raw("}")
        }
        w.raw("],\"tracking\":{\"mode\":")
        w.string(m.trackingMode.rawValue)
        w.raw(",\"location\":")
        if let fix = m.trackedLocation {
            w.raw("{\"lat\":")
            w.number(fix.latitude)
            w.raw(",\"lon\":")
            w.number(JSONWriter.wireLongitude(fix.longitude))
            if let heading = fix.heading {
                w.raw(",\"heading\":")
                w.number(normalizeBearing(heading))
            }
            w.raw("}")
        } else {
            w.null()
        }
        w.raw("},\"route\":")
        w.route(m.route)
        w.raw(",\"view\":")
        if let view = m.view { w.view(view) } else { w.null() }
    }

    private static func rosterEntry(_ e: RosterEntry, into w: inout JSONWriter) {
        w.raw("{\"client\":")
        w.string(e.client)
        w.raw(",\"name\":")
        w.string(e.name)
        w.raw(",\"role\":")
        w.string(e.role.rawValue)
        w.raw(",\"follow\":")
        w.string(e.follow.name)
        w.raw("}")
    }

    /// `{"type":"animation","id":…,"status":…,"by":…,"lost":[…],"clamped":[…],"time":…}`
    /// plus `camera` and `reason` when set.
    public static func animation(_ r: AnimationMessage, time: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"type\":\"animation\",\"id\":")
        w.string(r.id)
        w.raw(",\"status\":")
        w.string(r.status.rawValue)
        w.raw(",\"by\":")
        w.string(r.by)
        if let owner = r.owner {
            w.raw(",\"owner\":")
            w.string(owner)
        }
        w.raw(",\"lost\":")
        w.properties(r.lost)
        w.raw(",\"clamped\":")
        w.properties(r.clamped)
        if let camera = r.camera {
            w.raw(",\"camera\":")
            w.camera(camera)
        }
        if let reason = r.reason {
            w.raw(",\"reason\":")
            w.string(reason)
        }
        if let to = r.to {
            w.raw(",\"to\":")
            w.camera(to)
        }
        if let essential = r.essential {
            w.raw(",\"essential\":")
            w.bool(essential)
        }
        w.raw(",\"time\":")
        w.number(time)
        w.raw("}")
        return w.bytes
    }

    /// `{"type":"event","event":…,"time":…, …fields}`.
    ///
    /// Longer than a screen on purpose: one short case per event, in the
    /// order of docs/PROTOCOL.md, so each event's wire fields read in one place
    /// beside the others (split into helpers they would be one call each).
    public static func event(_ e: HubEvent, time: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"type\":\"event\",\"event\":")
        w.string(e.name)
        w.raw(",\"time\":")
        w.number(time)
        switch e {
        case .steady(let camera):
            w.raw(",\"camera\":")
            w.camera(camera)
        case .significantChange(let camera, let by):
            w.raw(",\"camera\":")
            w.camera(camera)
            w.raw(",\"by\":")
            w.string(by)
        case .trackingModeChanged(let mode, let by):
            w.raw(",\"mode\":")
            w.string(mode.rawValue)
            w.raw(",\"by\":")
            w.string(by)
        case .limitsChanged(let limits, let by):
            w.raw(",\"limits\":")
            w.limits(limits)
            w.raw(",\"by\":")
            w.string(by)
        case .presenterChanged(let client, let previous, let demoted, let by):
            w.raw(",\"client\":")
            w.string(client)
            w.raw(",\"previous\":")
            w.string(previous)
            w.raw(",\"demoted\":")
            w.string(demoted)
            w.raw(",\"by\":")
            w.string(by)
        case .joined(let entry), .left(let entry):
            w.raw(",\"client\":")
            w.string(entry.client)
            w.raw(",\"name\":")
            w.string(entry.name)
            w.raw(",\"role\":")
            w.string(entry.role.rawValue)
        case .tap(let by, let geo, let point):
            w.raw(",\"by\":")
            w.string(by)
            if let point {
                w.raw(",\"x\":")
                w.number(point.x)
                w.raw(",\"y\":")
                w.number(point.y)
            }
            w.raw(",\"lat\":")
            w.number(geo.latitude)
            w.raw(",\"lon\":")
            w.number(JSONWriter.wireLongitude(geo.longitude))
        case .longPress(let by, let phase, let point, let geo):
            w.raw(",\"by\":")
            w.string(by)
            w.raw(",\"phase\":")
            w.string(phase.rawValue)
            w.raw(",\"x\":")
            w.number(point?.x)
            w.raw(",\"y\":")
            w.number(point?.y)
            w.raw(",\"lat\":")
            w.number(geo?.latitude)
            w.raw(",\"lon\":")
            w.number(geo.map { JSONWriter.wireLongitude($0.longitude) })
        case .audience(let audience):
            w.audience(audience)
        case .gesture(let by, let kind, let phase, let point, let geo, let disabled):
            w.raw(",\"by\":")
            w.string(by)
            w.raw(",\"kind\":")
            w.string(kind.rawValue)
            w.raw(",\"phase\":")
            w.string(phase?.rawValue)
            w.raw(",\"disabled\":")
            w.bool(disabled)
            if let point {
                w.raw(",\"x\":")
                w.number(point.x)
                w.raw(",\"y\":")
                w.number(point.y)
            }
            if let geo {
                w.raw(",\"lat\":")
                w.number(geo.latitude)
                w.raw(",\"lon\":")
                w.number(JSONWriter.wireLongitude(geo.longitude))
            }
        case .clamped(let properties, let camera):
            w.raw(",\"clamped\":")
            w.properties(properties)
            w.raw(",\"camera\":")
            w.camera(camera)
        case .routeChanged(let by, let points, let append, let total):
            w.raw(",\"by\":")
            w.string(by)
            w.raw(",\"append\":")
            w.bool(append)
            w.raw(",\"total\":")
            w.integer(UInt64(total))
            w.raw(",\"points\":")
            w.route(points)
        case .followChanged(let entry):
            w.raw(",\"client\":")
            w.string(entry.client)
            w.raw(",\"name\":")
            w.string(entry.name)
            w.raw(",\"state\":")
            w.string(entry.follow.name)
        case .summoned(let by, let name):
            w.raw(",\"by\":{\"client\":")
            w.string(by)
            w.raw(",\"name\":")
            w.string(name)
            w.raw("}")
        case .followPolicyChanged(let policy):
            w.raw(",\"explore\":")
            w.bool(policy.explore)
            w.raw(",\"by\":")
            w.string(policy.by)
        case .viewChanged(let view):
            w.raw(",\"view\":")
            w.view(view)
        case .projectionChanged(let projection, let by):
            w.raw(",\"projection\":")
            w.string(projection.rawValue)
            w.raw(",\"by\":")
            w.string(by)
        case .storyStep(let e):
            w.storyStep(e)
        case .storyChanged(let c):
            w.storyChange(c)
        case .viewports(let v):
            w.viewports(v)
        }
        w.raw("}")
        return w.bytes
    }

    /// `{"type":"result","id":…,"what":"summon","summoned":…}`: the answer to
    /// a presenter's `summon`, how many clients it reached.
    public static func summonResult(id: String?, summoned: Int) -> [UInt8] {
        var w = JSONWriter(capacity: 96)
        w.raw("{\"type\":\"result\",\"id\":")
        w.string(id ?? "summon")
        w.raw(",\"what\":\"summon\",\"summoned\":")
        w.integer(UInt64(summoned))
        w.raw("}")
        return w.bytes
    }

    /// `{"type":"result","id":…,"what":…, …answer}`.
    public static func result(id: String, _ answer: QueryAnswer) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"type\":\"result\",\"id\":")
        w.string(id)
        w.raw(",\"what\":")
        w.string(answer.what)
        switch answer {
        case .project(let points):
            w.raw(",\"points\":[")
            for (i, p) in points.enumerated() {
                if i > 0 { w.raw(",") }
                if let p { w.point(p) } else { w.null() }
            }
            w.raw("]")
        case .unproject(let geos):
            w.raw(",\"points\":[")
            for (i, g) in geos.enumerated() {
                if i > 0 { w.raw(",") }
                if let g { w.geo(g) } else { w.null() }
            }
            w.raw("]")
        case .bounds(let region):
            w.raw(",\"bounds\":")
            w.bounds(region.bounds)
            w.raw(",\"quad\":[")
            for (i, g) in region.quad.enumerated() {
                if i > 0 { w.raw(",") }
                w.geo(g)
            }
            w.raw("]")
        case .fit(let camera):
            w.raw(",\"camera\":")
            w.camera(camera)
        case .story(let story):
            w.storyResult(story)
        }
        w.raw("}")
        return w.bytes
    }

    /// `{"type":"gestures","disabled":[…]}`: the answer to a `gestures`
    /// message, the kinds now disabled for the sender (in `GestureKind` order).
    public static func gestures(disabled: Set<GestureMessage.Kind>) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.raw("{\"type\":\"gestures\",\"disabled\":[")
        var first = true
        for kind in GestureMessage.Kind.allCases where disabled.contains(kind) {
            if !first { w.raw(",") }
            first = false
            w.string(kind.rawValue)
        }
        w.raw("]}")
        return w.bytes
    }

    /// `{"type":"error","code":…,"message":…,"ref":…}` (ref null when unknown).
    public static func error(_ e: ProtocolError) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + e.message.utf8.count)
        w.raw("{\"type\":\"error\",\"code\":")
        w.string(e.code.rawValue)
        w.raw(",\"message\":")
        w.string(e.message)
        w.raw(",\"ref\":")
        w.string(e.ref)
        w.raw("}")
        return w.bytes
    }

    /// `{"type":"tokenExpiring","exp":…}`: the client's signed token expires at
    /// `exp` (seconds since 1970); it is closed then (4001) unless it sends `refresh`.
    public static func tokenExpiring(exp: Double) -> [UInt8] { token("tokenExpiring", exp: exp) }

    /// `{"type":"tokenRefreshed","exp":…}`: the answer to a `refresh` that was accepted.
    public static func tokenRefreshed(exp: Double) -> [UInt8] { token("tokenRefreshed", exp: exp) }

    private static func token(_ type: String, exp: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 48)
        w.raw("{\"type\":")
        w.string(type)
        w.raw(",\"exp\":")
        w.number(exp)
        w.raw("}")
        return w.bytes
    }

    /// `{"type":"pong","t":…,"time":…}` (`t` echoed, omitted when the ping had none).
    public static func pong(t: Double?, time: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.raw("{\"type\":\"pong\"")
        if let t {
            w.raw(",\"t\":")
            w.number(t)
        }
        w.raw(",\"time\":")
        w.number(time)
        w.raw("}")
        return w.bytes
    }
}
