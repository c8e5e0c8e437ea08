/// What a viewport shows of the map (HERE `camera.boundingBox`, MapLibre `getBounds`).
public struct VisibleRegion: Hashable, Sendable {
    /// Geo points under the corners: top-left, top-right, bottom-right,
    /// bottom-left. Corners in the sky are moved down to 85 % of the way from
    /// the principal point to the horizon (see `ViewTransform.visibleRegion`). Longitudes are continuous around the
    /// camera's target (wrap them for display).
    public var quad: [GeoCoordinate]
    /// The smallest box holding the quad; `west > east` when it crosses the
    /// antimeridian, west -180 / east 180 when it spans every longitude.
    public var bounds: GeoBounds

    public init(quad: [GeoCoordinate], bounds: GeoBounds) {
        self.quad = quad
        self.bounds = bounds
    }
}

extension ViewTransform {
    /// The visible quad and its bounding box: the ground under the viewport's
    /// corners, a corner that shows sky moved down (in the level picture, see
    /// `unrolled`) to `horizonClampFraction` of the way from the principal point
    /// to the horizon. Should the ground not be in sight there (an elevation
    /// below sea level deeper than the eye's height), the target's plane stands in for it.
    public var visibleRegion: VisibleRegion {
        let w = viewport.width
        let h = viewport.height
        let clampY = horizonY.map { principalY - (principalY - $0) * Self.horizonClampFraction }
        let corners = [ViewPoint(x: 0, y: 0), ViewPoint(x: w, y: 0), ViewPoint(x: w, y: h), ViewPoint(x: 0, y: h)]
        let quad: [GeoCoordinate] = corners.map { corner in
            var point = corner
            var level = unrolled(corner)
            if let clampY, level.y < clampY {
                level.y = clampY
                point = rolled(level)
            }
            // Below the clamped line the target's plane is always in sight.
            let offset = viewToWorldOffset(point) ?? targetPlaneOffset(under: point) ?? (0, 0)
            return WebMercator.unproject(x: centerX + offset.dx, y: centerY + offset.dy, zoom: camera.zoom)
        }
        return VisibleRegion(quad: quad, bounds: Self.boundingBox(of: quad))
    }

    /// Bounding box of points whose longitudes are continuous (no wrap between them).
    static func boundingBox(of points: [GeoCoordinate]) -> GeoBounds {
        let lats = points.map(\.latitude)
        let lons = points.map(\.longitude)
        let south = lats.min()!
        let north = lats.max()!
        let low = lons.min()!
        let high = lons.max()!
        if high - low >= 360 { return GeoBounds(south: south, west: -180, north: north, east: 180) }
        let west = wrapLongitude(low)
        var east = wrapLongitude(high)
        if east == -180 && high > low { east = 180 }
        return GeoBounds(south: south, west: west, north: north, east: east)
    }
}
