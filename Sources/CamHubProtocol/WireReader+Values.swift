import CameraCore
import CameraMotion

/// The camera-domain values of hub messages, read back from what `JSONWriter` writes.
extension WireReader {
    /// A camera (`JSONWriter.camera`): lat, lon, zoom, bearing, tilt; roll,
    /// elevation and fov when not at their defaults; `anchor` and `padding`
    /// when not centred and not zero. The wire holds
    /// the longitude wrapped to [-180, 180) and the bearing in [0, 360): a
    /// camera written with others (a continuous longitude of 181, a bearing
    /// of -90) comes back wrapped.
    func camera(_ key: String) throws(DecodingError) -> Camera {
        try Self.camera(try requiredObject(key))
    }

    /// The camera `key`, or nil when absent or null.
    func optionalCamera(_ key: String) throws(DecodingError) -> Camera? {
        guard let c = try object(key) else { return nil }
        return try Self.camera(c)
    }

    static func camera(_ c: WireReader) throws(DecodingError) -> Camera {
        var camera = Camera(
            latitude: try c.requiredNumber("lat"), longitude: try c.requiredNumber("lon"), zoom: try c.requiredNumber("zoom"),
            tilt: try c.requiredNumber("tilt"), bearing: try c.requiredNumber("bearing"), roll: try c.number("roll") ?? 0,
            elevation: try c.number("elevation") ?? 0, fov: try c.number("fov") ?? Camera.defaultFov)
        if let a = try c.object("anchor") { camera.anchor = Anchor(x: try a.requiredNumber("x"), y: try a.requiredNumber("y")) }
        if let p = try c.object("padding") { camera.padding = try p.insets() }
        return camera
    }

    /// This object's `top`, `left`, `bottom`, `right`.
    func insets() throws(DecodingError) -> EdgeInsets {
        EdgeInsets(
            top: try requiredNumber("top"), left: try requiredNumber("left"), bottom: try requiredNumber("bottom"),
            right: try requiredNumber("right"))
    }

    /// `{"south","west","north","east"}` as it is (not validated).
    func bounds() throws(DecodingError) -> GeoBounds {
        GeoBounds(
            south: try requiredNumber("south"), west: try requiredNumber("west"), north: try requiredNumber("north"),
            east: try requiredNumber("east"))
    }

    /// Limits (`JSONWriter.limits`), every field required, validated as the
    /// hub validates them (the hub only holds valid limits, so valid ones come
    /// back equal); an invalid one is named (`limits.minZoom: must not exceed maxZoom …`).
    func limits(_ key: String) throws(DecodingError) -> CameraLimits {
        let l = try requiredObject(key)
        let minZoom = try l.requiredNumber("minZoom")
        let maxZoom = try l.requiredNumber("maxZoom")
        let minTilt = try l.requiredNumber("minTilt")
        let maxTilt = try l.requiredNumber("maxTilt")
        var stops: [CameraLimits.TiltStop] = []
        for item in try l.requiredArray("maxTiltByZoom") {
            guard case .array(let pair) = item.value, pair.count == 2 else {
                let got = item.value.arrayValue.map { "\($0.count) items" } ?? item.value.typeName
                throw DecodingError(field: item.field, message: "must be a [zoom, tilt] pair (got \(got))")
            }
            stops.append(
                CameraLimits.TiltStop(
                    zoom: try Self.number(pair[0], field: item.field + "[0]"), tilt: try Self.number(pair[1], field: item.field + "[1]")))
        }
        let bounds = try l.object("bounds")?.bounds()
        let maxRoll = try l.number("maxRoll") ?? CameraLimits.defaultMaxRoll
        do {
            return try CameraLimits(
                minZoom: minZoom, maxZoom: maxZoom, minTilt: minTilt, maxTilt: maxTilt, maxTiltByZoom: stops, bounds: bounds,
                maxRoll: maxRoll)
        } catch {
            throw DecodingError(field: l.path + error.field, message: error.message)
        }
    }

    /// This object's `lat` and `lon`.
    func geo() throws(DecodingError) -> GeoCoordinate {
        GeoCoordinate(latitude: try requiredNumber("lat"), longitude: try requiredNumber("lon"))
    }

    /// An array of `{"lat","lon"}` (`JSONWriter.route`: longitudes wrapped to [-180, 180)).
    func route(_ key: String) throws(DecodingError) -> [GeoCoordinate] {
        var points: [GeoCoordinate] = []
        for p in try requiredObjects(key) { points.append(try p.geo()) }
        return points
    }

    /// Two numbers of this object that go together (`x`/`y`, `lat`/`lon`):
    /// nil when both are absent or null, an error naming the one missing when
    /// only one is given.
    func pair(_ first: String, _ second: String) throws(DecodingError) -> (Double, Double)? {
        let a = try number(first)
        let b = try number(second)
        switch (a, b) {
        case (let a?, let b?): return (a, b)
        case (nil, nil): return nil
        case (nil, _): throw fail(first, "missing (\(name(second)) is given)")
        case (_, nil): throw fail(second, "missing (\(name(first)) is given)")
        }
    }

    /// This object's `x` and `y` as a view point, nil when neither is given.
    func viewPoint() throws(DecodingError) -> ViewPoint? {
        try pair("x", "y").map { ViewPoint(x: $0.0, y: $0.1) }
    }

    /// This object's `lat` and `lon` as a geo point, nil when neither is given.
    func optionalGeo() throws(DecodingError) -> GeoCoordinate? {
        try pair("lat", "lon").map { GeoCoordinate(latitude: $0.0, longitude: $0.1) }
    }

    /// A list of property names (`JSONWriter.properties`); names this version
    /// does not know are dropped.
    func properties(_ key: String) throws(DecodingError) -> CameraProperties {
        var out: CameraProperties = []
        for name in try requiredStrings(key) {
            if let p = CameraProperties(name: name) { out.insert(p) }
        }
        return out
    }

    /// A list of gesture kinds; kinds this version does not know are dropped.
    func gestureKinds(_ key: String) throws(DecodingError) -> Set<GestureKind> {
        Set(try requiredStrings(key).compactMap { GestureKind(rawValue: $0) })
    }

    /// This object as a room view (`JSONWriter.view`).
    func roomView() throws(DecodingError) -> RoomView {
        RoomView(
            by: try requiredString("by"), viewport: Viewport(width: try requiredNumber("width"), height: try requiredNumber("height")),
            padding: try requiredObject("padding").insets())
    }

    /// The head counts `JSONWriter.audience` writes (`welcome`, `audience`).
    /// Negative follow counts are written as 0.
    func audience() throws(DecodingError) -> Audience {
        let follow = FollowCounts(
            following: try requiredInt("following"), exploring: try requiredInt("exploring"), away: try requiredInt("away"))
        return Audience(clients: try requiredInt("clients"), followers: try requiredInt("followers"), follow: follow)
    }

    /// A follow state by its wire name.
    func followState(_ key: String) throws(DecodingError) -> FollowState {
        let s = try requiredString(key)
        guard let state = FollowState(name: s) else { throw fail(key, "unknown follow state '\(s)'") }
        return state
    }

    /// A roster entry: `client`, `name`, `role`, and `follow` when the wire has
    /// it (`welcome.roster`; `joined` and `left` leave it out: `.following`).
    func rosterEntry(follow key: String?) throws(DecodingError) -> RosterEntry {
        var entry = RosterEntry(
            client: try requiredString("client"), name: try requiredString("name"), role: try requiredEnumeration("role", Role.self, what: "role"))
        if let key { entry.follow = try followState(key) }
        return entry
    }
}
