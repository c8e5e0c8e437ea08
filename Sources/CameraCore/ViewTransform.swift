import Foundation

/// Geo ↔ view conversion for one camera seen in one viewport, with MapLibre
/// GL JS 5's perspective as it draws the ground (its mercator transform's
/// `pixelMatrix3D`): vertical field of view `camera.fov`, the eye at
/// `(height / 2) / tan(fov / 2)` pixels from the centre point, pitched by
/// `tilt`, rotated by `bearing` and rolled by `roll` about the line of sight.
/// The centre point is `camera.elevation` metres above the ground, so the
/// ground (sea level; there is no terrain here) is drawn below it. The
/// principal point is the centre of the viewport less the camera's padding,
/// clamped into the viewport (MapLibre's padding: `EdgeInsets.getCenter`).
///
/// The camera's target is drawn at its anchor (HERE CameraLite's target
/// anchor point), which does not move the perspective: the principal point
/// stays at the centre of the padded view, and the point under it at the
/// target's altitude (MapLibre's `center`) is wherever puts the target at the
/// anchor. So changing the anchor together with the target under it changes
/// nothing on screen, and rotating or tilting with the target fixed turns the
/// map around the anchor.
///
/// Coordinates: world pixels at the camera's zoom (x east, y south) and, for
/// heights, world pixels up; the view frame has x right, y down and z toward
/// the eye, so a point is drawn at `principal + (x, y) · distance / (distance − z)`.
///
/// A value built per (camera, viewport); it precomputes the trigonometry, so
/// build one and convert many points.
public struct ViewTransform: Sendable {
    /// MapLibre's default vertical field of view in radians: `Camera.defaultFov`, the one source of it.
    public static let fieldOfView: Double = Camera.defaultFov * .pi / 180
    /// Fraction of the way to the horizon at which visible-area corners are
    /// clamped when the view shows sky (MapLibre `getBounds` uses 0.85). An
    /// anchor above this line is drawn on it (the target cannot be in the sky).
    public static let horizonClampFraction: Double = 0.85
    /// The Earth's radius MapLibre scales altitudes with, in metres.
    public static let earthRadius: Double = 6_371_008.8

    public let camera: Camera
    public let viewport: Viewport
    /// Eye-to-centre distance in pixels.
    public let cameraDistance: Double
    /// The point under the principal point at the target's altitude, in world
    /// pixels at the camera's zoom (longitude continuous): the target itself
    /// when the anchor is at the principal point.
    public let centerX: Double
    public let centerY: Double
    /// World pixels per metre of height at the centre's latitude (MapLibre's `pixelPerMeter`).
    public let pixelsPerMeter: Double
    /// The principal point (centre of perspective), in view pixels.
    public let principalX: Double
    public let principalY: Double
    /// Where the target is drawn, in view pixels (the anchor, kept below the horizon).
    public let anchorPoint: ViewPoint
    /// Offset from the centre to the target in its plane, world pixels.
    private let targetOffset: (dx: Double, dy: Double)
    /// World (relative to the centre) → view frame.
    private let rotation: Rotation3
    /// The roll alone, to level a view point (`unrolled`) and back.
    private let sinRoll: Double, cosRoll: Double
    private let sinTilt: Double, cosTilt: Double

    public init(camera: Camera, viewport: Viewport) {
        self.camera = camera
        self.viewport = viewport
        cameraDistance = viewport.height / 2 / tan(camera.fov * .pi / 360)
        let padding = camera.padding
        principalX = min(max((padding.left + viewport.width - padding.right) / 2, 0), viewport.width)
        principalY = min(max((padding.top + viewport.height - padding.bottom) / 2, 0), viewport.height)
        let paddedWidth = max(0, viewport.width - padding.left - padding.right)
        let paddedHeight = max(0, viewport.height - padding.top - padding.bottom)
        let tilt = camera.tilt * .pi / 180
        let roll = camera.roll * .pi / 180
        sinTilt = sin(tilt)
        cosTilt = cos(tilt)
        sinRoll = sin(roll)
        cosRoll = cos(roll)
        rotation = Rotation3(bearing: camera.bearing * .pi / 180, tilt: tilt, roll: roll)
        // The anchor is a fraction of the padded area (with no padding, of the viewport),
        // kept below the horizon in the level picture.
        var anchor = ViewPoint(
            x: principalX + (camera.anchor.x - 0.5) * paddedWidth,
            y: principalY + (camera.anchor.y - 0.5) * paddedHeight)
        if sinTilt > 1e-12 {
            var level = Self.level(anchor, principalX: principalX, principalY: principalY, sinRoll: sinRoll, cosRoll: cosRoll)
            let highest = principalY - cameraDistance * cosTilt / sinTilt * Self.horizonClampFraction
            if level.y < highest {
                level.y = highest
                anchor = Self.rolled(level, principalX: principalX, principalY: principalY, sinRoll: sinRoll, cosRoll: cosRoll)
            }
        }
        anchorPoint = anchor
        // The target's plane passes through the centre point, so its offset needs no scale of heights.
        targetOffset =
            Self.planeHit(
                anchor, height: 0, principalX: principalX, principalY: principalY, distance: cameraDistance, rotation: rotation)
            ?? (0, 0)
        let world = WebMercator.project(camera.target, zoom: camera.zoom)
        centerX = world.x - targetOffset.dx
        centerY = world.y - targetOffset.dy
        pixelsPerMeter = Self.pixelsPerMeter(atWorldY: centerY, zoom: camera.zoom)
    }

    /// World pixels per metre at the latitude of world y `y` at `zoom`: the
    /// world's width over the parallel's circumference (MapLibre's
    /// `mercatorZfromAltitude(1, lat) · worldSize`).
    static func pixelsPerMeter(atWorldY y: Double, zoom: Double) -> Double {
        let latitude = WebMercator.latitude(unitY: y / WebMercator.worldSize(zoom: zoom)) * .pi / 180
        return WebMercator.worldSize(zoom: zoom) / (2 * .pi * earthRadius * cos(latitude))
    }

    /// Height of the ground relative to the centre point, world pixels (negative: below).
    private var groundHeight: Double { -camera.elevation * pixelsPerMeter }

    /// The view point of `geo` on the ground (its longitude copy nearest the
    /// camera target, its latitude clamped to the Mercator square as MapLibre's
    /// `project` does), or nil when it lies behind the eye.
    public func geoToView(_ geo: GeoCoordinate) -> ViewPoint? {
        let lon = nearestLongitude(geo.longitude, to: camera.continuousLongitude)
        let lat = min(max(geo.latitude, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        let world = WebMercator.project(GeoCoordinate(latitude: lat, longitude: lon), zoom: camera.zoom)
        return worldOffsetToView(dx: world.x - centerX, dy: world.y - centerY)
    }

    /// The geo point on the ground under `point` (longitude wrapped to
    /// [-180, 180)), or nil when the point shows sky: at or above the horizon.
    public func viewToGeo(_ point: ViewPoint) -> GeoCoordinate? {
        guard let offset = viewToWorldOffset(point) else { return nil }
        var geo = WebMercator.unproject(x: centerX + offset.dx, y: centerY + offset.dy, zoom: camera.zoom)
        geo.longitude = wrapLongitude(geo.longitude)
        return geo
    }

    /// Ground offset from the centre in world pixels (x east, y south) → view point,
    /// or nil when it lies behind the eye.
    public func worldOffsetToView(dx: Double, dy: Double) -> ViewPoint? {
        let q = rotation.apply(dx, dy, groundHeight)
        let depth = cameraDistance - q.z
        guard depth > cameraDistance * 1e-9 else { return nil }
        let scale = cameraDistance / depth
        return ViewPoint(x: principalX + q.x * scale, y: principalY + q.y * scale)
    }

    /// View point → ground offset from the centre in world pixels, or nil at
    /// or above the horizon.
    public func viewToWorldOffset(_ point: ViewPoint) -> (dx: Double, dy: Double)? {
        Self.planeHit(
            point, height: groundHeight, principalX: principalX, principalY: principalY, distance: cameraDistance, rotation: rotation)
    }

    /// Where the line of sight through view point `point` meets the horizontal
    /// plane `height` world pixels above the centre point, as an offset from the
    /// centre in world pixels; nil when it meets it behind the eye or never.
    private static func planeHit(
        _ point: ViewPoint, height: Double, principalX: Double, principalY: Double, distance: Double, rotation: Rotation3
    ) -> (dx: Double, dy: Double)? {
        let eye = rotation.applyInverse(0, 0, distance)
        let ray = rotation.applyInverse(point.x - principalX, point.y - principalY, -distance)
        guard ray.z < -1e-9 * distance else { return nil }
        let t = (height - eye.z) / ray.z
        guard t > 0, t.isFinite else { return nil }
        return (eye.x + ray.x * t, eye.y + ray.y * t)
    }

    /// `point` turned back by the camera's roll about the principal point: where
    /// it would be in the level picture.
    public func unrolled(_ point: ViewPoint) -> ViewPoint {
        Self.level(point, principalX: principalX, principalY: principalY, sinRoll: sinRoll, cosRoll: cosRoll)
    }

    /// `point` of the level picture turned by the camera's roll: the inverse of `unrolled`.
    public func rolled(_ point: ViewPoint) -> ViewPoint {
        Self.rolled(point, principalX: principalX, principalY: principalY, sinRoll: sinRoll, cosRoll: cosRoll)
    }

    private static func level(_ p: ViewPoint, principalX: Double, principalY: Double, sinRoll: Double, cosRoll: Double) -> ViewPoint {
        let x = p.x - principalX
        let y = p.y - principalY
        return ViewPoint(x: principalX + x * cosRoll - y * sinRoll, y: principalY + x * sinRoll + y * cosRoll)
    }

    private static func rolled(_ p: ViewPoint, principalX: Double, principalY: Double, sinRoll: Double, cosRoll: Double) -> ViewPoint {
        let x = p.x - principalX
        let y = p.y - principalY
        return ViewPoint(x: principalX + x * cosRoll + y * sinRoll, y: principalY - x * sinRoll + y * cosRoll)
    }

    /// View y of the horizon in the level picture (see `unrolled`), or nil when
    /// looking straight down. Without roll it is the horizon's y on screen.
    public var horizonY: Double? {
        guard sinTilt > 1e-12 else { return nil }
        return principalY - cameraDistance * cosTilt / sinTilt
    }

    /// This transform's camera moved (same zoom, tilt, bearing, roll, anchor)
    /// so that the ground point `geo` is drawn at `point`; nil when `point` is at
    /// or above the horizon. The returned camera is not clamped to any limits.
    public func camera(placing geo: GeoCoordinate, at point: ViewPoint) -> Camera? {
        let lon = nearestLongitude(geo.longitude, to: camera.continuousLongitude)
        let world = WebMercator.project(GeoCoordinate(latitude: geo.latitude, longitude: lon), zoom: camera.zoom)
        // Heights scale with the centre's latitude, which moves with the centre:
        // with an elevation, settle it in a few steps (each one's error is far below a pixel).
        var height = groundHeight
        var moved = camera
        for _ in 0..<(camera.elevation == 0 ? 1 : 3) {
            guard
                let offset = Self.planeHit(
                    point, height: height, principalX: principalX, principalY: principalY, distance: cameraDistance, rotation: rotation)
            else { return nil }
            // The new centre puts `geo` at `point`; the target keeps its offset from the centre.
            let centre = (x: world.x - offset.dx, y: world.y - offset.dy)
            let target = WebMercator.unproject(x: centre.x + targetOffset.dx, y: centre.y + targetOffset.dy, zoom: camera.zoom)
            moved.latitude = target.latitude
            moved.continuousLongitude = target.longitude
            height = -camera.elevation * Self.pixelsPerMeter(atWorldY: centre.y, zoom: camera.zoom)
        }
        return moved
    }
}

/// A rotation from world offsets (x east, y south, z up) to the view frame
/// (x right, y down, z toward the eye): bearing about the vertical, then tilt
/// about the view's x axis, then roll about the line of sight, as MapLibre's
/// `rotateZ(-roll) · rotateX(pitch) · rotateZ(-bearing)`.
struct Rotation3: Sendable {
    private let m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    init(bearing: Double, tilt: Double, roll: Double) {
        let (sb, cb) = (sin(bearing), cos(bearing))
        let (st, ct) = (sin(tilt), cos(tilt))
        let (sr, cr) = (sin(roll), cos(roll))
        // Rows of Rroll · Rtilt · Rbearing, where Rbearing = [cb sb 0; -sb cb 0; 0 0 1],
        // Rtilt = [1 0 0; 0 ct -st; 0 st ct], Rroll = [cr sr 0; -sr cr 0; 0 0 1].
        let t10 = -sb * ct
        let t11 = cb * ct
        let t12 = -st
        m = (
            cr * cb + sr * t10, cr * sb + sr * t11, sr * t12,
            -sr * cb + cr * t10, -sr * sb + cr * t11, cr * t12,
            -sb * st, cb * st, ct
        )
    }

    func apply(_ x: Double, _ y: Double, _ z: Double) -> (x: Double, y: Double, z: Double) {
        (m.0 * x + m.1 * y + m.2 * z, m.3 * x + m.4 * y + m.5 * z, m.6 * x + m.7 * y + m.8 * z)
    }

    /// The transpose: view frame → world offsets.
    func applyInverse(_ x: Double, _ y: Double, _ z: Double) -> (x: Double, y: Double, z: Double) {
        (m.0 * x + m.3 * y + m.6 * z, m.1 * x + m.4 * y + m.7 * z, m.2 * x + m.5 * y + m.8 * z)
    }
}

extension Camera {
    /// This camera with its target anchor moved to `anchor` and its target
    /// moved to the point under the new anchor in `viewport` (at the target's
    /// altitude), so that nothing moves on screen (HERE CameraLite: "Setting a
    /// new anchor point for the target has no visible effect on the map"). The
    /// target stays put when the new anchor point is at or above the horizon. Not clamped.
    public func reanchored(to anchor: Anchor, in viewport: Viewport) -> Camera {
        var moved = self
        moved.anchor = Anchor(x: min(max(anchor.x, 0), 1), y: min(max(anchor.y, 0), 1))
        let before = ViewTransform(camera: self, viewport: viewport)
        let after = ViewTransform(camera: moved, viewport: viewport)
        guard let geo = before.targetPlanePoint(under: after.anchorPoint) else { return self }
        moved.latitude = geo.latitude
        moved.continuousLongitude = nearestLongitude(geo.longitude, to: continuousLongitude)
        return moved
    }
}

extension ViewTransform {
    /// The point under `point` in the plane of the target (at the camera's
    /// elevation), or nil at or above the horizon. The ground itself when the
    /// elevation is 0.
    func targetPlanePoint(under point: ViewPoint) -> GeoCoordinate? {
        guard let hit = targetPlaneOffset(under: point) else { return nil }
        var geo = WebMercator.unproject(x: centerX + hit.dx, y: centerY + hit.dy, zoom: camera.zoom)
        geo.longitude = wrapLongitude(geo.longitude)
        return geo
    }

    /// Offset from the centre, in world pixels, of the point under `point` in
    /// the target's plane; nil at or above the horizon.
    func targetPlaneOffset(under point: ViewPoint) -> (dx: Double, dy: Double)? {
        Self.planeHit(point, height: 0, principalX: principalX, principalY: principalY, distance: cameraDistance, rotation: rotation)
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
