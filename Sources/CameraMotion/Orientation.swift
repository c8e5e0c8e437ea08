import CameraCore
import Foundation

/// The camera's orientation (roll, tilt, bearing) as one rotation, the way
/// MapLibre GL JS 5's `easeTo` turns it when the roll changes: it converts the
/// start and end to quaternions, takes the shortest rotation between them
/// (spherical linear interpolation) and reads roll, pitch and bearing back.
/// Turning the three angles separately would swing the view through
/// orientations neither end has; the slerp turns about one axis at a steady rate.
struct Orientation: Hashable, Sendable {
    var x: Double
    var y: Double
    var z: Double
    var w: Double

    /// MapLibre's `rollPitchBearingToQuat`: rotations about x by the roll, y by
    /// the pitch − 90° and z by the bearing (degrees), composed as gl-matrix's `fromEuler`.
    init(roll: Double, tilt: Double, bearing: Double) {
        let half = Double.pi / 360
        let (sx, cx) = (sin(roll * half), cos(roll * half))
        let (sy, cy) = (sin((tilt - 90) * half), cos((tilt - 90) * half))
        let (sz, cz) = (sin(bearing * half), cos(bearing * half))
        x = sx * cy * cz - cx * sy * sz
        y = cx * sy * cz + sx * cy * sz
        z = cx * cy * sz - sx * sy * cz
        w = cx * cy * cz + sx * sy * sz
    }

    init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }

    /// The rotation a fraction `t` (0…1) of the shortest way from `a` to `b`
    /// (gl-matrix's `slerp`: linear when the two are within 1e-6 of each other).
    static func slerp(_ a: Orientation, _ b: Orientation, _ t: Double) -> Orientation {
        var b = b
        var cosine = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
        if cosine < 0 {
            cosine = -cosine
            b = Orientation(x: -b.x, y: -b.y, z: -b.z, w: -b.w)
        }
        var s0 = 1 - t
        var s1 = t
        if 1 - cosine > 1e-6 {
            let omega = acos(cosine)
            s0 = sin((1 - t) * omega) / sin(omega)
            s1 = sin(t * omega) / sin(omega)
        }
        return Orientation(x: s0 * a.x + s1 * b.x, y: s0 * a.y + s1 * b.y, z: s0 * a.z + s1 * b.z, w: s0 * a.w + s1 * b.w)
    }

    /// Roll, tilt and bearing in degrees, as MapLibre's `getRollPitchBearing`
    /// reads them back, except in two places where its numbers are ill-conditioned:
    /// the tilt comes from an atan2 rather than an asin (the same angle, without
    /// the 1e-6° an asin near 1 makes of one ulp), and looking straight down
    /// (the view axis within 0.001 of vertical), where roll and bearing turn
    /// about the same axis and only their sum is defined, the roll is `roll`
    /// and the bearing the rest (MapLibre reads it all as bearing, so a rolled
    /// camera's numbers would jump though the view does not).
    func angles(roll: Double) -> (roll: Double, tilt: Double, bearing: Double) {
        let (x2, y2, z2) = (x + x, y + y, z + z)
        let (xx, yx, yy) = (x * x2, y * x2, y * y2)
        let (zx, zy, zz) = (z * x2, z * y2, z * z2)
        let (wx, wy, wz) = (w * x2, w * y2, w * z2)
        // Column-major 3×3 rotation matrix (gl-matrix mat3.fromQuat).
        let m0 = 1 - yy - zz
        let m1 = yx + wz
        let m2 = zx - wy
        let m3 = yx - wz
        let m4 = 1 - xx - zz
        let m5 = zy + wx
        let m8 = 1 - xx - yy
        let degrees = 180 / Double.pi
        let level = (m5 * m5 + m8 * m8).squareRoot()
        let tilt = 90 - atan2(m2, level) * degrees
        if level < 0.001 {
            return (roll, tilt, -atan2(m3, m4) * degrees - roll)
        }
        let r = m5 == 0 && m8 == 0 ? 0 : atan2(m5, m8) * degrees
        let bearing = m1 == 0 && m0 == 0 ? 0 : atan2(m1, m0) * degrees
        return (r, tilt, bearing)
    }

    /// Writes the roll, tilt and bearing a fraction `p` of the way from
    /// `from`'s orientation to `to`'s into `camera` (`to`'s exactly at 1).
    static func turn(from: Camera, to: Camera, p: Double, into camera: inout Camera) {
        guard p < 1 else {
            (camera.roll, camera.tilt, camera.bearing) = (to.roll, to.tilt, to.bearing)
            return
        }
        let a = Orientation(roll: from.roll, tilt: from.tilt, bearing: from.bearing)
        let b = Orientation(roll: to.roll, tilt: to.tilt, bearing: to.bearing)
        let angles = slerp(a, b, p).angles(roll: from.roll + shortestTurn(from: from.roll, to: to.roll) * p)
        camera.roll = normalizeRoll(angles.roll)
        camera.tilt = max(0, angles.tilt)  // MapLibre clamps at its minPitch
        camera.bearing = normalizeBearing(angles.bearing)
    }
}
