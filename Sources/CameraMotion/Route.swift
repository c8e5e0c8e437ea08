import CameraCore
import Foundation

/// A room's route (TomTom: the route the camera's route tracking modes
/// present): a polyline of up to `maxPoints` points, longitudes kept
/// continuous from the first point so segments never jump the antimeridian.
public struct Route: Hashable, Sendable {
    /// Most points a route may have.
    public static let maxPoints = 10_000
    /// Earth radius (m) for distances along the route (spherical, as Web Mercator).
    static let earthRadius = 6_378_137.0

    public private(set) var points: [GeoCoordinate]
    /// Metres from the first point to each point along the route.
    private(set) var distances: [Double]

    /// The route through `points` (validated: latitudes within ±90, finite,
    /// at most `maxPoints`; at least 2 points).
    public init(_ points: [GeoCoordinate]) throws(CameraInputError) {
        self.points = []
        self.distances = []
        try append(points)
        guard self.points.count >= 2 else {
            throw CameraInputError(field: "points", message: "a route needs at least 2 points (got \(self.points.count)); [] clears it")
        }
    }

    /// Adds points at the end (a route sent in several messages).
    public mutating func append(_ more: [GeoCoordinate]) throws(CameraInputError) {
        guard points.count + more.count <= Self.maxPoints else {
            throw CameraInputError(field: "points", message: "a route has at most \(Self.maxPoints) points (got \(points.count + more.count))")
        }
        for (i, p) in more.enumerated() {
            guard p.latitude.isFinite, abs(p.latitude) <= 90 else {
                throw CameraInputError(field: "points[\(i)].lat", message: "must be within -90…90 degrees (got \(p.latitude))")
            }
            guard p.longitude.isFinite else { throw .notFinite(field: "points[\(i)].lon", value: p.longitude) }
        }
        for p in more {
            var q = p
            if let last = points.last { q.longitude = nearestLongitude(p.longitude, to: last.longitude) }
            distances.append((points.last.map { Self.metres(from: $0, to: q) } ?? 0) + (distances.last ?? 0))
            points.append(q)
        }
    }

    /// Total length in metres.
    public var length: Double { distances.last ?? 0 }

    /// Great-circle distance in metres (haversine).
    static func metres(from a: GeoCoordinate, to b: GeoCoordinate) -> Double {
        let lat1 = a.latitude * .pi / 180
        let lat2 = b.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// A location matched onto the route: the nearest point of the route.
    public struct Match: Hashable, Sendable {
        /// The point on the route.
        public var point: GeoCoordinate
        /// Metres along the route from its start.
        public var along: Double
        /// Metres from the location to `point`.
        public var offset: Double
    }

    /// The nearest point of the route to `location` (segments measured in a
    /// local equirectangular plane around the location, exact enough at the
    /// scale of a street).
    public func match(_ location: GeoCoordinate) -> Match {
        let k = cos(location.latitude * .pi / 180)
        let lon0 = location.longitude
        func plane(_ p: GeoCoordinate) -> (Double, Double) {
            ((nearestLongitude(p.longitude, to: lon0) - lon0) * k, p.latitude - location.latitude)
        }
        var best = Match(point: points[0], along: 0, offset: .infinity)
        var bestSquared = Double.infinity
        var a = plane(points[0])
        for i in 1..<points.count {
            let b = plane(points[i])
            let dx = b.0 - a.0
            let dy = b.1 - a.1
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? min(max(-(a.0 * dx + a.1 * dy) / lengthSquared, 0), 1) : 0
            let x = a.0 + dx * t
            let y = a.1 + dy * t
            let squared = x * x + y * y
            if squared < bestSquared {
                bestSquared = squared
                let p0 = points[i - 1]
                let p1 = points[i]
                let point = GeoCoordinate(
                    latitude: p0.latitude + (p1.latitude - p0.latitude) * t,
                    longitude: p0.longitude + (p1.longitude - p0.longitude) * t)
                best = Match(point: point, along: distances[i - 1] + (distances[i] - distances[i - 1]) * t, offset: 0)
            }
            a = b
        }
        best.offset = Self.metres(
            from: location,
            to: GeoCoordinate(
                latitude: best.point.latitude,
                longitude: nearestLongitude(best.point.longitude, to: lon0)))
        return best
    }

    /// The point `along` metres from the start (clamped to the route).
    public func point(along: Double) -> GeoCoordinate {
        guard along > 0 else { return points[0] }
        guard along < length else { return points[points.count - 1] }
        var lo = 0
        var hi = distances.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if distances[mid] <= along { lo = mid } else { hi = mid }
        }
        let span = distances[hi] - distances[lo]
        let t = span > 0 ? (along - distances[lo]) / span : 0
        let p0 = points[lo]
        let p1 = points[hi]
        return GeoCoordinate(latitude: p0.latitude + (p1.latitude - p0.latitude) * t, longitude: p0.longitude + (p1.longitude - p0.longitude) * t)
    }

    /// The points from `along` metres to the end (the first one interpolated).
    public func remaining(from along: Double) -> [GeoCoordinate] {
        [point(along: along)] + zip(points, distances).filter { $0.1 > along }.map(\.0)
    }

    /// Compass bearing (degrees clockwise from north) from `a` to `b`.
    static func bearing(from a: GeoCoordinate, to b: GeoCoordinate) -> Double {
        let lat1 = a.latitude * .pi / 180
        let lat2 = b.latitude * .pi / 180
        let dLon = (b.longitude - a.longitude) * .pi / 180
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        return normalizeBearing(atan2(y, x) * 180 / .pi)
    }
}
