/// What a room's camera may do (HERE CameraLite limits). Always consistent:
/// every initializer and change validates, and a rejected change leaves the
/// limits as they were.
public struct CameraLimits: Hashable, Sendable {
    /// Zoom levels any limit may take.
    public static let zoomRange: ClosedRange<Double> = 0...24
    /// Tilt any limit may take, in degrees from nadir (85 is the absolute ceiling).
    public static let tiltRange: ClosedRange<Double> = 0...85

    public static let defaultMinZoom: Double = 0
    public static let defaultMaxZoom: Double = 22
    public static let defaultMinTilt: Double = 0
    public static let defaultMaxTilt: Double = 60
    /// Roll any limit may take: the largest |roll| allowed, in degrees.
    public static let rollRange: ClosedRange<Double> = 0...180
    /// No limit on roll.
    public static let defaultMaxRoll: Double = 180

    /// One entry of the max-tilt-per-zoom table: at `zoom`, tilt may reach `tilt`.
    public struct TiltStop: Hashable, Sendable {
        public var zoom: Double
        public var tilt: Double
        public init(zoom: Double, tilt: Double) {
            self.zoom = zoom
            self.tilt = tilt
        }
    }

    public private(set) var minZoom: Double = defaultMinZoom
    public private(set) var maxZoom: Double = defaultMaxZoom
    public private(set) var minTilt: Double = defaultMinTilt
    public private(set) var maxTilt: Double = defaultMaxTilt
    /// The camera's roll stays within ±`maxRoll` degrees (0: always level).
    public private(set) var maxRoll: Double = defaultMaxRoll
    /// Sorted by zoom, zooms strictly increasing. Between entries the limit is
    /// interpolated linearly; beyond the ends the end value holds.
    public private(set) var maxTiltByZoom: [TiltStop] = []
    /// The box the camera target must stay in (not the visible area: every
    /// client has its own viewport, so only the target can be bounded for all).
    public private(set) var bounds: GeoBounds?

    /// The defaults: zoom 0…22, tilt 0…60, any roll, no table, no bounds.
    public init() {}

    /// Limits with the given values, validated as a whole.
    public init(
        minZoom: Double = defaultMinZoom, maxZoom: Double = defaultMaxZoom,
        minTilt: Double = defaultMinTilt, maxTilt: Double = defaultMaxTilt,
        maxTiltByZoom: [TiltStop] = [], bounds: GeoBounds? = nil, maxRoll: Double = defaultMaxRoll
    ) throws(CameraInputError) {
        var change = Change()
        change.minZoom = .set(minZoom)
        change.maxZoom = .set(maxZoom)
        change.minTilt = .set(minTilt)
        change.maxTilt = .set(maxTilt)
        change.maxTiltByZoom = .set(maxTiltByZoom)
        change.maxRoll = .set(maxRoll)
        change.bounds = bounds.map { .set($0) } ?? .reset
        self = try CameraLimits().applying(change)
    }

    /// The highest tilt allowed at `zoom`: `maxTilt`, lowered by the table
    /// where it has entries, never below `minTilt`.
    public func maxTilt(atZoom zoom: Double) -> Double {
        guard let first = maxTiltByZoom.first, let last = maxTiltByZoom.last else { return maxTilt }
        let tableTilt: Double
        if zoom <= first.zoom {
            tableTilt = first.tilt
        } else if zoom >= last.zoom {
            tableTilt = last.tilt
        } else {
            var i = 1
            while maxTiltByZoom[i].zoom < zoom { i += 1 }
            let a = maxTiltByZoom[i - 1]
            let b = maxTiltByZoom[i]
            tableTilt = a.tilt + (b.tilt - a.tilt) * (zoom - a.zoom) / (b.zoom - a.zoom)
        }
        return max(minTilt, min(maxTilt, tableTilt))
    }

    /// `geo` moved to the nearest point allowed for a target: within the
    /// Mercator latitude range and within `bounds` (the short way round the
    /// antimeridian). The longitude stays on the copy nearest the input.
    public func clampTarget(_ geo: GeoCoordinate) -> GeoCoordinate {
        var south = -WebMercator.maxLatitude
        var north = WebMercator.maxLatitude
        if let bounds {
            south = max(south, bounds.south)
            north = min(north, bounds.north)
            if south > north {
                south = (south + north) / 2
                north = south
            }
        }
        var out = geo
        out.latitude = min(max(geo.latitude, south), north)
        if let bounds, !bounds.containsLongitude(geo.longitude) {
            let lon = wrapLongitude(geo.longitude)
            let toWest = abs(shortestTurn(from: lon, to: bounds.west))
            let toEast = abs(shortestTurn(from: lon, to: bounds.east))
            let edge = toWest < toEast ? bounds.west : bounds.east
            out.longitude = nearestLongitude(edge, to: geo.longitude)
        }
        return out
    }
}

extension CameraLimits {
    /// What a change does to one limit.
    public enum LimitChange<Value: Hashable & Sendable>: Hashable, Sendable {
        /// Leave it as it is.
        case keep
        /// Back to its default (on the wire: `null`).
        case reset
        case set(Value)
    }

    /// A partial change of limits (the protocol's `limits` message).
    public struct Change: Hashable, Sendable {
        public var minZoom: LimitChange<Double> = .keep
        public var maxZoom: LimitChange<Double> = .keep
        public var minTilt: LimitChange<Double> = .keep
        public var maxTilt: LimitChange<Double> = .keep
        public var maxTiltByZoom: LimitChange<[TiltStop]> = .keep
        public var maxRoll: LimitChange<Double> = .keep
        public var bounds: LimitChange<GeoBounds> = .keep
        public init() {}
    }

    /// These limits with `change` applied, or an error naming the first
    /// offending field (and these limits unchanged, since they are a value).
    public func applying(_ change: Change) throws(CameraInputError) -> CameraLimits {
        var next = self
        next.minZoom = try Self.resolve(change.minZoom, current: minZoom, default: Self.defaultMinZoom, field: "minZoom", range: Self.zoomRange)
        next.maxZoom = try Self.resolve(change.maxZoom, current: maxZoom, default: Self.defaultMaxZoom, field: "maxZoom", range: Self.zoomRange)
        next.minTilt = try Self.resolve(change.minTilt, current: minTilt, default: Self.defaultMinTilt, field: "minTilt", range: Self.tiltRange)
        next.maxTilt = try Self.resolve(change.maxTilt, current: maxTilt, default: Self.defaultMaxTilt, field: "maxTilt", range: Self.tiltRange)
        next.maxRoll = try Self.resolve(change.maxRoll, current: maxRoll, default: Self.defaultMaxRoll, field: "maxRoll", range: Self.rollRange)
        guard next.minZoom <= next.maxZoom else {
            throw CameraInputError(field: "minZoom", message: "must not exceed maxZoom (\(next.minZoom) > \(next.maxZoom))")
        }
        guard next.minTilt <= next.maxTilt else {
            throw CameraInputError(field: "minTilt", message: "must not exceed maxTilt (\(next.minTilt) > \(next.maxTilt))")
        }
        switch change.maxTiltByZoom {
        case .keep: break
        case .reset: next.maxTiltByZoom = []
        case .set(let stops): next.maxTiltByZoom = try Self.validatedTable(stops)
        }
        switch change.bounds {
        case .keep: break
        case .reset: next.bounds = nil
        case .set(let b):
            next.bounds = try GeoBounds.validated(south: b.south, west: b.west, north: b.north, east: b.east)
        }
        return next
    }

    private static func resolve(
        _ change: LimitChange<Double>, current: Double, default def: Double,
        field: String, range: ClosedRange<Double>
    ) throws(CameraInputError) -> Double {
        switch change {
        case .keep: return current
        case .reset: return def
        case .set(let value):
            try requireFinite(value, field)
            guard range.contains(value) else {
                throw CameraInputError(field: field, message: "must be within \(range.lowerBound)…\(range.upperBound) (got \(value))")
            }
            return value
        }
    }

    private static func validatedTable(_ stops: [TiltStop]) throws(CameraInputError) -> [TiltStop] {
        for (i, stop) in stops.enumerated() {
            try requireFinite(stop.zoom, "maxTiltByZoom[\(i)].zoom")
            try requireFinite(stop.tilt, "maxTiltByZoom[\(i)].tilt")
            guard zoomRange.contains(stop.zoom) else {
                throw CameraInputError(
                    field: "maxTiltByZoom[\(i)].zoom", message: "must be within \(zoomRange.lowerBound)…\(zoomRange.upperBound) (got \(stop.zoom))")
            }
            guard tiltRange.contains(stop.tilt) else {
                throw CameraInputError(
                    field: "maxTiltByZoom[\(i)].tilt", message: "must be within \(tiltRange.lowerBound)…\(tiltRange.upperBound) (got \(stop.tilt))")
            }
        }
        let sorted = stops.sorted { $0.zoom < $1.zoom }
        for i in sorted.indices.dropFirst() where sorted[i].zoom == sorted[i - 1].zoom {
            throw CameraInputError(field: "maxTiltByZoom", message: "has two entries for zoom \(sorted[i].zoom)")
        }
        return sorted
    }
}
