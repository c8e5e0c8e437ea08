import Foundation

extension Camera {
    /// The camera that shows `bounds` inside `viewport` less this camera's
    /// padding and `padding` (MapLibre `cameraForBounds`, which adds the
    /// options' padding to the map's): this camera's bearing, roll, elevation, anchor and padding, tilt 0,
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

        // Extent of the box as the rotated view sees it. Looking straight down, roll turns the
        // picture the same way as bearing.
        let b = (bearing + roll) * .pi / 180
        let c = cos(b)
        let s = sin(b)
        let rotated = corners.map { (x, y) in (x * c + y * s, -x * s + y * c) }
        let width = rotated.map(\.0).max()! - rotated.map(\.0).min()!
        let height = rotated.map(\.1).max()! - rotated.map(\.1).min()!
        let scale = min(width > 0 ? availableWidth / width : .infinity, height > 0 ? availableHeight / height : .infinity)
        let midX = (west.x + east.x) / 2
        let midY = (west.y + east.y) / 2

        // The box is on the ground, `elevation` below the target's plane: drawn smaller by
        // `groundScale`, which depends on the zoom, so the zoom is settled in a few steps.
        var flat = self
        flat.tilt = 0
        var zoom = min(max(log2(scale), CameraLimits.zoomRange.lowerBound), CameraLimits.zoomRange.upperBound)
        var groundScale = 1.0
        for _ in 0..<(elevation == 0 ? 0 : 8) {
            flat.zoom = zoom
            groundScale = flat.groundScale(atWorldY: midY * exp2(zoom), viewport: viewport)
            zoom = min(max(log2(scale / groundScale), CameraLimits.zoomRange.lowerBound), CameraLimits.zoomRange.upperBound)
        }
        flat.zoom = zoom
        if elevation != 0 { groundScale = flat.groundScale(atWorldY: midY * exp2(zoom), viewport: viewport) }
        let size = exp2(zoom)

        // Put the box centre at the centre of the padded area: its ground offset from the
        // centre of perspective is the screen offset over `groundScale`; the target, drawn at
        // its anchor in its own plane, keeps its screen offset. Both turned back by R(bearing + roll).
        let transform = ViewTransform(camera: flat, viewport: viewport)
        let mx = (padding.left + availableWidth / 2 - transform.principalX) / groundScale
        let my = (padding.top + availableHeight / 2 - transform.principalY) / groundScale
        let ax = transform.anchorPoint.x - transform.principalX
        let ay = transform.anchorPoint.y - transform.principalY
        let (sx, sy) = (mx - ax, my - ay)
        let target = WebMercator.unproject(x: midX * size - (sx * c - sy * s), y: midY * size - (sx * s + sy * c), zoom: zoom)

        var out = self
        out.zoom = zoom
        out.tilt = 0
        out.latitude = target.latitude
        out.continuousLongitude = nearestLongitude(target.longitude, to: continuousLongitude)
        return out
    }
}

extension Camera {
    /// Looking straight down, how much smaller than the target's plane the
    /// ground is drawn: `d / (d + elevation · pixelsPerMeter)`, with the
    /// pixels per metre at world y `y` (the camera's zoom). 1 at elevation 0.
    func groundScale(atWorldY y: Double, viewport: Viewport) -> Double {
        let distance = viewport.height / 2 / tan(fov * .pi / 360)
        let below = elevation * ViewTransform.pixelsPerMeter(atWorldY: y, zoom: zoom)
        return distance / max(distance + below, distance * 1e-6)
    }
}
