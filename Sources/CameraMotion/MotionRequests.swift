import CameraCore

/// An eased animation: the high-level `ease` (HERE/TomTom ease, Mapbox
/// `ease(to:)`) or the low-level per-property animator `animate` (Mapbox
/// `makeAnimator`); see `AnimatorManager.ease` and `AnimatorManager.animate`.
public struct EaseRequest: Hashable, Sendable {
    public var update: CameraUpdate
    /// Animators only (Mapbox `transition.<property>.fromValue`): values the
    /// named properties jump to when the animation starts, before it moves
    /// them to `update`. Every field must also be in `update`.
    public var from: CameraUpdate?
    /// Seconds (0 = jump at once). TomTom's default is 1.5 s.
    public var duration: Double
    public var curve: TimingCurve
    /// A view point in `viewport` whose geo point stays fixed while zoom,
    /// bearing and tilt change. Not allowed together with a new center.
    public var around: ViewPoint?
    /// The sender's viewport (used with `around`).
    public var viewport: Viewport
    /// Seconds to wait before starting.
    public var delay: Double
    /// The owner's animation id to wait for: this one starts the moment that one finishes.
    public var after: String?
    /// Part of what the animation means (MapLibre's `essential`): a client that
    /// prefers reduced motion still shows it moving; a non-essential one it may
    /// show as a jump to its end.
    public var essential = false
    /// The room's map: on the globe, below zoom 12, an `ease` takes the path
    /// MapLibre's globe `easeTo` takes (animators stay per property).
    public var projection = MapProjection.mercator

    public init(
        update: CameraUpdate, duration: Double = 1.5, curve: TimingCurve = .easeInOut, around: ViewPoint? = nil,
        viewport: Viewport = Viewport(width: 1280, height: 720), delay: Double = 0, after: String? = nil,
        from: CameraUpdate? = nil
    ) {
        self.update = update
        self.duration = duration
        self.curve = curve
        self.around = around
        self.viewport = viewport
        self.delay = delay
        self.after = after
        self.from = from
    }
}

extension EaseRequest {
    /// Checks `from` values as targets are checked (errors name `from.<field>`);
    /// they may only name fields `to` animates.
    public static func validate(from: CameraUpdate, to: CameraUpdate) throws(CameraInputError) {
        do { try from.validate() } catch { throw CameraInputError(field: "from." + error.field, message: error.message) }
        guard !from.isEmpty else { throw CameraInputError(field: "from", message: "names no field") }
        let fields: [(String, Bool, Bool)] = [
            ("lat", from.latitude != nil, to.latitude != nil), ("lon", from.longitude != nil, to.longitude != nil),
            ("zoom", from.zoom != nil, to.zoom != nil), ("bearing", from.bearing != nil, to.bearing != nil),
            ("tilt", from.tilt != nil, to.tilt != nil), ("anchor", from.anchor != nil, to.anchor != nil),
            ("padding", from.padding != nil, to.padding != nil), ("roll", from.roll != nil, to.roll != nil),
            ("elevation", from.elevation != nil, to.elevation != nil), ("fov", from.fov != nil, to.fov != nil),
        ]
        for (name, inFrom, inTo) in fields where inFrom && !inTo {
            throw CameraInputError(field: "from.\(name)", message: "is not animated (to has no \(name))")
        }
    }
}

/// A van Wijk & Nuij zoom-and-pan flight (MapLibre `flyTo`).
public struct FlyRequest: Hashable, Sendable {
    public var update: CameraUpdate
    /// Seconds; nil derives it from `speed` and the path length.
    public var duration: Double?
    /// Average speed in "screenfuls" per second along the path (MapLibre: 1.2).
    public var speed: Double
    /// The zoom curve ρ (MapLibre: 1.42); larger zooms out more.
    public var rho: Double
    /// The lowest zoom to pass through, instead of the one ρ implies.
    public var minZoom: Double?
    /// Progress over time along the path (MapLibre's default easing).
    public var curve: TimingCurve
    /// The sender's viewport: the path is measured in its screenfuls.
    public var viewport: Viewport
    public var delay: Double
    public var after: String?
    /// As `EaseRequest.essential`.
    public var essential = false
    /// The room's map: on the globe, below zoom 12, the flight takes the path
    /// MapLibre's globe `flyTo` takes.
    public var projection = MapProjection.mercator

    public init(
        update: CameraUpdate, duration: Double? = nil, speed: Double = 1.2, rho: Double = 1.42, minZoom: Double? = nil,
        curve: TimingCurve = .mapDefault, viewport: Viewport = Viewport(width: 1280, height: 720),
        delay: Double = 0, after: String? = nil
    ) {
        self.update = update
        self.duration = duration
        self.speed = speed
        self.rho = rho
        self.minZoom = minZoom
        self.curve = curve
        self.viewport = viewport
        self.delay = delay
        self.after = after
    }
}
