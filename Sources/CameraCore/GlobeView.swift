import Foundation

/// Geo ↔ view conversion for one camera seen on the globe, as MapLibre GL JS 5
/// draws it below zoom 12 (its vertical perspective transform; from zoom 12 on
/// MapLibre's globe is drawn flat, see `isGlobe(zoom:)`): the world is a sphere
/// of radius `worldSize / (2π) / cos(latitude of the centre)` pixels, so the
/// centre keeps the scale it has on the flat map; the eye is `(height / 2) /
/// tan(fov / 2)` pixels from the centre, pitched by `tilt`, turned by `bearing`
/// and rolled by `roll`; the principal point is the padded centre, as on the flat map.
///
/// The camera's target is the centre of the view (the point under the
/// principal point): its anchor is not applied on the globe. The centre's
/// elevation does not change the globe's picture (MapLibre draws the globe at
/// sea level). Coordinates: the unit sphere with y through the north pole and
/// z through (0° N, 0° E).
public struct GlobeView: Sendable {
    /// Below this zoom MapLibre's globe projection draws a globe; from it on, flat Web Mercator.
    public static let flatFromZoom: Double = 12

    /// True when a room on the globe projection is drawn as a globe at `zoom`.
    public static func isGlobe(zoom: Double) -> Bool { zoom < flatFromZoom }

    public let camera: Camera
    public let viewport: Viewport
    /// The globe's radius in view pixels.
    public let radius: Double
    /// Eye-to-centre distance in pixels.
    public let cameraDistance: Double
    public let principalX: Double
    public let principalY: Double
    /// The eye on the unit sphere's frame (outside the sphere).
    let eye: Vector3
    /// Unit-sphere frame → view frame rotation (x right, y up, z toward the eye).
    private let toView: Matrix3

    public init(camera: Camera, viewport: Viewport) {
        self.camera = camera
        self.viewport = viewport
        let lat = camera.latitude * .pi / 180
        let lon = camera.continuousLongitude * .pi / 180
        radius = WebMercator.worldSize(zoom: camera.zoom) / (2 * .pi) / cos(lat)
        cameraDistance = viewport.height / 2 / tan(camera.fov * .pi / 360)
        let padding = camera.padding
        principalX = min(max((padding.left + viewport.width - padding.right) / 2, 0), viewport.width)
        principalY = min(max((padding.top + viewport.height - padding.bottom) / 2, 0), viewport.height)
        // MapLibre: Rz(roll) · Rx(−pitch) · Rz(bearing) after the centre is turned to +z by Rx(lat) · Ry(−lon).
        let view =
            Matrix3.rotationZ(camera.roll * .pi / 180) * .rotationX(-camera.tilt * .pi / 180)
            * .rotationZ(camera.bearing * .pi / 180)
        let centre = Matrix3.rotationX(lat) * .rotationY(-lon)
        toView = view * centre
        let eyeAboveCentre = view.transposed * Vector3(0, 0, cameraDistance / radius) + Vector3(0, 0, 1)
        eye = centre.transposed * eyeAboveCentre
    }

    static func unitVector(_ geo: GeoCoordinate) -> Vector3 {
        let lat = geo.latitude * .pi / 180
        let lon = geo.longitude * .pi / 180
        return Vector3(sin(lon) * cos(lat), sin(lat), cos(lon) * cos(lat))
    }

    static func geo(_ v: Vector3) -> GeoCoordinate {
        GeoCoordinate(latitude: asin(min(max(v.y, -1), 1)) * 180 / .pi, longitude: atan2(v.x, v.z) * 180 / .pi)
    }

    /// True when the globe itself hides the point: beyond the circle where lines from the eye touch it.
    func isOccluded(_ unit: Vector3) -> Bool { unit.dot(eye) < 1 }

    /// The view frame of a point on (or above) the unit sphere.
    private func viewFrame(_ unit: Vector3) -> Vector3 {
        toView * (unit * radius - eye * radius)
    }

    /// The view point of `geo` on the globe, or nil when the globe hides it
    /// (it is on the far side) or it lies behind the eye.
    public func geoToView(_ geo: GeoCoordinate) -> ViewPoint? {
        let unit = Self.unitVector(geo)
        guard !isOccluded(unit) else { return nil }
        return drawn(unit)
    }

    /// Where the unit-sphere point is drawn, occluded or not; nil behind the eye.
    private func drawn(_ unit: Vector3) -> ViewPoint? {
        let v = viewFrame(unit)
        let depth = -v.z
        guard depth > cameraDistance * 1e-9 else { return nil }
        return ViewPoint(x: principalX + cameraDistance * v.x / depth, y: principalY - cameraDistance * v.y / depth)
    }

    /// The direction of the line of sight through `point`, unit-sphere frame (normalised).
    private func ray(_ point: ViewPoint) -> Vector3 {
        let inView = Vector3((point.x - principalX) / cameraDistance, -(point.y - principalY) / cameraDistance, -1)
        return (toView.transposed * inView).normalized
    }

    /// The point on the globe under `point` (where its line of sight first meets
    /// the sphere), or nil when the line misses the globe (space) or meets it
    /// only behind the eye.
    public func viewToGeo(_ point: ViewPoint) -> GeoCoordinate? {
        guard let t = sphereHit(ray(point)), t > 0 else { return nil }
        return Self.geo((eye + ray(point) * t).normalized)
    }

    /// The nearer parameter at which the line `eye + t·u` meets the unit sphere
    /// (negative: behind the eye), or nil when it misses it (Ray Tracing Gems, ch. 7, as MapLibre).
    private func sphereHit(_ u: Vector3) -> Double? {
        let b = eye.dot(u)
        let inner = eye - u * b
        let discriminant = 1 - inner.dot(inner)
        guard discriminant >= 0 else { return nil }
        let c = eye.dot(eye) - 1
        let q = -b + (b < 0 ? 1 : -1) * discriminant.squareRoot()
        return min(c / q, q)
    }

    /// The point MapLibre 5 takes under `point` for the visible region
    /// (`unprojectScreenPoint`): where the line of sight meets the sphere
    /// (even behind the eye, as MapLibre does), or off the globe a point of
    /// the limb (the line met with the plane of the limb, or for lines that
    /// never meet it ahead a point two radii along moved toward that plane,
    /// then put on the sphere).
    func pointOrLimb(_ point: ViewPoint) -> GeoCoordinate {
        let u = ray(point)
        if let t = sphereHit(u) { return Self.geo((eye + u * t).normalized) }
        // MapLibre's limb plane, scaled by 0.25 as it keeps it: n · p + w ≥ 0 is the visible cap.
        let n = eye.normalized * 0.25
        let w = -0.25 / eye.length
        let t = -(n.dot(eye) + w) / n.dot(u)
        let onPlane: Vector3
        if t > 0 {
            onPlane = eye + u * t
        } else {
            let far = eye + u * 2
            onPlane = far - n * (n.dot(far) + w)
        }
        return Self.geo(onPlane.normalized)
    }

    /// True when a pole's point is in view: not hidden and inside the view (MapLibre's `isSurfacePointOnScreen`).
    private func showsPole(_ unit: Vector3) -> Bool {
        guard !isOccluded(unit), let p = drawn(unit) else { return false }
        return p.x > 0 && p.x < viewport.width && p.y > 0 && p.y < viewport.height
    }

    /// What the view shows of the globe, as MapLibre's `getBounds` finds it:
    /// the points under the four corners and the middles of the edges (off the
    /// globe, points of the limb), their widest extents around the centre, and
    /// every longitude when a pole is in view. The quad is the corners' points.
    public var visibleRegion: VisibleRegion {
        let w = viewport.width
        let h = viewport.height
        let corners = [ViewPoint(x: 0, y: 0), ViewPoint(x: w, y: 0), ViewPoint(x: w, y: h), ViewPoint(x: 0, y: h)]
        let middles = [ViewPoint(x: w / 2, y: 0), ViewPoint(x: w, y: h / 2), ViewPoint(x: w / 2, y: h), ViewPoint(x: 0, y: h / 2)]
        let quad = corners.map(pointOrLimb)
        let centreLon = wrapLongitude(camera.continuousLongitude)
        var west = 0.0
        var east = 0.0
        var south = 0.0
        var north = 0.0
        for p in quad + middles.map(pointOrLimb) {
            let dLon = wrapLongitude(p.longitude - centreLon)
            let dLat = wrapLongitude(p.latitude - camera.latitude)
            west = min(west, dLon)
            east = max(east, dLon)
            south = min(south, dLat)
            north = max(north, dLat)
        }
        var bounds = GeoBounds(
            south: camera.latitude + south, west: wrapLongitude(centreLon + west),
            north: camera.latitude + north, east: wrapLongitude(centreLon + east))
        if east - west >= 360 { (bounds.west, bounds.east) = (-180, 180) }
        if showsPole(Vector3(0, 1, 0)) { (bounds.north, bounds.west, bounds.east) = (90, -180, 180) }
        if showsPole(Vector3(0, -1, 0)) { (bounds.south, bounds.west, bounds.east) = (-90, -180, 180) }
        return VisibleRegion(quad: quad.map { nearLongitude($0) }, bounds: bounds)
    }

    /// `geo` with its longitude moved to the copy nearest the camera's (the quad's longitudes are continuous).
    private func nearLongitude(_ geo: GeoCoordinate) -> GeoCoordinate {
        GeoCoordinate(latitude: geo.latitude, longitude: nearestLongitude(geo.longitude, to: camera.continuousLongitude))
    }
}

/// A vector in three dimensions, for the globe's geometry.
struct Vector3: Sendable, Equatable {
    var x: Double, y: Double, z: Double
    init(_ x: Double, _ y: Double, _ z: Double) { (self.x, self.y, self.z) = (x, y, z) }
    func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }
    var length: Double { dot(self).squareRoot() }
    var normalized: Vector3 { self * (1 / length) }
    static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
}

/// A 3×3 matrix (rows), for rotations; `rotationX/Y/Z` are gl-matrix's (right-handed, counter-clockwise).
struct Matrix3: Sendable {
    var r0: Vector3, r1: Vector3, r2: Vector3

    static func rotationX(_ a: Double) -> Matrix3 {
        Matrix3(r0: Vector3(1, 0, 0), r1: Vector3(0, cos(a), -sin(a)), r2: Vector3(0, sin(a), cos(a)))
    }
    static func rotationY(_ a: Double) -> Matrix3 {
        Matrix3(r0: Vector3(cos(a), 0, sin(a)), r1: Vector3(0, 1, 0), r2: Vector3(-sin(a), 0, cos(a)))
    }
    static func rotationZ(_ a: Double) -> Matrix3 {
        Matrix3(r0: Vector3(cos(a), -sin(a), 0), r1: Vector3(sin(a), cos(a), 0), r2: Vector3(0, 0, 1))
    }
    var transposed: Matrix3 {
        Matrix3(r0: Vector3(r0.x, r1.x, r2.x), r1: Vector3(r0.y, r1.y, r2.y), r2: Vector3(r0.z, r1.z, r2.z))
    }
    static func * (m: Matrix3, v: Vector3) -> Vector3 { Vector3(m.r0.dot(v), m.r1.dot(v), m.r2.dot(v)) }
    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(
            r0: Vector3(a.r0.dot(t.r0), a.r0.dot(t.r1), a.r0.dot(t.r2)),
            r1: Vector3(a.r1.dot(t.r0), a.r1.dot(t.r1), a.r1.dot(t.r2)),
            r2: Vector3(a.r2.dot(t.r0), a.r2.dot(t.r1), a.r2.dot(t.r2)))
    }
}
