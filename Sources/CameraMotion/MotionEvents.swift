import CameraCore

/// How an animation ended (or that it began). Every animation gets exactly one
/// of `finished`, `cancelled`, `superseded`, and a `started` before it if it ran;
/// in between, an `interrupted` each time a newer claim takes some (not all)
/// of its properties while it keeps running on the rest.
public enum AnimationStatus: String, Hashable, Sendable {
    case started, interrupted, finished, cancelled, superseded
}

/// A report to an animation's owner (Mapbox animator completion).
public struct AnimationReport: Hashable, Sendable {
    /// The owner's id for the animation, or `#<serial>` when it gave none.
    public var id: String
    public var owner: Owner
    public var status: AnimationStatus
    /// Who caused a `cancelled` or `superseded` (a client id).
    public var by: String?
    /// Why it was cancelled: `cancel`, `gesture`, `ownerLeft`, `predecessorEnded`, `conflict`, `tracking`;
    /// why it was superseded as a whole: `highLevel` (a newer high-level command); nil otherwise.
    public var reason: String?
    /// Properties taken from it by newer claims before it ended; on
    /// `interrupted`, the properties taken at that moment.
    public var lost: CameraProperties
    /// Properties whose target the limits adjusted.
    public var clamped: CameraProperties
    /// The room's camera at that moment.
    public var camera: Camera
    /// Room time (seconds) at which it happened: exact, not the tick's time.
    public var time: Double
    /// On `started`: the camera its plan ends on (nil otherwise).
    public var to: Camera? = nil
    /// Whether its owner marked it essential (`EaseRequest.essential`).
    public var essential = false
}

/// TomTom-style camera tracking modes.
public enum TrackingMode: String, Hashable, Sendable, CaseIterable {
    /// No tracking.
    case none
    /// The target follows the location feed; bearing 0.
    case followNorthUp
    /// The target follows the feed, bearing follows its heading, tilt 0.
    case followDirection
    /// TomTom `followRouteDirection`: the location matched onto the room's
    /// route, bearing along the route ahead, tilt and zoom showing the next stretch.
    case followRouteDirection
    /// TomTom `followRouteNorthUp`: the matched location at the anchor (in
    /// the padded safe area), north up, tilt 0.
    case followRouteNorthUp
    /// TomTom `routeOverview`: the rest of the route fitted in the view, less its padding.
    case routeOverview

    /// The modes that present the room's route.
    public var followsRoute: Bool { self == .followRouteDirection || self == .followRouteNorthUp || self == .routeOverview }
}

/// What the manager tells its owner, in order. Drained with `takeEvents()`.
public enum MotionEvent: Hashable, Sendable {
    case animation(AnimationReport)
    /// The camera moved in this tick or command; `by` is the client that moved it last.
    case changed(camera: Camera, by: String?, time: Double)
    /// Nothing has moved for `steadyDelay`; once per rest.
    case steady(camera: Camera, time: Double)
    /// The camera moved past a threshold since the last such event.
    case significantChange(camera: Camera, time: Double)
    case trackingModeChanged(mode: TrackingMode, by: String?, time: Double)

    /// Whether the camera's path turns here: an animation started or ended
    /// (any status), or a tracking mode changed. A follower interpolating
    /// frames should not fit one curve across such a point.
    public var changesCourse: Bool {
        switch self {
        case .animation, .trackingModeChanged: return true
        case .changed, .steady, .significantChange: return false
        }
    }
}

/// Why a command was refused. Nothing changed.
public struct CommandError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        /// A property is held by a higher rank or by another client's active gesture.
        case conflict
        /// No such live animation (for `cancel` or `after`).
        case unknownAnimation = "unknown_animation"
        /// A value or sequence that makes no sense (names the field).
        case badInput = "bad_message"
    }
    public var code: Code
    public var message: String
    /// For conflicts: the contested property and who holds it.
    public var property: CameraProperties?
    public var holder: String?

    public init(code: Code, message: String, property: CameraProperties? = nil, holder: String? = nil) {
        self.code = code
        self.message = message
        self.property = property
        self.holder = holder
    }

    public var description: String { "\(code.rawValue): \(message)" }

    static func bad(_ error: CameraInputError) -> CommandError { CommandError(code: .badInput, message: error.description) }
}

/// What an accepted command did right away.
public struct CommandAccepted: Hashable, Sendable {
    /// The animation's id (`nil` for `set`).
    public var id: String?
    /// The room's camera after the command.
    public var camera: Camera
    /// Target properties the limits adjusted.
    public var clamped: CameraProperties
}
