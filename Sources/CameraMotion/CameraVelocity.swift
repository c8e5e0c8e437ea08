import CameraCore

/// How fast each camera property changes at one instant, per second: the
/// derivative of the hub's planned path, sent in moving frames so that a
/// follower can interpolate between frames with the right slope at each end
/// (cubic Hermite) instead of guessing it from neighbouring frames.
public struct CameraVelocity: Hashable, Sendable {
    /// Degrees of latitude per second.
    public var latitude: Double
    /// Degrees of longitude per second (the short way across the antimeridian).
    public var longitude: Double
    /// Zoom levels per second.
    public var zoom: Double
    /// Degrees per second, clockwise positive (the short way through north).
    public var bearing: Double
    /// Degrees per second.
    public var tilt: Double
    /// Degrees per second (the short way through ±180).
    public var roll: Double
    /// Metres per second.
    public var elevation: Double
    /// Degrees of field of view per second.
    public var fov: Double

    public init(
        latitude: Double, longitude: Double, zoom: Double, bearing: Double, tilt: Double, roll: Double = 0, elevation: Double = 0,
        fov: Double = 0
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
        self.bearing = bearing
        self.tilt = tilt
        self.roll = roll
        self.elevation = elevation
        self.fov = fov
    }

    /// True when roll, elevation and field of view do not change (the wire then carries only the flat rates).
    public var hasOnlyFlatRates: Bool { roll == 0 && elevation == 0 && fov == 0 }

    /// The mean velocity from camera `a` to camera `b` over `seconds` (> 0).
    init(from a: Camera, to b: Camera, over seconds: Double) {
        latitude = (b.latitude - a.latitude) / seconds
        longitude = shortestTurn(from: a.longitude, to: b.longitude) / seconds
        zoom = (b.zoom - a.zoom) / seconds
        bearing = shortestTurn(from: a.bearing, to: b.bearing) / seconds
        tilt = (b.tilt - a.tilt) / seconds
        roll = shortestTurn(from: a.roll, to: b.roll) / seconds
        elevation = (b.elevation - a.elevation) / seconds
        fov = (b.fov - a.fov) / seconds
    }
}

extension AnimatorManager {
    /// Seconds between the two cameras `velocity(at:)` compares (a backward
    /// difference: its bias is half the acceleration times the step, e.g.
    /// 0.006 °/s early in a 30° ease of 1.5 s; the doubles' rounding adds ~1e-8 °/s).
    static let velocityStep = 0.0001

    /// The camera's velocity just before `t` along what the animations plan
    /// (their segments' paths, clamped to the limits like the camera itself),
    /// or nil when nothing planned moves it then: at rest, or while a live
    /// gesture or a delayed start holds a property (the path then depends on
    /// input still to come).
    public func velocity(at t: Double) -> CameraVelocity? {
        var planned = false
        for motion in motions where !motion.held.isEmpty {
            switch motion.phase {
            case .running, .tracking(_, _?, _): planned = true
            case .interaction: return nil
            default: continue
            }
        }
        guard planned else { return nil }
        let step = Self.velocityStep
        return CameraVelocity(from: plannedCamera(at: t - step), to: plannedCamera(at: t), over: step)
    }

    /// The camera the running motions write at `t`, clamped (`evaluate` without committing it).
    func plannedCamera(at t: Double) -> Camera {
        var next = camera
        _ = writePlanned(at: t, into: &next)
        return next.clamped(to: limits).camera
    }
}
