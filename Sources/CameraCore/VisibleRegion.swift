/// What a viewport shows of the map (HERE `camera.boundingBox`, MapLibre `getBounds`).
public struct VisibleRegion: Hashable, Sendable {
    /// Geo points under the corners: top-left, top-right, bottom-right,
    /// bottom-left. Corners in the sky are moved down to 85 % of the way from
    /// the principal point to the horizon. Longitudes are continuous around the
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
    /// The visible quad and its bounding box.
    public var visibleRegion: VisibleRegion {
        let w = viewport.width
        let h = viewport.height
        var top = 0.0
        if let horizon = horizonY {
            top = max(0, principalY - (principalY - horizon) * Self.horizonClampFraction)
        }
        let bottom = max(h, top)
        let corners = [ViewPoint(x: 0, y: top), ViewPoint(x: w, y: top), ViewPoint(x: w, y: bottom), ViewPoint(x: 0, y: bottom)]
        let quad: [GeoCoordinate] = corners.map { corner in
            // Below the clamped line every point has a ground position.
            let offset = viewToWorldOffset(corner)!
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
