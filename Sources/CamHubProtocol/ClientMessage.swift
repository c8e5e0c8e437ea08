import CameraCore
import CameraMotion

/// A client → hub message of protocol v1, fully validated (see
/// `ClientMessage.decode`). Wire details are in docs/PROTOCOL.md.
public enum ClientMessage: Hashable, Sendable {
    case hello(Hello)
    /// Jump: write the fields at once.
    case set(CameraUpdate)
    case ease(EaseCommand)
    case fly(FlyCommand)
    case animate(AnimateCommand)
    case cancel(CancelScope)
    case gesture(GestureMessage)
    /// Per-client gesture switches (applied to this client's gestures only).
    case gestures(GestureToggle)
    case viewport(Viewport)
    case limits(CameraLimits.Change)
    case track(TrackMessage)
    case query(QueryCommand)
    /// `t` is the client's value, echoed in `pong`.
    case ping(t: Double?)
    /// Replaces the sender's event subscriptions.
    case subscribe(EventSubscriptions)
    /// Sets, extends or clears the room's route (TomTom route tracking).
    case route(RouteMessage)
    /// The sender's own follow state.
    case follow(FollowState)
    /// Calls every client that is not following back to the room's camera, or
    /// only `client` (`id` is echoed in the `result`; nil: `summon`).
    case summon(id: String?, client: String? = nil)
    /// Allows or forbids exploring in the room.
    case followPolicy(explore: Bool)
    /// What an exploring sender's own map shows: its visible region's four
    /// corners (longitudes wrapped to [-180, 180]), or nil: it stopped sharing.
    case looking(region: [GeoCoordinate]?)
    /// How the sender fits the room's camera to its screen from now on.
    case fit(FitMode)
    /// Shows the sender's pointer at this point of the map (nil: hides it).
    case pointer(GeoCoordinate?)
    /// A new signed token for the session (`exp` moves on); see `Hub.refresh`.
    case refresh(token: String)
    /// Draws the room's map in this projection (Mercator or the globe).
    case projection(MapProjection)
    /// Changes the room's storyboard (`StoryState`).
    case story(StoryCommand)
    /// Steps through the room's storyboard, or starts or stops autoplay.
    case step(StepCommand)

    /// The wire `type` of this message.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .set: "set"
        case .ease: "ease"
        case .fly: "fly"
        case .animate: "animate"
        case .cancel: "cancel"
        case .gesture: "gesture"
        case .gestures: "gestures"
        case .viewport: "viewport"
        case .limits: "limits"
        case .track: "track"
        case .query: "query"
        case .ping: "ping"
        case .subscribe: "subscribe"
        case .route: "route"
        case .follow: "follow"
        case .summon: "summon"
        case .followPolicy: "followPolicy"
        case .looking: "looking"
        case .fit: "fit"
        case .pointer: "pointer"
        case .refresh: "refresh"
        case .projection: "projection"
        case .story: "story"
        case .step: "step"
        }
    }

    /// Every wire `type` the hub knows.
    public static let types = [
        "hello", "set", "ease", "fly", "animate", "cancel", "gesture", "gestures",
        "viewport", "limits", "track", "query", "ping", "subscribe", "route",
        "follow", "summon", "followPolicy", "fit", "pointer", "refresh", "projection",
        "story", "step", "looking",
    ]

    /// What to put in an `error`'s `ref` for this message: its id, else its type.
    public var ref: String {
        switch self {
        case .ease(let m): m.id ?? type
        case .fly(let m): m.id ?? type
        case .animate(let m): m.id ?? type
        case .cancel(.id(let id)): id
        case .query(let q): q.id
        case .summon(let id?, _): id
        case .step(let m): m.id ?? type
        default: type
        }
    }

    /// The least role that may send this message (see `Role.may(_:)`; the
    /// roles table of docs/PROTOCOL.md, which a test checks against the hub):
    /// `hello`, `viewport`, `gestures`, `query` and `ping` are open to followers;
    /// moving the camera and cancelling one's own animations need `driver`;
    /// what reaches beyond one's own motion (room `limits`, `cancel` with
    /// `all`) needs `presenter`.
    public var requiredRole: Role {
        switch self {
        case .hello, .gestures, .viewport, .query, .ping, .subscribe, .follow, .fit, .refresh, .looking: .follower
        case .set, .ease, .fly, .animate, .cancel(.id), .cancel(.own), .gesture, .track, .route, .pointer, .projection: .driver
        // And drivers where a presenter allowed them (`StoryState.drivers`: the hub lets them through).
        case .story, .step: .presenter
        case .limits, .cancel(.all), .summon, .followPolicy: .presenter
        }
    }

    /// `story` or `step`: a driver may send them where a presenter allowed it.
    public var isStoryboard: Bool {
        switch self {
        case .story, .step: true
        default: false
        }
    }

    /// `forbidden` (naming the field or message) unless `role` may send this.
    public func authorize(_ role: Role) throws(ProtocolError) {
        guard role.rank < requiredRole.rank else { return }
        switch self {
        case .limits:
            throw ProtocolError(.forbidden, "limits: only the presenter may change limits", ref: ref)
        case .cancel(.all):
            throw ProtocolError(.forbidden, "all: only the presenter may cancel everyone's animations", ref: ref)
        case .summon:
            throw ProtocolError(.forbidden, "summon: only the presenter may summon the room", ref: ref)
        case .followPolicy:
            throw ProtocolError(.forbidden, "followPolicy: only the presenter may lock or unlock following", ref: ref)
        case .story, .step:
            throw ProtocolError(
                .forbidden,
                "\(type): only a presenter may edit or step this room's storyboard, and drivers where a presenter allowed it ({\"type\":\"story\",\"drivers\":true})",
                ref: ref)
        default:
            throw ProtocolError(.forbidden, "\(type): a \(role.rawValue) may not send this", ref: ref)
        }
    }
}

/// The first message of a connection.
public struct Hello: Hashable, Sendable {
    public var room: RoomName
    public var role: Role
    /// Display name; nil means "use the client id".
    public var name: String?
    public var token: String?
    /// Frames per second the client asks for (1…tick); nil: the hub's default (`rate(tick:)`).
    public var rate: Double?
    public var viewport: Viewport
    /// The events asked for (nil: the role's default, `EventSubscriptions.defaults(for:)`).
    public var events: EventSubscriptions?
    /// How the client fits the room's camera to its screen (echoed in `welcome.fit`).
    public var fit = FitMode.same
    /// How its frames come: JSON text (the default) or binary (`BinaryFrame`).
    public var encoding = FrameEncoding.json
    /// What its map can draw (`hello.render`); its frames carry the closest camera it can show.
    public var render = RenderCapabilities.all

    public init(
        room: RoomName, role: Role, name: String? = nil, token: String? = nil,
        rate: Double? = nil, viewport: Viewport = Hello.defaultViewport,
        events: EventSubscriptions? = nil
    ) {
        self.room = room
        self.role = role
        self.name = name
        self.token = token
        self.rate = rate
        self.viewport = viewport
        self.events = events
    }

    /// The viewport of a client that says none.
    public static let defaultViewport = Viewport(width: 1280, height: 720)

    /// The frames per second a hub ticking `tick` times a second gives this client:
    /// its `rate`, else `HubProtocol.defaultRate`, never above the tick.
    public func rate(tick: Double) -> Double { min(rate ?? HubProtocol.defaultRate, max(1, tick)) }
}

/// `ease`: interpolate to the target over `duration` (MapLibre `easeTo`).
public struct EaseCommand: Hashable, Sendable {
    public var id: String?
    public var camera: CameraUpdate
    /// Seconds (default 1.5).
    public var duration: Double
    public var curve: TimingCurve
    /// Zoom/rotate around this view point of the sender's viewport instead of
    /// the target (never together with lat/lon).
    public var around: ViewPoint?
    /// MapLibre's `essential`: shown moving even to clients that prefer reduced motion.
    public var essential = false

    public static let defaultDuration = 1.5
    public init(
        id: String? = nil, camera: CameraUpdate, duration: Double = EaseCommand.defaultDuration,
        curve: TimingCurve = .easeInOut, around: ViewPoint? = nil
    ) {
        self.id = id
        self.camera = camera
        self.duration = duration
        self.curve = curve
        self.around = around
    }
}

/// `fly`: van Wijk & Nuij zoom-out-and-in flight (MapLibre `flyTo`).
public struct FlyCommand: Hashable, Sendable {
    public var id: String?
    public var camera: CameraUpdate
    /// Seconds; nil means "derived from speed and the path length".
    public var duration: Double?
    /// Average speed in screenfuls per second along the path (default 1.2).
    public var speed: Double
    /// ρ: how far the flight zooms out (default 1.42).
    public var curve: Double
    /// Highest zoom-out allowed at the flight's peak.
    public var minZoom: Double?
    /// As `EaseCommand.essential`.
    public var essential = false

    public static let defaultSpeed = 1.2
    public static let defaultCurve = 1.42
    public init(
        id: String? = nil, camera: CameraUpdate, duration: Double? = nil, speed: Double = FlyCommand.defaultSpeed,
        curve: Double = FlyCommand.defaultCurve, minZoom: Double? = nil
    ) {
        self.id = id
        self.camera = camera
        self.duration = duration
        self.speed = speed
        self.curve = curve
        self.minZoom = minZoom
    }
}

/// `animate`: a property animation, optionally delayed or chained after another.
public struct AnimateCommand: Hashable, Sendable {
    public var id: String?
    public var to: CameraUpdate
    /// Seconds (required on the wire).
    public var duration: Double
    public var curve: TimingCurve
    /// Seconds to wait before starting (default 0).
    public var delay: Double
    /// Start when the animation with this id finishes (then `delay` counts from there).
    public var after: String?
    /// Values the named properties jump to when the animation starts (Mapbox
    /// `fromValue`); only fields `to` also names.
    public var from: CameraUpdate?
    /// As `EaseCommand.essential`.
    public var essential = false

    public init(
        id: String? = nil, to: CameraUpdate, duration: Double, curve: TimingCurve = .easeInOut,
        delay: Double = 0, after: String? = nil, from: CameraUpdate? = nil
    ) {
        self.id = id
        self.to = to
        self.duration = duration
        self.curve = curve
        self.delay = delay
        self.after = after
        self.from = from
    }
}

/// What a `cancel` stops.
public enum CancelScope: Hashable, Sendable {
    /// The animation with this id.
    case id(String)
    /// Every animation this client started (`{"type":"cancel"}`).
    case own
    /// Every animation in the room (`{"type":"cancel","all":true}`).
    case all
}

/// One gesture event from a client's view (coordinates in that client's
/// viewport pixels): the gesture engine's own input type, decoded from the wire.
public typealias GestureMessage = GestureInput

extension GestureInput {
    /// The gesture kinds and phases of the core's gesture engine.
    public typealias Kind = GestureKind
    public typealias Phase = GesturePhase

    public init(
        kind: Kind, phase: Phase? = nil, x: Double? = nil, y: Double? = nil, t: Double? = nil,
        scale: Double? = nil, rotation: Double? = nil, dy: Double? = nil, delta: Double? = nil
    ) {
        self.init(kind, phase, x: x, y: y, t: t, scale: scale, rotation: rotation, dy: dy, delta: delta)
    }
}

/// `gestures`: switch gesture kinds off/on for the sending client.
public struct GestureToggle: Hashable, Sendable {
    public var disable: Set<GestureMessage.Kind>
    public var enable: Set<GestureMessage.Kind>
    public init(disable: Set<GestureMessage.Kind> = [], enable: Set<GestureMessage.Kind> = []) {
        self.disable = disable
        self.enable = enable
    }

    /// `disabled` after this toggle (the two sets never overlap).
    public func applied(to disabled: Set<GestureMessage.Kind>) -> Set<GestureMessage.Kind> {
        disabled.union(disable).subtracting(enable)
    }
}

/// `route`: the room's route as a polyline; `append` adds the points to the
/// route already there (a long route is sent in several messages).
public struct RouteMessage: Hashable, Sendable {
    public var points: [GeoCoordinate]
    public var append: Bool
    public init(points: [GeoCoordinate], append: Bool = false) {
        self.points = points
        self.append = append
    }
}

/// `track`: set the tracking mode and/or feed a location.
public struct TrackMessage: Hashable, Sendable {
    /// The core's tracking modes and location fixes.
    public typealias Mode = TrackingMode
    public typealias Location = TrackedLocation

    /// nil: keep the current mode (a location update only).
    public var mode: Mode?
    public var location: Location?
    public init(mode: Mode? = nil, location: Location? = nil) {
        self.mode = mode
        self.location = location
    }
}

/// `query`: geometry questions answered against the room camera and the
/// sender's viewport (see `QueryCommand.answer`).
public struct QueryCommand: Hashable, Sendable {
    public enum What: Hashable, Sendable {
        /// Geo points → view points.
        case project([GeoCoordinate])
        /// View points → geo points.
        case unproject([ViewPoint])
        /// The visible region (bounds + quad).
        case bounds
        /// The camera that shows `bounds` with `padding`.
        case fit(GeoBounds, padding: EdgeInsets)
        /// The room's storyboard, its steps whole (presenters; drivers where the storyboard allows them).
        case story

        public var name: String {
            switch self {
            case .project: "project"
            case .unproject: "unproject"
            case .bounds: "bounds"
            case .fit: "fit"
            case .story: "story"
            }
        }
    }

    public var id: String
    public var what: What
    public init(id: String, what: What) {
        self.id = id
        self.what = what
    }
}

extension GestureKind {
    /// Kinds that happen at an instant (phase optional).
    public var isInstantaneous: Bool { !isContinuous }
}

extension ClientMessage {
    /// Moves the room's camera by the sender's command (the room then shows
    /// the sender's view: `RoomView`). Taps and long presses move nothing.
    public var movesCamera: Bool {
        switch self {
        case .set, .ease, .fly, .animate, .track, .step: true
        case .gesture(let g): g.kind != .tap && g.kind != .longPress
        default: false
        }
    }

    /// Changes the room's camera, limits or tracking: on a cluster hub that does
    /// not own the room, it is forwarded to the owner (`RoomBroker.forward`).
    public var runsOnOwner: Bool {
        switch self {
        case .summon, .followPolicy: false  // about the room's clients, on every hub (`Hub+Follow`)
        default: requiredRole != .follower
        }
    }
}
