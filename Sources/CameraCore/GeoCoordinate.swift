/// A point on the Earth in degrees (WGS 84 as used by Web Mercator maps).
///
/// `latitude` is in [-90, 90]; `longitude` is any finite value: the core keeps
/// longitudes continuous (181 is one step east of 179) and wraps them to
/// [-180, 180) only where a value is read out (see `wrapLongitude`).
public struct GeoCoordinate: Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// Wraps a longitude in degrees into [-180, 180).
@inlinable
public func wrapLongitude(_ longitude: Double) -> Double {
    // In range: return it untouched (the arithmetic below could change the last bit).
    if longitude >= -180 && longitude < 180 { return longitude }
    let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
    let positive = wrapped < 0 ? wrapped + 360 : wrapped
    // `positive` can round up to exactly 360 for tiny negative inputs.
    return positive >= 360 ? -180 : positive - 180
}

/// Wraps an angle in degrees into [0, 360).
@inlinable
public func normalizeBearing(_ degrees: Double) -> Double {
    let r = degrees.truncatingRemainder(dividingBy: 360)
    let positive = r < 0 ? r + 360 : r
    return positive >= 360 ? 0 : positive
}

/// A roll in degrees as the camera keeps it: untouched within −180…180 (both
/// ends, so what a client set reads back the same), otherwise wrapped into [-180, 180).
@inlinable
public func normalizeRoll(_ degrees: Double) -> Double {
    if degrees >= -180 && degrees <= 180 { return degrees }
    return wrapLongitude(degrees)
}

/// The copy of `longitude` (plus or minus whole turns) nearest to `reference`.
/// Used to keep longitudes continuous and to take the short way round the antimeridian.
@inlinable
public func nearestLongitude(_ longitude: Double, to reference: Double) -> Double {
    let delta = (longitude - reference).truncatingRemainder(dividingBy: 360)
    var d = delta
    if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
    return reference + d
}

/// The signed shortest turn in degrees from `from` to `to`, in (-180, 180].
@inlinable
public func shortestTurn(from: Double, to: Double) -> Double {
    var d = (to - from).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
    return d
}
