import Foundation

extension Camera {
    /// The camera that shows `bounds` inside `viewport` less this camera's
    /// padding and `padding` (MapLibre `cameraForBounds`, which adds the
    /// options' padding to the map's): this camera's bearing, anchor and padding, tilt 0,
    /// the largest zoom at which the whole box fits (capped at the absolute
    /// zoom range; apply the room's limits to the result). Throws when the
    /// padding leaves no room or the bounds are invalid.
    public func fitting(_ bounds: GeoBounds, padding: EdgeInsets, viewport: Viewport) throws(CameraInputError) -> Camera {
        let bounds = try GeoBounds.validated(south: bounds.south, west: bounds.west, north: bounds.north, east: bounds.east)
        for (name, value) in [("top", padding.top), ("left", padding.left), ("bottom", padding.bottom), ("right", padding.right)] {
            try requireFinite(value, "padding." + name)
            guard value >= 0 else { throw CameraInputError(field: "padding." + name, message: "must not be negative (got \(value))") }
        }
        let padding = self.padding + padding
        let availableWidth = viewport.width - padding.left - padding.right
        let availableHeight = viewport.height - padding.top - padding.bottom
        guard availableWidth > 0 else {
            throw CameraInputError(field: "padding", message: "left + right padding leaves no room in a \(viewport.width) px wide view")
        }
        guard availableHeight > 0 else {
            throw CameraInputError(field: "padding", message: "top + bottom padding leaves no room in a \(viewport.height) px high view")
        }

        // The box in world pixels at zoom 0, east made continuous with west.
        let south = max(bounds.south, -WebMercator.maxLatitude)
        let north = min(bounds.north, WebMercator.maxLatitude)
        let west = WebMercator.project(GeoCoordinate(latitude: north, longitude: bounds.west), zoom: 0)
        let east = WebMercator.project(GeoCoordinate(latitude: south, longitude: bounds.west + bounds.longitudeSpan), zoom: 0)
        let corners = [(west.x, west.y), (east.x, west.y), (east.x, east.y), (west.x, east.y)]

        // Extent of the box as the rotated view sees it.
        let b = bearing * .pi / 180
        let c = cos(b)
        let s = sin(b)
        let rotated = corners.map { (x, y) in (x * c + y * s, -x * s + y * c) }
        let width = rotated.map(\.0).max()! - rotated.map(\.0).min()!
        let height = rotated.map(\.1).max()! - rotated.map(\.1).min()!
        let scale = min(width > 0 ? availableWidth / width : .infinity, height > 0 ? availableHeight / height : .infinity)
        let zoom = min(max(log2(scale), CameraLimits.zoomRange.lowerBound), CameraLimits.zoomRange.upperBound)
        let size = exp2(zoom)

        // Put the box centre at the centre of the padded area: target = centre − R(bearing)·(screen offset
        // from the anchor point, where the target is drawn; at tilt 0 offsets are linear).
        var flat = self
        flat.tilt = 0
        let anchorPoint = ViewTransform(camera: flat, viewport: viewport).anchorPoint
        let midX = (west.x + east.x) / 2 * size
        let midY = (west.y + east.y) / 2 * size
        let sx = padding.left + availableWidth / 2 - anchorPoint.x
        let sy = padding.top + availableHeight / 2 - anchorPoint.y
        let target = WebMercator.unproject(x: midX - (sx * c - sy * s), y: midY - (sx * s + sy * c), zoom: zoom)

        var out = self
        out.zoom = zoom
        out.tilt = 0
        out.latitude = target.latitude
        out.continuousLongitude = nearestLongitude(target.longitude, to: continuousLongitude)
        return out
    }
}
