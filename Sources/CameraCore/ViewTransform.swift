import Foundation

/// Geo ↔ view conversion for one camera seen in one viewport, with MapLibre
/// GL JS's perspective: vertical field of view `2·atan(1/3)` (≈ 36.87°), the
/// eye at `1.5 × viewport height` pixels from the target, pitched by `tilt`,
/// rotated by `bearing`, with the principal point at the camera's anchor.
///
/// A value built per (camera, viewport); it precomputes the trigonometry, so
/// build one and convert many points.
public struct ViewTransform: Sendable {
    /// MapLibre's vertical field of view in radians.
    public static let fieldOfView: Double = 2 * atan(1.0 / 3.0)
    /// Fraction of the way to the horizon at which visible-area corners are
    /// clamped when the view shows sky (MapLibre `getBounds` uses 0.85).
    public static let horizonClampFraction: Double = 0.85

    public let camera: Camera
    public let viewport: Viewport
    /// Eye-to-target distance in pixels.
    public let cameraDistance: Double
    /// Target position in world pixels at the camera's zoom (longitude continuous).
    public let centerX: Double
    public let centerY: Double
    /// The principal point: where the target is drawn, in view pixels.
    public let principalX: Double
    public let principalY: Double
    private let sinTilt: Double, cosTilt: Double
    private let sinBearing: Double, cosBearing: Double

    public init(camera: Camera, viewport: Viewport) {
        self.camera = camera
        self.viewport = viewport
        cameraDistance = viewport.height / 2 / tan(Self.fieldOfView / 2)
        let world = WebMercator.project(camera.target, zoom: camera.zoom)
        centerX = world.x
        centerY = world.y
        principalX = camera.anchor.x * viewport.width
        principalY = camera.anchor.y * viewport.height
        let tilt = camera.tilt * .pi / 180, bearing = camera.bearing * .pi / 180
        sinTilt = sin(tilt); cosTilt = cos(tilt)
        sinBearing = sin(bearing); cosBearing = cos(bearing)
    }

    /// The view point of `geo` (its longitude copy nearest the camera target,
    /// its latitude clamped to the Mercator square as MapLibre's `project`
    /// does), or nil when it lies behind the eye.
    public func geoToView(_ geo: GeoCoordinate) -> ViewPoint? {
        let lon = nearestLongitude(geo.longitude, to: camera.continuousLongitude)
        let lat = min(max(geo.latitude, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        let world = WebMercator.project(GeoCoordinate(latitude: lat, longitude: lon), zoom: camera.zoom)
        return worldOffsetToView(dx: world.x - centerX, dy: world.y - centerY)
    }

    /// The geo point under `point` (longitude wrapped to [-180, 180)), or nil
    /// when the point is at or above the horizon.
    public func viewToGeo(_ point: ViewPoint) -> GeoCoordinate? {
        guard let offset = viewToWorldOffset(point) else { return nil }
        var geo = WebMercator.unproject(x: centerX + offset.dx, y: centerY + offset.dy, zoom: camera.zoom)
        geo.longitude = wrapLongitude(geo.longitude)
        return geo
    }

    /// Ground offset from the target in world pixels (x east, y south) → view point.
    public func worldOffsetToView(dx: Double, dy: Double) -> ViewPoint? {
        // Rotate into view orientation (screen up = bearing direction).
        let rx = dx * cosBearing + dy * sinBearing
        let ry = -dx * sinBearing + dy * cosBearing
        let depth = cameraDistance - ry * sinTilt
        guard depth > cameraDistance * 1e-9 else { return nil }
        let scale = cameraDistance / depth
        return ViewPoint(x: principalX + rx * scale, y: principalY + ry * cosTilt * scale)
    }

    /// View point → ground offset from the target in world pixels, or nil at or above the horizon.
    public func viewToWorldOffset(_ point: ViewPoint) -> (dx: Double, dy: Double)? {
        let nx = (point.x - principalX) / cameraDistance
        let ny = (point.y - principalY) / cameraDistance
        let denominator = cosTilt + ny * sinTilt
        guard denominator > 1e-9 else { return nil }
        let rx = cameraDistance * nx * cosTilt / denominator
        let ry = cameraDistance * ny / denominator
        return (rx * cosBearing - ry * sinBearing, rx * sinBearing + ry * cosBearing)
    }

    /// View y of the horizon, or nil when looking straight down.
    public var horizonY: Double? {
        guard sinTilt > 1e-12 else { return nil }
        return principalY - cameraDistance * cosTilt / sinTilt
    }

    /// This transform's camera moved (same zoom, tilt, bearing, anchor) so that
    /// `geo` is drawn at `point`; nil when `point` is at or above the horizon.
    /// The returned camera is not clamped to any limits.
    public func camera(placing geo: GeoCoordinate, at point: ViewPoint) -> Camera? {
        guard let offset = viewToWorldOffset(point) else { return nil }
        let lon = nearestLongitude(geo.longitude, to: camera.continuousLongitude)
        let world = WebMercator.project(GeoCoordinate(latitude: geo.latitude, longitude: lon), zoom: camera.zoom)
        let target = WebMercator.unproject(x: world.x - offset.dx, y: world.y - offset.dy, zoom: camera.zoom)
        var moved = camera
        moved.latitude = target.latitude
        moved.continuousLongitude = target.longitude
        return moved
    }
}
