import CameraCore
import Foundation

/// How a running animation's camera values depend on progress. Planned once,
/// when the animation starts, from the camera at that instant; evaluating it
/// is a pure function of progress, so the result never depends on tick rate.
enum MotionPlan: Hashable, Sendable {
    /// Straight interpolation of each property (center in Mercator space,
    /// bearing and roll the short way round); with `slerp`, roll, tilt and
    /// bearing turn together (MapLibre's `easeTo` when the roll changes; see `Orientation`).
    case ease(from: Camera, to: Camera, slerp: Bool = false)
    /// Zoom/bearing/tilt interpolated while the geo point under `point` stays there.
    case around(from: Camera, to: Camera, geo: GeoCoordinate, point: ViewPoint, viewport: Viewport)
    /// A van Wijk & Nuij flight for center+zoom; bearing, tilt, roll, elevation, fov, anchor eased.
    case fly(path: FlightPath, from: Camera, to: Camera)
    /// MapLibre's `easeTo` on the globe.
    case globeEase(GlobeEase)
    /// MapLibre's `flyTo` on the globe.
    case globeFly(GlobeFlight)

    /// The camera `to` as planned (final values, written exactly at the end).
    var destination: Camera {
        switch self {
        case .ease(_, let to, _), .around(_, let to, _, _, _), .fly(_, _, let to): to
        case .globeEase(let plan): plan.to
        case .globeFly(let plan): plan.to
        }
    }

    /// Writes the `held` properties at progress `p` (0…1, already eased) into `camera`.
    func write(_ held: CameraProperties, progress p: Double, into camera: inout Camera) {
        switch self {
        case .ease(let from, let to, let slerp):
            Self.interpolate(held, from: from, to: to, p: p, slerp: slerp, into: &camera)
        case .globeEase(let plan):
            plan.write(held, progress: p, into: &camera)
        case .globeFly(let plan):
            plan.write(held, progress: p, into: &camera)
        case .around(let from, let to, let geo, let point, let viewport):
            Self.interpolate(held.subtracting(.center), from: from, to: to, p: p, into: &camera)
            if held.contains(.center) {
                if p >= 1 {
                    camera.target = to.target
                } else if let moved = ViewTransform(camera: camera, viewport: viewport).camera(placing: geo, at: point) {
                    camera.target = moved.target
                }
            }
        case .fly(let path, let from, let to):
            Self.interpolate(held.subtracting([.center, .zoom]), from: from, to: to, p: p, into: &camera)
            guard held.contains(.center) else { return }
            if p >= 1 {
                camera.target = to.target
                camera.zoom = to.zoom
                return
            }
            let s = p * path.length
            camera.zoom = from.zoom + log2(1 / path.width(s))
            let k = path.travelled(s)
            let x0 = WebMercator.unitX(longitude: from.continuousLongitude)
            let x1 = WebMercator.unitX(longitude: to.continuousLongitude)
            let y0 = WebMercator.unitY(latitude: from.latitude)
            let y1 = WebMercator.unitY(latitude: to.latitude)
            camera.continuousLongitude = WebMercator.longitude(unitX: x0 + (x1 - x0) * k)
            camera.latitude = WebMercator.latitude(unitY: y0 + (y1 - y0) * k)
        }
    }

    /// Property-wise interpolation; `to`'s longitude is already the copy nearest
    /// `from`'s. With `slerp`, when it holds all three, roll, tilt and bearing turn together.
    static func interpolate(
        _ held: CameraProperties, from: Camera, to: Camera, p: Double, slerp: Bool = false, into camera: inout Camera
    ) {
        var held = held
        let orientation: CameraProperties = [.roll, .tilt, .bearing]
        if slerp && held.isSuperset(of: orientation) {
            Orientation.turn(from: from, to: to, p: p, into: &camera)
            held.subtract(orientation)
        }
        if held.contains(.center) {
            if p >= 1 {
                camera.target = to.target
            } else {
                let k = centerProgress(p, fromZoom: from.zoom, toZoom: to.zoom)
                let x0 = WebMercator.unitX(longitude: from.continuousLongitude)
                let x1 = WebMercator.unitX(longitude: to.continuousLongitude)
                let y0 = WebMercator.unitY(latitude: from.latitude)
                let y1 = WebMercator.unitY(latitude: to.latitude)
                camera.continuousLongitude = WebMercator.longitude(unitX: x0 + (x1 - x0) * k)
                camera.latitude = WebMercator.latitude(unitY: y0 + (y1 - y0) * k)
            }
        }
        if held.contains(.zoom) { camera.zoom = p >= 1 ? to.zoom : from.zoom + (to.zoom - from.zoom) * p }
        if held.contains(.tilt) { camera.tilt = p >= 1 ? to.tilt : from.tilt + (to.tilt - from.tilt) * p }
        if held.contains(.bearing) {
            camera.bearing = p >= 1 ? to.bearing : normalizeBearing(from.bearing + shortestTurn(from: from.bearing, to: to.bearing) * p)
        }
        if held.contains(.roll) {
            camera.roll = p >= 1 ? to.roll : normalizeRoll(from.roll + shortestTurn(from: from.roll, to: to.roll) * p)
        }
        if held.contains(.elevation) { camera.elevation = p >= 1 ? to.elevation : from.elevation + (to.elevation - from.elevation) * p }
        if held.contains(.fov) { camera.fov = p >= 1 ? to.fov : from.fov + (to.fov - from.fov) * p }
        if held.contains(.padding) {
            let a = from.padding
            let b = to.padding
            camera.padding =
                p >= 1
                ? b
                : EdgeInsets(
                    top: a.top + (b.top - a.top) * p, left: a.left + (b.left - a.left) * p,
                    bottom: a.bottom + (b.bottom - a.bottom) * p, right: a.right + (b.right - a.right) * p)
        }
        if held.contains(.anchor) {
            camera.anchor =
                p >= 1
                ? to.anchor
                : Anchor(x: from.anchor.x + (to.anchor.x - from.anchor.x) * p, y: from.anchor.y + (to.anchor.y - from.anchor.y) * p)
        }
    }

    /// How far along its path an ease's center is at progress `p` when the zoom
    /// changes from `fromZoom` to `toZoom`, as MapLibre's `easeTo` moves it:
    /// `p · base^(1−p)` with `base` the final scale 2^(toZoom − fromZoom), kept
    /// within ½…2. Zooming in, most of the pan happens early, while the map is
    /// still zoomed out and the viewer keeps the context (71 % of the way at half
    /// time); zooming out, the zoom goes first and the pan follows. 0 at 0, 1 at
    /// 1, and plain `p` when the zoom does not change. Clients that know
    /// MapLibre's easeTo see the same path.
    static func centerProgress(_ p: Double, fromZoom: Double, toZoom: Double) -> Double {
        let finalScale = exp2(toZoom - fromZoom)
        let base = toZoom > fromZoom ? min(2, finalScale) : max(0.5, finalScale)
        return p * pow(base, 1 - p)
    }
}
