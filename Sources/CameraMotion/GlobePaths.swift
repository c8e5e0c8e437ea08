import CameraCore
import Foundation

/// How MapLibre GL JS 5 moves the camera over the globe (its globe camera
/// helper, used while the map is drawn as a globe: below zoom 12). The globe's
/// radius in pixels is worldSize / (2π cos(latitude)), so one zoom shows a
/// smaller globe near the equator than near a pole; animations therefore
/// interpolate a *normalized* zoom (the zoom the same globe size would have at
/// the equator) and move the centre at the rate the globe turns.
enum GlobePaths {
    /// The zoom change that keeps the globe's apparent size when the centre
    /// moves from `fromLatitude` to `toLatitude` (degrees): log2(cos φ1 / cos φ0).
    static func zoomAdjustment(fromLatitude: Double, toLatitude: Double) -> Double {
        log2(cos(toLatitude * .pi / 180) / cos(fromLatitude * .pi / 180))
    }

    /// The zoom at the equator that draws the globe as large as `zoom` at `latitude`.
    static func normalizedZoom(_ zoom: Double, latitude: Double) -> Double {
        zoom + zoomAdjustment(fromLatitude: latitude, toLatitude: 0)
    }

    /// The centre a fraction `t` of the way from `start` by (`deltaLatitude`,
    /// `deltaLongitude`) degrees, as MapLibre's `interpolateLngLatForGlobe`:
    /// latitude linear; longitude at the rate 1 / cos(latitude), so the globe
    /// appears to turn at a steady speed (for latitude changes above 1°).
    /// Returns (latitude, continuous longitude).
    static func center(from start: Camera, deltaLatitude: Double, deltaLongitude: Double, t: Double) -> (Double, Double) {
        let latitude = start.latitude + deltaLatitude * t
        guard abs(deltaLatitude) > 1 else { return (latitude, start.continuousLongitude + deltaLongitude * t) }
        let end = start.latitude + deltaLatitude
        let otherHemisphere = sign(end) != sign(start.latitude)
        let a = (otherHemisphere ? -abs(start.latitude) : abs(start.latitude)) * .pi / 180
        let b = abs(end) * .pi / 180
        let curveT = integratedSecant(a + t * (b - a))
        let curveA = integratedSecant(a)
        let fraction = (curveT - curveA) / (integratedSecant(b) - curveA)
        return (latitude, start.continuousLongitude + deltaLongitude * fraction)
    }

    /// ∫ sec x dx = ln((sin(x/2) + cos(x/2)) / (cos(x/2) − sin(x/2))).
    private static func integratedSecant(_ x: Double) -> Double {
        let (s, c) = (sin(x / 2), cos(x / 2))
        return log(s + c) - log(c - s)
    }

    private static func sign(_ x: Double) -> Int { x > 0 ? 1 : x < 0 ? -1 : 0 }

    /// Signed difference `to − from` in degrees within [−180, 180) (MapLibre's
    /// `differenceOfAnglesDegrees`). Not `shortestTurn`, whose (−180, 180] goes
    /// the other way round for places exactly half the world apart.
    static func angleDifference(from: Double, to: Double) -> Double {
        let d = (to - from + 180).truncatingRemainder(dividingBy: 360)
        return (d < 0 ? d + 360 : d) - 180
    }

    /// Pixels along the globe's surface between two centres at `zoom`, with the
    /// globe drawn for the start's latitude (MapLibre's `globeDistanceOfLocationsPixels`).
    static func surfaceDistance(from: Camera, to: Camera, zoom: Double) -> Double {
        func unit(_ c: Camera) -> (Double, Double, Double) {
            let (lat, lon) = (c.latitude * .pi / 180, c.longitude * .pi / 180)
            return (sin(lon) * cos(lat), sin(lat), cos(lon) * cos(lat))
        }
        let (u, v) = (unit(from), unit(to))
        let angle = acos(min(max(u.0 * v.0 + u.1 * v.1 + u.2 * v.2, -1), 1))
        return angle * WebMercator.worldSize(zoom: zoom) / (2 * .pi * cos(from.latitude * .pi / 180))
    }
}

/// MapLibre's globe `easeTo`: the normalized zoom linear; the centre along
/// `GlobePaths.center` at `p · base^(1−p)` of the way (as on the flat map,
/// with the scale measured in normalized zoom); the orientation as `MotionPlan.ease`.
struct GlobeEase: Hashable, Sendable {
    let from: Camera
    let to: Camera
    /// Turn roll, tilt and bearing together (the roll changes; see `Orientation`).
    let slerp: Bool
    let fromZoom: Double
    let toZoom: Double
    let deltaLatitude: Double
    let deltaLongitude: Double

    init(from: Camera, to: Camera, slerp: Bool) {
        self.from = from
        self.to = to
        self.slerp = slerp
        fromZoom = GlobePaths.normalizedZoom(from.zoom, latitude: from.latitude)
        toZoom = GlobePaths.normalizedZoom(to.zoom, latitude: to.latitude)
        deltaLatitude = GlobePaths.angleDifference(from: from.latitude, to: to.latitude)
        deltaLongitude = GlobePaths.angleDifference(from: from.continuousLongitude, to: to.continuousLongitude)
    }

    func write(_ held: CameraProperties, progress p: Double, into camera: inout Camera) {
        MotionPlan.interpolate(held.subtracting([.center, .zoom]), from: from, to: to, p: p, slerp: slerp, into: &camera)
        if held.contains(.center) {
            if p >= 1 {
                camera.target = to.target
            } else {
                let scale = exp2(toZoom - fromZoom)
                let base = toZoom > fromZoom ? min(2, scale) : max(0.5, scale)
                (camera.latitude, camera.continuousLongitude) = GlobePaths.center(
                    from: from, deltaLatitude: deltaLatitude, deltaLongitude: deltaLongitude, t: p * pow(base, 1 - p))
            }
        }
        if held.contains(.zoom) && to.zoom != from.zoom {
            camera.zoom =
                p >= 1
                ? to.zoom
                : fromZoom + (toZoom - fromZoom) * p
                    + GlobePaths.zoomAdjustment(fromLatitude: 0, toLatitude: camera.latitude)
        }
    }
}

/// MapLibre's globe `flyTo`: van Wijk & Nuij's path in normalized zoom, the
/// distance measured along the globe's surface, the centre along
/// `GlobePaths.center`; bearing, tilt, roll and the rest linear.
struct GlobeFlight: Hashable, Sendable {
    let path: FlightPath
    let from: Camera
    let to: Camera
    let fromZoom: Double
    let deltaLatitude: Double
    let deltaLongitude: Double

    /// nil when neither centre nor zoom changes (MapLibre then eases).
    init?(from: Camera, to: Camera, viewport: Viewport, rho: Double, minZoom: Double?) {
        let fromZoom = GlobePaths.normalizedZoom(from.zoom, latitude: from.latitude)
        let toZoom = GlobePaths.normalizedZoom(to.zoom, latitude: to.latitude)
        guard
            let path = FlightPath(
                startZoom: fromZoom, endZoom: toZoom, distance: GlobePaths.surfaceDistance(from: from, to: to, zoom: from.zoom),
                viewport: viewport, rho: rho, minZoom: minZoom.map { GlobePaths.normalizedZoom($0, latitude: to.latitude) })
        else { return nil }
        self.path = path
        self.from = from
        self.to = to
        self.fromZoom = fromZoom
        deltaLatitude = GlobePaths.angleDifference(from: from.latitude, to: to.latitude)
        deltaLongitude = GlobePaths.angleDifference(from: from.continuousLongitude, to: to.continuousLongitude)
    }

    func write(_ held: CameraProperties, progress p: Double, into camera: inout Camera) {
        MotionPlan.interpolate(held.subtracting([.center, .zoom]), from: from, to: to, p: p, into: &camera)
        guard held.contains(.center) else { return }
        if p >= 1 {
            camera.target = to.target
            camera.zoom = to.zoom
            return
        }
        let s = p * path.length
        (camera.latitude, camera.continuousLongitude) = GlobePaths.center(
            from: from, deltaLatitude: deltaLatitude, deltaLongitude: deltaLongitude, t: path.travelled(s))
        camera.zoom = fromZoom + log2(1 / path.width(s)) + GlobePaths.zoomAdjustment(fromLatitude: 0, toLatitude: camera.latitude)
    }
}
