import CameraCore
import CameraMotion
import Foundation

/// A frame as the playout keeps it: hub time (ms), camera, and what it says about motion.
public struct TimedCamera: Hashable, Sendable {
    public var seq: UInt64
    /// The hub's clock, ms since 1970.
    public var time: Double
    public var camera: Camera
    public var moving: Bool
    /// The first frame after a change of course (no curve is fitted across it).
    public var corner: Bool
    /// The hub's planned path's slope at this frame (moving frames that carry one).
    public var velocity: CameraVelocity?
    public var by: String?

    public init(
        seq: UInt64, time: Double, camera: Camera, moving: Bool, corner: Bool = false, velocity: CameraVelocity? = nil,
        by: String? = nil
    ) {
        self.seq = seq
        self.time = time
        self.camera = camera
        self.moving = moving
        self.corner = corner
        self.velocity = moving ? velocity : nil
        self.by = by
    }
}

/// The curves between frames: straight lines, a monotone cubic through the
/// frame before, and a cubic Hermite with the hub's own slopes. Pure; the
/// JavaScript client's `interpolateCamera`, `hermiteCamera` and `hermiteVelocityCamera`.
public enum CameraCurves {
    /// `a` to `b` at fraction `t` (0…1, no extrapolation), in `CameraDelta`'s spaces.
    public static func linear(_ a: Camera, _ b: Camera, _ t: Double) -> Camera {
        if t <= 0 { return a }
        if t >= 1 { return b }
        return CameraDelta(from: a, to: b).applied(to: a, times: t)
    }

    /// Between moving frames `a` and `b` (fraction `t`), a monotone cubic per
    /// component through the frame before, `p`: PCHIP's tangent at `a`, the
    /// parabola's through p, a, b at `b` (kept within 0…3 × the secant). Never
    /// overshoots the frames and needs no frame after `b`.
    public static func monotone(_ p: TimedCamera, _ a: TimedCamera, _ b: TimedCamera, _ t: Double) -> Camera {
        if t <= 0 { return a.camera }
        if t >= 1 { return b.camera }
        let h1 = a.time - p.time
        let h2 = b.time - a.time
        let before = CameraDelta(from: p.camera, to: a.camera).lanes
        let after = CameraDelta(from: a.camera, to: b.camera).lanes
        let (h10, h01, h11) = basis(t)
        var move = SIMD16<Double>.zero
        for k in CameraDelta.used {
            let d1 = before[k] / h1
            let d2 = after[k] / h2
            let ta = pchipTangent(h1, h2, d1, d2)
            var tb = d2 + (d2 - d1) * h2 / (h1 + h2)
            if d2 == 0 || sign(tb) != sign(d2) {
                tb = 0
            } else if abs(tb) > 3 * abs(d2) {
                tb = 3 * d2
            }
            move[k] = h10 * h2 * ta + h01 * after[k] + h11 * h2 * tb
        }
        return CameraDelta(lanes: move).applied(to: a.camera)
    }

    /// Between moving frames that carry the hub's `velocity` (fraction `t`): a
    /// cubic Hermite per component with the hub's slope at both ends.
    public static func withVelocity(_ a: TimedCamera, _ b: TimedCamera, _ t: Double) -> Camera {
        if t <= 0 { return a.camera }
        if t >= 1 { return b.camera }
        guard let va = a.velocity, let vb = b.velocity else { return linear(a.camera, b.camera, t) }
        let ms = b.time - a.time
        let d = CameraDelta(from: a.camera, to: b.camera).lanes
        let ra = rates(a.camera, va, secant: d, over: ms)
        let rb = rates(b.camera, vb, secant: d, over: ms)
        let (h10, h01, h11) = basis(t)
        return CameraDelta(lanes: h10 * ms * ra + h01 * d + h11 * ms * rb).applied(to: a.camera)
    }

    /// A frame's velocity (per second) as rates of `CameraDelta`'s lanes per ms
    /// at `camera`; anchor and padding from `secant` over `ms`.
    static func rates(_ camera: Camera, _ v: CameraVelocity, secant: SIMD16<Double>, over ms: Double) -> SIMD16<Double> {
        var r = secant / ms
        let cosLat = max(1e-9, cos(CameraDelta.clampLatitude(camera.latitude) * .pi / 180))
        r[CameraDelta.x] = v.longitude / 360 / 1000
        r[CameraDelta.y] = -(v.latitude * .pi / 180) / (2 * .pi * cosLat) / 1000
        r[CameraDelta.zoom] = v.zoom / 1000
        r[CameraDelta.bearing] = v.bearing / 1000
        r[CameraDelta.tilt] = v.tilt / 1000
        r[CameraDelta.roll] = v.roll / 1000
        r[CameraDelta.elevation] = v.elevation / 1000
        r[CameraDelta.fov] = v.fov / 1000
        return r
    }

    /// The cubic Hermite basis h10, h01, h11 at `t`.
    private static func basis(_ t: Double) -> (Double, Double, Double) {
        let s2 = t * t
        let s3 = s2 * t
        return (s3 - 2 * s2 + t, -2 * s3 + 3 * s2, s3 - s2)
    }

    /// PCHIP's tangent at a knot between secants d1 (over h1) and d2 (over h2): no overshoot.
    private static func pchipTangent(_ h1: Double, _ h2: Double, _ d1: Double, _ d2: Double) -> Double {
        if d1 == 0 || d2 == 0 || sign(d1) != sign(d2) { return 0 }
        let w1 = 2 * h2 + h1
        let w2 = h2 + 2 * h1
        return (w1 + w2) / (w1 / d1 + w2 / d2)
    }

    private static func sign(_ x: Double) -> Double { x > 0 ? 1 : x < 0 ? -1 : 0 }
}
