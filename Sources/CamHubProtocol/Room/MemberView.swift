import CameraCore

/// What one member of a room looks at while it explores (`looking`), as the
/// `views` event tells presenters and drivers: its camera, its viewport and
/// the ground its viewport shows.
public struct MemberView: Hashable, Sendable {
    /// The member's client id and display name.
    public var client: String
    public var name: String
    /// Its follow state (`exploring`: the hub keeps no view of anyone else).
    public var state: FollowState
    /// Its own camera, as it last reported it.
    public var camera: Camera
    /// Its viewport (px), from `hello` or its latest `viewport`.
    public var viewport: Viewport
    /// The ground under the viewport's corners: top-left, top-right,
    /// bottom-right, bottom-left (`Camera.wireRegion`: corners in the sky moved
    /// below the horizon; longitudes continuous around the camera's).
    public var corners: [GeoCoordinate]

    public init(client: String, name: String, state: FollowState, camera: Camera, viewport: Viewport, corners: [GeoCoordinate]) {
        self.client = client
        self.name = name
        self.state = state
        self.camera = camera
        self.viewport = viewport
        self.corners = corners
    }

    /// The view of `camera` seen in `viewport` on a map drawn in `projection`, its corners computed here.
    public init(client: String, name: String, state: FollowState, camera: Camera, viewport: Viewport, projection: MapProjection) {
        let corners = camera.wireRegion(in: viewport, projection: projection).quad
        self.init(client: client, name: name, state: state, camera: camera, viewport: viewport, corners: corners)
    }
}

extension JSONWriter {
    /// `[{"client":…,"name":…,"state":…,"camera":{…},"width":…,"height":…,"corners":[{"lat":…,"lon":…}×4]},…]` (`views`).
    mutating func memberViews(_ views: [MemberView]) {
        raw("[")
        for (i, v) in views.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"client\":")
            string(v.client)
            raw(",\"name\":")
            string(v.name)
            raw(",\"state\":")
            string(v.state.name)
            raw(",\"camera\":")
            camera(v.camera)
            raw(",\"width\":")
            number(v.viewport.width)
            raw(",\"height\":")
            number(v.viewport.height)
            raw(",\"corners\":[")
            for (j, corner) in v.corners.enumerated() {
                if j > 0 { raw(",") }
                geo(corner)
            }
            raw("]}")
        }
        raw("]")
    }
}

extension WireReader {
    /// The list `JSONWriter.memberViews` writes.
    func memberViews(_ key: String) throws(DecodingError) -> [MemberView] {
        var views: [MemberView] = []
        for v in try requiredObjects(key) {
            var corners: [GeoCoordinate] = []
            for c in try v.requiredObjects("corners") { corners.append(try c.geo()) }
            views.append(
                MemberView(
                    client: try v.requiredString("client"), name: try v.requiredString("name"), state: try v.followState("state"),
                    camera: try v.camera("camera"), viewport: Viewport(width: try v.requiredNumber("width"), height: try v.requiredNumber("height")),
                    corners: corners))
        }
        return views
    }
}
