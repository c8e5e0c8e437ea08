/// A partial camera: any subset of the fields, applied in one go (HERE
/// `updateCamera`, TomTom `CameraUpdate`, Mapbox `CameraOptions`).
public struct CameraUpdate: Hashable, Sendable {
    public var latitude: Double?
    public var longitude: Double?
    public var zoom: Double?
    public var tilt: Double?
    public var bearing: Double?
    public var anchor: Anchor?
    public var padding: PaddingUpdate?
    /// Degrees, within `Camera.rollRange`.
    public var roll: Double?
    /// Metres, within `Camera.elevationRange`.
    public var elevation: Double?
    /// Degrees, within `Camera.fovRange`.
    public var fov: Double?

    public init(
        latitude: Double? = nil, longitude: Double? = nil, zoom: Double? = nil,
        tilt: Double? = nil, bearing: Double? = nil, anchor: Anchor? = nil, padding: PaddingUpdate? = nil,
        roll: Double? = nil, elevation: Double? = nil, fov: Double? = nil
    ) {
        self.padding = padding
        self.roll = roll
        self.elevation = elevation
        self.fov = fov
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
        self.tilt = tilt
        self.bearing = bearing
        self.anchor = anchor
    }

    /// An update that sets every field to `camera`'s values.
    public init(_ camera: Camera) {
        self.init(
            latitude: camera.latitude, longitude: camera.continuousLongitude, zoom: camera.zoom,
            tilt: camera.tilt, bearing: camera.bearing, anchor: camera.anchor, padding: PaddingUpdate(camera.padding),
            roll: camera.roll, elevation: camera.elevation, fov: camera.fov)
    }

    public var isEmpty: Bool { properties.isEmpty }

    /// The properties this update writes (latitude or longitude alone claims `center`).
    public var properties: CameraProperties {
        var out: CameraProperties = []
        if latitude != nil || longitude != nil { out.insert(.center) }
        if zoom != nil { out.insert(.zoom) }
        if bearing != nil { out.insert(.bearing) }
        if tilt != nil { out.insert(.tilt) }
        if anchor != nil { out.insert(.anchor) }
        if padding.map({ !$0.isEmpty }) ?? false { out.insert(.padding) }
        if roll != nil { out.insert(.roll) }
        if elevation != nil { out.insert(.elevation) }
        if fov != nil { out.insert(.fov) }
        return out
    }

    /// Rejects what must never reach the state: non-finite numbers, latitudes
    /// beyond ±90, and a roll, elevation or field of view outside its range
    /// (`Camera.rollRange`, `elevationRange`, `fovRange`). Everything else is
    /// clamped when applied.
    public func validate() throws(CameraInputError) {
        if let latitude {
            try requireFinite(latitude, "lat")
            guard abs(latitude) <= 90 else {
                throw CameraInputError(field: "lat", message: "must be within -90…90 degrees (got \(latitude))")
            }
        }
        if let longitude { try requireFinite(longitude, "lon") }
        if let zoom { try requireFinite(zoom, "zoom") }
        if let tilt { try requireFinite(tilt, "tilt") }
        if let bearing { try requireFinite(bearing, "bearing") }
        if let anchor {
            try requireFinite(anchor.x, "anchor.x")
            try requireFinite(anchor.y, "anchor.y")
        }
        try padding?.validate()
        if let roll { try requireWithin(roll, Camera.rollRange, "roll") }
        if let elevation { try requireWithin(elevation, Camera.elevationRange, "elevation") }
        if let fov { try requireWithin(fov, Camera.fovRange, "fov") }
    }
}

/// A camera after a write, with the properties the limits adjusted.
public struct ClampedCamera: Hashable, Sendable {
    public var camera: Camera
    /// Properties whose requested value was changed to satisfy the limits
    /// (clients must be told their target was adjusted). Bearing wrapping and
    /// longitude wrapping are not clamping.
    public var clamped: CameraProperties

    public init(camera: Camera, clamped: CameraProperties) {
        self.camera = camera
        self.clamped = clamped
    }
}

extension Camera {
    /// This camera with `update` written over it and the result clamped to
    /// `limits`. Throws (changing nothing) for non-finite numbers or |lat| > 90.
    /// A new longitude is taken as the copy nearest the current one, so the
    /// internal longitude stays continuous across the antimeridian.
    public func applying(_ update: CameraUpdate, limits: CameraLimits) throws(CameraInputError) -> ClampedCamera {
        try update.validate()
        var next = self
        if let latitude = update.latitude { next.latitude = latitude }
        if let longitude = update.longitude { next.continuousLongitude = nearestLongitude(longitude, to: continuousLongitude) }
        if let zoom = update.zoom { next.zoom = zoom }
        if let tilt = update.tilt { next.tilt = tilt }
        if let bearing = update.bearing { next.bearing = bearing }
        if let anchor = update.anchor { next.anchor = anchor }
        if let padding = update.padding { next.padding = padding.applied(to: next.padding) }
        if let roll = update.roll { next.roll = roll }
        if let elevation = update.elevation { next.elevation = elevation }
        if let fov = update.fov { next.fov = fov }
        return next.clamped(to: limits)
    }

    /// This camera clamped to `limits` (zoom first, then tilt for that zoom,
    /// roll, then the target), with bearing and roll normalized and the anchor kept in view.
    /// Assumes finite values (as every `Camera` built through `applying` has).
    public func clamped(to limits: CameraLimits) -> ClampedCamera {
        var next = self
        var clamped: CameraProperties = []

        let zoom = min(max(next.zoom, limits.minZoom), limits.maxZoom)
        if zoom != next.zoom {
            next.zoom = zoom
            clamped.insert(.zoom)
        }

        let tilt = min(max(next.tilt, limits.minTilt), limits.maxTilt(atZoom: next.zoom))
        if tilt != next.tilt {
            next.tilt = tilt
            clamped.insert(.tilt)
        }

        next.bearing = normalizeBearing(next.bearing)

        let wrappedRoll = normalizeRoll(next.roll)
        next.roll = min(max(wrappedRoll, -limits.maxRoll), limits.maxRoll)
        if next.roll != wrappedRoll { clamped.insert(.roll) }

        let anchor = Anchor(x: min(max(next.anchor.x, 0), 1), y: min(max(next.anchor.y, 0), 1))
        if anchor != next.anchor {
            next.anchor = anchor
            clamped.insert(.anchor)
        }

        let target = limits.clampTarget(next.target)
        if target != next.target {
            next.target = target
            clamped.insert(.center)
        }

        return ClampedCamera(camera: next, clamped: clamped)
    }
}
