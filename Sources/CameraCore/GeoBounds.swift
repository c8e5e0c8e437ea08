/// A latitude/longitude box in degrees. `west > east` means the box crosses
/// the antimeridian (e.g. west 170, east -170 is 20° wide).
public struct GeoBounds: Hashable, Sendable, CustomStringConvertible {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Checks every field (finite, latitudes within ±90, longitudes within
    /// ±180, south ≤ north). `prefix` is put before field names in errors.
    public static func validated(
        south: Double, west: Double, north: Double, east: Double,
        prefix: String = "bounds."
    ) throws(CameraInputError) -> GeoBounds {
        for (name, value) in [("south", south), ("west", west), ("north", north), ("east", east)] {
            try requireFinite(value, prefix + name)
        }
        for (name, value) in [("south", south), ("north", north)] where abs(value) > 90 {
            throw CameraInputError(field: prefix + name, message: "must be within -90…90 degrees (got \(value))")
        }
        for (name, value) in [("west", west), ("east", east)] where abs(value) > 180 {
            throw CameraInputError(field: prefix + name, message: "must be within -180…180 degrees (got \(value))")
        }
        guard south <= north else {
            throw CameraInputError(field: prefix + "south", message: "must not be north of north (\(south) > \(north))")
        }
        return GeoBounds(south: south, west: west, north: north, east: east)
    }

    public var crossesAntimeridian: Bool { west > east }

    /// Width in degrees of longitude (0…360).
    public var longitudeSpan: Double { crossesAntimeridian ? east + 360 - west : east - west }

    /// True when `geo` (any longitude copy) lies inside, edges included.
    public func contains(_ geo: GeoCoordinate) -> Bool {
        geo.latitude >= south && geo.latitude <= north && containsLongitude(geo.longitude)
    }

    /// True when the meridian `longitude` (any copy) lies between west and east.
    public func containsLongitude(_ longitude: Double) -> Bool {
        let span = longitudeSpan
        if span >= 360 { return true }
        let centre = west + span / 2
        return abs(nearestLongitude(longitude, to: centre) - centre) <= span / 2 + 1e-12
    }

    public var description: String { "S\(south) W\(west) N\(north) E\(east)" }
}
