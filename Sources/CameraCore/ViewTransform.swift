import Foundation

/// Geo ↔ view conversion for one camera seen in one viewport, with MapLibre
/// GL JS's perspective: vertical field of view `2·atan(1/3)` (≈ 36.87°), the
/// eye at `1.5 × viewport height` pixels from the ground point at the
/// principal point, pitched by `tilt`, rotated by `bearing`. The principal
/// point is the centre of the viewport less the camera's padding, clamped
/// into the viewport (MapLibre's padding: `EdgeInsets.getCenter`).
///
/// The camera's target is drawn at its anchor (HERE CameraLite's target
/// anchor point), which does not move the perspective: the principal point
/// stays at the centre of the padded view, and the ground point under it (MapLibre's
/// `center`) is wherever puts the target at the anchor. So changing the anchor
/// together with the target under it changes nothing on screen, and rotating
/// or tilting with the target fixed turns the map around the anchor.
///
/// A value built per (camera, viewport); it precomputes the trigonometry, so
/// build one and convert many points.
public struct ViewTransform: Sendable {
    /// MapLibre's vertical field of view in radians.
    public static let fieldOfView: Double = 2 * atan(1.0 / 3.0)
    /// Fraction of the way to the horizon at which visible-area corners are
    /// clamped when the view shows sky (MapLibre `getBounds` uses 0.85). An
    /// anchor above this line is drawn on it (the target cannot be in the sky).
    public static let horizonClampFraction: Double = 0.85

    public let camera: Camera
    public let viewport: Viewport
    /// Eye-to-centre distance in pixels.
    public let cameraDistance: Double
    /// The ground point at the principal point in world pixels at the camera's
    /// zoom (longitude continuous): the target itself when the anchor is at the
    /// principal point.
    public let centerX: Double
    public let centerY: Double
    /// The principal point (centre of perspective), in view pixels.
    public let principalX: Double
    public let principalY: Double
    /// Where the target is drawn, in view pixels (the anchor, kept below the horizon).
    public let anchorPoint: ViewPoint
    /// Ground offset from the centre to the target, world pixels.
    private let targetOffset: (dx: Double, dy: Double)
    private let sinTilt: Double, cosTilt: Double
    private let sinBearing: Double, cosBearing: Double

    public init(camera: Camera, viewport: Viewport) {
        self.camera = camera
        self.viewport = viewport
        cameraDistance = viewport.height / 2 / tan(Self.fieldOfView / 2)
        let padding = camera.padding
        principalX = min(max((padding.left + viewport.width - padding.right) / 2, 0), viewport.width)
        principalY = min(max((padding.top + viewport.height - padding.bottom) / 2, 0), viewport.height)
        let paddedWidth = max(0, viewport.width - padding.left - padding.right)
        let paddedHeight = max(0, viewport.height - padding.top - padding.bottom)
        let tilt = camera.tilt * .pi / 180
        let bearing = camera.bearing * .pi / 180
        sinTilt = sin(tilt)
        cosTilt = cos(tilt)
        sinBearing = sin(bearing)
        cosBearing = cos(bearing)
        // The anchor is a fraction of the padded area (with no padding, of the viewport).
        var anchor = ViewPoint(
            x: principalX + (camera.anchor.x - 0.5) * paddedWidth,
            y: principalY + (camera.anchor.y - 0.5) * paddedHeight)
        if sinTilt > 1e-12 {
            let highest = principalY - cameraDistance * cosTilt / sinTilt * Self.horizonClampFraction
            anchor.y = max(anchor.y, highest)
        }
        anchorPoint = anchor
        targetOffset =
            Self.groundOffset(
                anchor, principalX: principalX, principalY: principalY, distance: cameraDistance,
                sinTilt: sinTilt, cosTilt: cosTilt, sinBearing: sinBearing, cosBearing: cosBearing)
            ?? (0, 0)
        let world = WebMercator.project(camera.target, zoom: camera.zoom)
        centerX = world.x - targetOffset.dx
        centerY = world.y - targetOffset.dy
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

    /// View point → ground offset from the centre (the ground point at the
    /// principal point) in world pixels, or nil at or above the horizon.
    public func viewToWorldOffset(_ point: ViewPoint) -> (dx: Double, dy: Double)? {
        Self.groundOffset(
            point, principalX: principalX, principalY: principalY, distance: cameraDistance,
            sinTilt: sinTilt, cosTilt: cosTilt, sinBearing: sinBearing, cosBearing: cosBearing)
    }

    private static func groundOffset(
        _ point: ViewPoint, principalX: Double, principalY: Double, distance: Double,
        sinTilt: Double, cosTilt: Double, sinBearing: Double, cosBearing: Double
    ) -> (dx: Double, dy: Double)? {
        let nx = (point.x - principalX) / distance
        let ny = (point.y - principalY) / distance
        let denominator = cosTilt + ny * sinTilt
        guard denominator > 1e-9 else { return nil }
        let rx = distance * nx * cosTilt / denominator
        let ry = distance * ny / denominator
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
        // The new centre puts `geo` at `point`; the target keeps its offset from the centre.
        let target = WebMercator.unproject(
            x: world.x - offset.dx + targetOffset.dx, y: world.y - offset.dy + targetOffset.dy,
            zoom: camera.zoom)
        var moved = camera
        moved.latitude = target.latitude
        moved.continuousLongitude = target.longitude
        return moved
    }
}

extension Camera {
    /// This camera with its target anchor moved to `anchor` and its target
    /// moved to the geo point under the new anchor in `viewport`, so that
    /// nothing moves on screen (HERE CameraLite: "Setting a new anchor point
    /// for the target has no visible effect on the map"). The target stays put
    /// when the new anchor point is at or above the horizon. Not clamped.
    public func reanchored(to anchor: Anchor, in viewport: Viewport) -> Camera {
        var moved = self
        moved.anchor = Anchor(x: min(max(anchor.x, 0), 1), y: min(max(anchor.y, 0), 1))
        let before = ViewTransform(camera: self, viewport: viewport)
        let after = ViewTransform(camera: moved, viewport: viewport)
        guard let geo = before.viewToGeo(after.anchorPoint) else { return self }
        moved.latitude = geo.latitude
        moved.continuousLongitude = nearestLongitude(geo.longitude, to: continuousLongitude)
        return moved
    }
}

extension CameraUpdate {
    /// This update with the target under its new anchor filled in (see
    /// `Camera.reanchored`) when it moves the anchor without naming a target;
    /// otherwise unchanged. Applied to `camera`, the rest of the update then
    /// turns and tilts around the anchor.
    public func reanchoring(_ camera: Camera, in viewport: Viewport) -> CameraUpdate {
        guard let anchor, latitude == nil, longitude == nil, anchor.x.isFinite, anchor.y.isFinite else { return self }
        let moved = camera.reanchored(to: anchor, in: viewport)
        var out = self
        out.latitude = moved.latitude
        out.longitude = moved.continuousLongitude
        return out
    }

    /// True when it moves the anchor without naming a target (the target then follows the anchor).
    public var movesAnchorOnly: Bool { anchor != nil && latitude == nil && longitude == nil }
}
