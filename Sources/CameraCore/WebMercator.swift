import Foundation

/// Spherical Web Mercator at MapLibre's scale: 512 px tiles, so the whole world
/// is `512 · 2^zoom` pixels wide. World pixel coordinates have x growing east
/// from the antimeridian and y growing south from the top edge (lat +85.05…).
public enum WebMercator {
    /// Tile size in pixels.
    public static let tileSize: Double = 512
    /// The latitude at which the Mercator square ends (degrees).
    public static let maxLatitude: Double = 85.051129

    /// World width and height in pixels at `zoom`.
    @inlinable
    public static func worldSize(zoom: Double) -> Double { tileSize * exp2(zoom) }

    /// Mercator x in [0, 1) per world (continuous: longitudes beyond ±180 give values outside).
    @inlinable
    public static func unitX(longitude: Double) -> Double { (longitude + 180) / 360 }

    /// Mercator y in [0, 1] for latitudes within ±maxLatitude (0 at the top).
    @inlinable
    public static func unitY(latitude: Double) -> Double {
        let phi = latitude * .pi / 180
        return 0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)
    }

    @inlinable
    public static func longitude(unitX x: Double) -> Double { x * 360 - 180 }

    @inlinable
    public static func latitude(unitY y: Double) -> Double {
        (2 * atan(exp((0.5 - y) * 2 * .pi)) - .pi / 2) * 180 / .pi
    }

    /// World pixel position of `geo` at `zoom` (longitude taken as given, not wrapped).
    @inlinable
    public static func project(_ geo: GeoCoordinate, zoom: Double) -> (x: Double, y: Double) {
        let size = worldSize(zoom: zoom)
        return (unitX(longitude: geo.longitude) * size, unitY(latitude: geo.latitude) * size)
    }

    /// The geo point at world pixel (x, y) at `zoom` (longitude continuous, not wrapped).
    @inlinable
    public static func unproject(x: Double, y: Double, zoom: Double) -> GeoCoordinate {
        let size = worldSize(zoom: zoom)
        return GeoCoordinate(latitude: latitude(unitY: y / size), longitude: longitude(unitX: x / size))
    }
}
