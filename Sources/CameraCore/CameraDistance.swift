import Foundation

/// How far the eye is from the point it looks at, as MapLibre GL JS 5 places
/// it (`ViewTransform`): `(height / 2) / tan(fov / 2)` pixels, which in metres
/// depends on the zoom and the latitude (world pixels per metre). Tours that
/// give a distance (KML's `LookAt.range`, a `Camera`'s altitude) turn into a
/// zoom with it, and back; the viewport height is the one the distance is
/// meant for (the same distance is a higher zoom on a taller screen).
public enum CameraDistance {
    /// The viewport tours are converted for: the hub's default (1280 × 720).
    public static let referenceViewport = Viewport(width: 1280, height: 720)

    /// Metres from the eye to the point looked at, for a camera at `zoom` over `latitude` (degrees).
    public static func metres(zoom: Double, latitude: Double, fov: Double = Camera.defaultFov, viewport: Viewport = referenceViewport) -> Double {
        let pixels = viewport.height / 2 / tan(fov * .pi / 360)
        let pixelsPerMetre = WebMercator.worldSize(zoom: zoom) / (2 * .pi * ViewTransform.earthRadius * cos(latitude * .pi / 180))
        return pixels / pixelsPerMetre
    }

    /// The zoom at which the eye is `metres` from the point it looks at over `latitude` (the inverse of `metres`).
    public static func zoom(metres: Double, latitude: Double, fov: Double = Camera.defaultFov, viewport: Viewport = referenceViewport) -> Double {
        let pixels = viewport.height / 2 / tan(fov * .pi / 360)
        let circumference = 2 * .pi * ViewTransform.earthRadius * cos(latitude * .pi / 180)
        return log2(pixels * circumference / (WebMercator.tileSize * metres))
    }

    /// The point `metres` away from `from` along the great circle leaving it at `heading` degrees (clockwise from north).
    public static func destination(from: GeoCoordinate, heading: Double, metres: Double) -> GeoCoordinate {
        let d = metres / ViewTransform.earthRadius
        let h = heading * .pi / 180
        let lat1 = from.latitude * .pi / 180
        let lon1 = from.longitude * .pi / 180
        let lat2 = asin(sin(lat1) * cos(d) + cos(lat1) * sin(d) * cos(h))
        let lon2 = lon1 + atan2(sin(h) * sin(d) * cos(lat1), cos(d) - sin(lat1) * sin(lat2))
        return GeoCoordinate(latitude: lat2 * 180 / .pi, longitude: lon2 * 180 / .pi)
    }
}
