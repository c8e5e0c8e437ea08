import CameraCore
import CameraMotion
import Foundation

/// The change from one camera to another, component by component, in the
/// spaces the hub's own animations interpolate in: the centre in Web Mercator
/// world units (x the short way across the antimeridian), zoom, bearing and
/// roll by the shortest turn, tilt, elevation (m), fov (degrees), anchor and
/// padding (px). The JavaScript client's `cameraDelta` (clients/js/src/follow/interpolation.js).
/// Lanes 14 and 15 are unused (always 0).
public struct CameraDelta: Hashable, Sendable {
    public var lanes: SIMD16<Double>

    static let x = 0, y = 1, zoom = 2, bearing = 3, tilt = 4, roll = 5, elevation = 6, fov = 7
    static let anchorX = 8, anchorY = 9, top = 10, left = 11, bottom = 12, right = 13
    /// The lanes that carry a component.
    static let used = 0..<14

    public init(lanes: SIMD16<Double> = .zero) { self.lanes = lanes }

    /// From `a` to `b`.
    public init(from a: Camera, to b: Camera) {
        var d = SIMD16<Double>.zero
        d[Self.x] = shortestTurn(from: a.longitude, to: b.longitude) / 360
        d[Self.y] = Self.unitY(b.latitude) - Self.unitY(a.latitude)
        d[Self.zoom] = b.zoom - a.zoom
        d[Self.bearing] = shortestTurn(from: a.bearing, to: b.bearing)
        d[Self.tilt] = b.tilt - a.tilt
        d[Self.roll] = shortestTurn(from: a.roll, to: b.roll)
        d[Self.elevation] = b.elevation - a.elevation
        d[Self.fov] = b.fov - a.fov
        d[Self.anchorX] = b.anchor.x - a.anchor.x
        d[Self.anchorY] = b.anchor.y - a.anchor.y
        d[Self.top] = b.padding.top - a.padding.top
        d[Self.left] = b.padding.left - a.padding.left
        d[Self.bottom] = b.padding.bottom - a.padding.bottom
        d[Self.right] = b.padding.right - a.padding.right
        lanes = d
    }

    public var isZero: Bool { lanes == .zero }

    /// `camera` moved by this change times `f` (a component that does not change keeps its value to the bit).
    public func applied(to camera: Camera, times f: Double = 1) -> Camera {
        let d = lanes
        var out = camera
        if d[Self.y] != 0 { out.latitude = Self.clampLatitude(Self.latitude(unitY: Self.unitY(camera.latitude) + d[Self.y] * f)) }
        if d[Self.x] != 0 { out.continuousLongitude = wrapLongitude(camera.longitude + d[Self.x] * 360 * f) }
        out.zoom = camera.zoom + d[Self.zoom] * f
        if d[Self.bearing] != 0 { out.bearing = normalizeBearing(camera.bearing + d[Self.bearing] * f) }
        out.tilt = camera.tilt + d[Self.tilt] * f
        if d[Self.roll] != 0 { out.roll = normalizeRoll(camera.roll + d[Self.roll] * f) }
        out.elevation = camera.elevation + d[Self.elevation] * f
        out.fov = camera.fov + d[Self.fov] * f
        out.anchor = Anchor(x: camera.anchor.x + d[Self.anchorX] * f, y: camera.anchor.y + d[Self.anchorY] * f)
        out.padding = EdgeInsets(
            top: camera.padding.top + d[Self.top] * f, left: camera.padding.left + d[Self.left] * f,
            bottom: camera.padding.bottom + d[Self.bottom] * f, right: camera.padding.right + d[Self.right] * f)
        return out
    }

    /// Mercator y in world units (0 at the north edge), the latitude clamped to Web Mercator's.
    static func unitY(_ latitude: Double) -> Double { WebMercator.unitY(latitude: clampLatitude(latitude)) }
    static func latitude(unitY y: Double) -> Double { WebMercator.latitude(unitY: y) }
    static func clampLatitude(_ latitude: Double) -> Double {
        min(WebMercator.maxLatitude, max(-WebMercator.maxLatitude, latitude))
    }
}

extension Camera {
    /// How far apart two cameras look, in px: the centre's distance in world
    /// px at this camera's zoom (an elevation difference counted as a
    /// distance), and the zoom, bearing, tilt, roll and fov differences as the
    /// displacement they cause `radius` px from the centre.
    public func distancePixels(to other: Camera, radius: Double = 360) -> Double {
        let d = CameraDelta(from: self, to: other).lanes
        let world = WebMercator.worldSize(zoom: zoom)
        let perMetre = world / (2 * .pi * 6_371_008.8 * cos(CameraDelta.clampLatitude(latitude) * .pi / 180))
        let centre = (d[CameraDelta.x] * world, d[CameraDelta.y] * world, d[CameraDelta.elevation] * perMetre)
        let turn = radius * .pi / 180
        let parts = [
            centre.0, centre.1, centre.2, radius * abs(exp2(d[CameraDelta.zoom]) - 1), turn * abs(d[CameraDelta.bearing]),
            turn * abs(d[CameraDelta.tilt]), turn * abs(d[CameraDelta.roll]), turn * abs(d[CameraDelta.fov]),
        ]
        return sqrt(parts.reduce(0) { $0 + $1 * $1 })
    }
}
