/// What a client's map can draw of the room's camera (`hello.render`). A map
/// SDK without roll (Mapbox GL JS and the Mapbox Maps SDKs) or with a lower
/// pitch limit (MapLibre Native Android: 60°) is sent the closest camera it can
/// show instead of one it would draw wrongly; the room's camera is the same
/// for everyone else. Default: everything.
public struct RenderCapabilities: Hashable, Sendable {
    /// Whether the map can roll the picture (MapLibre GL JS 5 `roll`).
    public var roll: Bool
    /// The steepest tilt it draws, in whole degrees within `CameraLimits.tiltRange`.
    public var maxTilt: Int
    /// Whether it draws the globe projection.
    public var globe: Bool

    public init(roll: Bool = true, maxTilt: Int = Int(CameraLimits.tiltRange.upperBound), globe: Bool = true) {
        self.roll = roll
        self.maxTilt = maxTilt
        self.globe = globe
    }

    /// A map that draws every camera the hub shares.
    public static let all = RenderCapabilities()

    /// Validated: `maxTilt` within 0…85 (the error names `render.maxTilt`).
    public static func validated(roll: Bool, maxTilt: Int, globe: Bool) throws(CameraInputError) -> RenderCapabilities {
        let range = Int(CameraLimits.tiltRange.lowerBound)...Int(CameraLimits.tiltRange.upperBound)
        guard range.contains(maxTilt) else {
            throw CameraInputError(field: "render.maxTilt", message: "must be within \(range.lowerBound)…\(range.upperBound) (got \(maxTilt))")
        }
        return RenderCapabilities(roll: roll, maxTilt: maxTilt, globe: globe)
    }

    /// The wire names of what this map cannot draw and the hub adapts for it,
    /// in a fixed order: `roll`, `tilt` (when below 85). Empty for `all`. Not
    /// `globe`: rooms are drawn in Web Mercator, so there is nothing to adapt.
    public var limited: [String] {
        var out: [String] = []
        if !roll { out.append("roll") }
        if maxTilt < Int(CameraLimits.tiltRange.upperBound) { out.append("tilt") }
        return out
    }

    /// The closest camera to `camera` this map can draw: roll 0 without roll,
    /// tilt at most `maxTilt`; centre, zoom, bearing and the rest unchanged.
    public func showable(_ camera: Camera) -> Camera {
        var out = camera
        if !roll { out.roll = 0 }
        out.tilt = min(out.tilt, Double(maxTilt))
        return out
    }
}
