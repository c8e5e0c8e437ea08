import CameraCore

/// Who sent a gesture, as the hub knows them at that moment.
public struct GestureClient: Hashable, Sendable {
    public var owner: Owner
    /// The sender's viewport: gesture coordinates are in it.
    public var viewport: Viewport
    /// Kinds whose default action this client disabled (HERE
    /// `disableDefaultAction(forGesture:)`): they are only reported. The hub
    /// keeps this set per client; removing a kind re-enables it.
    public var disabled: Set<GestureKind>

    public init(owner: Owner, viewport: Viewport, disabled: Set<GestureKind> = []) {
        self.owner = owner
        self.viewport = viewport
        self.disabled = disabled
    }
}

/// What the engine did with a gesture input.
public enum GestureEffect: Hashable, Sendable {
    /// The camera follows the gesture (`begin` and `change` of pan, pinch, tilt, rotate).
    case following
    /// The gesture ended (`end` or `cancel`); `momentum` is the id of the
    /// momentum animation (owned by the client) when one started.
    case ended(momentum: String?)
    /// An animation owned by the client started (double tap, two-finger tap, scroll).
    case animation(id: String)
    /// No default action (tap, long press): report `event`.
    case reported
    /// The client disabled this kind's default action: nothing moved; report `event`.
    case disabled
}

/// A gesture as the room's listeners hear it (HERE gesture delegates: every
/// gesture, whether or not its default action ran).
public struct GestureEvent: Hashable, Sendable {
    public var client: String
    public var input: GestureInput
    /// The geo point under `point` in the camera after the input was applied
    /// (nil without a point, or at/above the horizon).
    public var geo: GeoCoordinate?
    /// The view point it happened at, in the sender's viewport: the input's
    /// point; for a long press's `end`/`cancel` without one, its last point;
    /// for a two-finger tap without one, the view centre it zoomed around.
    public var point: ViewPoint?
    /// The sender had disabled this kind's default action: nothing moved.
    public var disabled: Bool

    public init(client: String, input: GestureInput, geo: GeoCoordinate?, point: ViewPoint? = nil, disabled: Bool = false) {
        self.client = client
        self.input = input
        self.geo = geo
        self.point = point ?? input.point
        self.disabled = disabled
    }
}

public struct GestureOutcome: Hashable, Sendable {
    public var effect: GestureEffect
    /// What the room's gesture listeners hear: set for every accepted input.
    public var event: GestureEvent?
}

/// Tuning of the gesture engine. Defaults follow MapLibre GL JS where it has
/// an equivalent.
public struct GestureSettings: Hashable, Sendable {
    /// Seconds of client time, ending at the last sample, over which the pan
    /// release velocity is measured (MapLibre keeps 160 ms; 100 ms follows
    /// decelerations more closely).
    public var velocityWindow = 0.1
    /// Momentum starts only if the finger last moved less than this many
    /// seconds (client time) before the `end`: a finger that stopped, then
    /// lifted, does not fling.
    public var momentumMaxPause = 0.05
    /// MapLibre pan inertia: speed = min(release speed · linearity, maxSpeed),
    /// duration = speed / (deceleration · linearity), distance = speed · duration / 2,
    /// along the release direction, eased with `momentumCurve`.
    public var momentumLinearity = 0.3
    /// px/s².
    public var momentumDeceleration = 2500.0
    /// px/s, after `momentumLinearity` (caps the distance at maxSpeed² / (2 · deceleration · linearity) ≈ 1307 px).
    public var momentumMaxSpeed = 1400.0
    public var momentumCurve = TimingCurve.cubicBezier(0, 0, 0.3, 1)
    /// When tilted, momentum may carry the grabbed point up to this fraction of
    /// the way from the principal point to the horizon, never beyond (the
    /// visible region's sky clamp uses the same 0.85).
    public var momentumHorizonFraction = 0.85
    /// Momentum moves the target less than this fraction of the world's width,
    /// so the centre eases the way it was thrown (not the short way round).
    public var momentumMaxWorldFraction = 0.45
    /// Degrees the pinch's fingers must turn (cumulative) before the map
    /// rotates; from then on it rotates by the turn beyond the threshold, so
    /// there is no jump.
    public var pinchRotationThreshold = 4.0
    /// Tilt degrees per px of vertical movement (fingers up tilt more).
    public var tiltDegreesPerPixel = 0.5
    /// Zoom levels a double tap adds and a two-finger tap removes.
    public var tapZoomStep = 1.0
    public var tapZoomDuration = 0.3
    public var tapZoomCurve = TimingCurve.mapDefault
    /// Zoom levels per px of wheel delta (MapLibre's wheel rate, 1/450).
    public var scrollZoomRate = 1.0 / 450
    /// Largest zoom change one scroll input makes.
    public var scrollMaxZoomPerEvent = 1.0
    public var scrollZoomDuration = 0.2
    public var scrollZoomCurve = TimingCurve.easeOut

    public init() {}
}
