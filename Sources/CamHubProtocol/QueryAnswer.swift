import CameraCore

/// The answer to a `query`, encoded by `HubMessage.result`.
public enum QueryAnswer: Hashable, Sendable {
    /// View points of the queried geo points; nil where a point is behind the eye.
    case project([ViewPoint?])
    /// Geo points (longitude in [-180, 180)) under the queried view points; nil at or above the horizon.
    case unproject([GeoCoordinate?])
    /// The visible region. Quad longitudes are continuous around the camera's
    /// wire longitude (they may leave ±180 near the antimeridian, so the quad
    /// can be drawn as is); the bounds are wrapped (`west > east` crosses the antimeridian).
    case bounds(VisibleRegion)
    /// The camera that fits the bounds, already clamped to the room limits.
    case fit(Camera)
    /// The room's storyboard: its steps, the step the room is on, autoplay, drivers.
    case story(StoryState)

    public var what: String {
        switch self {
        case .project: "project"
        case .unproject: "unproject"
        case .bounds: "bounds"
        case .fit: "fit"
        case .story: "story"
        }
    }
}

extension QueryCommand {
    /// Answers this query for the room `camera` seen in the asking client's `viewport`,
    /// on the room's `projection`: on the globe below zoom 12 points, view points
    /// and bounds are the globe's (`GlobeView`); fit stays the flat map's; `story`
    /// is the room's `story` as it is (who may ask is the hub's to check).
    /// Throws `bad_message` (ref: the query id) when `fit` padding leaves no room.
    public func answer(
        camera: Camera, viewport: Viewport, limits: CameraLimits, projection: MapProjection = .mercator, story: StoryState = StoryState()
    ) throws(ProtocolError) -> QueryAnswer {
        // Exactly one of the two is built: the globe's geometry or the flat map's.
        let onGlobe = projection == .globe && GlobeView.isGlobe(zoom: camera.zoom)
        let globe = onGlobe ? GlobeView(camera: camera, viewport: viewport) : nil
        let flat = onGlobe ? nil : ViewTransform(camera: camera, viewport: viewport)
        switch what {
        case .project(let geos):
            return .project(geos.map { globe?.geoToView($0) ?? flat?.geoToView($0) })
        case .unproject(let points):
            return .unproject(points.map { globe?.viewToGeo($0) ?? flat?.viewToGeo($0) })
        case .bounds:
            return .bounds(camera.wireRegion(in: viewport, projection: projection))
        case .fit(let bounds, let padding):
            do {
                let fitted = try camera.fitting(bounds, padding: padding, viewport: viewport)
                return .fit(fitted.clamped(to: limits).camera)
            } catch {
                throw ProtocolError(.badMessage, "\(error.field): \(error.message)", ref: id)
            }
        case .story:
            return .story(story)
        }
    }
}

extension Camera {
    /// `visibleRegion(in:projection:)` with the quad's longitudes continuous
    /// around the camera's wire longitude (what `bounds` answers: they may
    /// leave ±180 near the antimeridian, so the quad is drawn as is).
    public func wireRegion(in viewport: Viewport, projection: MapProjection) -> VisibleRegion {
        var region = visibleRegion(in: viewport, projection: projection)
        let shift = JSONWriter.wireLongitude(continuousLongitude) - continuousLongitude
        if shift != 0 {
            region.quad = region.quad.map { GeoCoordinate(latitude: $0.latitude, longitude: $0.longitude + shift) }
        }
        return region
    }
}
