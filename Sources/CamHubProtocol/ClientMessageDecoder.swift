import CameraCore
import CameraMotion

extension ClientMessage {
    /// Decodes and validates one client text message.
    ///
    /// - `tick`: the room tick rate in Hz; `hello.rate` must lie within 1…tick.
    /// - Throws `ProtocolError`: `bad_message` for anything malformed (with
    ///   `close` set for an oversized message (1009) or invalid UTF-8 (1007)),
    ///   `unknown_type` for an unknown `type`. Messages name the field.
    /// - Unknown top-level keys are ignored (forward compatibility); unknown
    ///   keys inside nested objects (camera, anchor, around, viewport, bounds,
    ///   padding, location, points) are errors.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, tick: Double = HubProtocol.defaultTick) throws(ProtocolError) -> ClientMessage {
        guard bytes.count <= HubProtocol.maxMessageBytes else {
            throw ProtocolError(.badMessage, "message is larger than \(HubProtocol.maxMessageBytes) bytes", close: .messageTooBig)
        }
        guard UTF8Validation.isValid(bytes) else {
            throw ProtocolError(.badMessage, "message is not valid UTF-8", close: .invalidPayload)
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw ProtocolError(.badMessage, error.description)
        }
        guard case .object(let object) = json else {
            throw ProtocolError(.badMessage, "message must be a JSON object (got \(json.typeName))")
        }
        var ref: String?
        if case .string(let id)? = object["id"] { ref = id } else if case .string(let type)? = object["type"] { ref = type }
        let fields = FieldReader(object, ref: ref)
        guard let typeValue = object["type"] else { throw fields.fail("type", "missing") }
        guard case .string(let type) = typeValue else { throw fields.fail("type", "must be a string (got \(typeValue.typeName))") }
        switch type {
        case "hello": return .hello(try decodeHello(fields, tick: tick))
        case "set": return .set(try decodeCamera(fields, key: "camera"))
        case "ease": return .ease(try decodeEase(fields))
        case "fly": return .fly(try decodeFly(fields))
        case "animate": return .animate(try decodeAnimate(fields))
        case "cancel": return .cancel(try decodeCancel(fields))
        case "gesture": return .gesture(try decodeGesture(fields))
        case "gestures": return .gestures(try decodeGestureToggle(fields))
        case "viewport": return .viewport(try decodeViewport(fields))
        case "limits": return .limits(try decodeLimits(fields))
        case "track": return .track(try decodeTrack(fields))
        case "route": return .route(try decodeRoute(fields))
        case "query": return .query(try decodeQuery(fields))
        case "ping": return .ping(t: try fields.number("t"))
        case "follow": return .follow(try decodeFollow(fields))
        case "looking": return .looking(region: try decodeLooking(fields))
        case "summon": return .summon(id: try fields.text("id"), client: try fields.text("client"))
        case "pointer": return .pointer(try decodePointer(fields))
        case "refresh":
            guard let token = try fields.string("token") else { throw fields.fail("token", "missing (a signed room token)") }
            guard token.unicodeScalars.count <= HubProtocol.maxTokenLength else {
                throw fields.fail("token", "must be at most \(HubProtocol.maxTokenLength) characters")
            }
            return .refresh(token: token)
        case "fit":
            guard let mode = try fields.enumeration("mode", FitMode.self, what: "fit") else { throw fields.fail("mode", "missing (same or cover)") }
            return .fit(mode)
        case "projection": return .projection(try decodeProjection(fields))
        case "story": return .story(try decodeStory(fields))
        case "step": return .step(try decodeStepCommand(fields))
        case "followPolicy":
            guard let explore = try fields.bool("explore") else { throw fields.fail("explore", "missing (true allows exploring, false locks following)") }
            return .followPolicy(explore: explore)
        case "subscribe":
            guard fields.has("events") else { throw fields.fail("events", "missing (a list of event names; [] for none)") }
            return .subscribe(try decodeEvents(fields)!)
        default:
            throw ProtocolError(.unknownType, "type: unknown type '\(type)'", ref: ref)
        }
    }

    public static func decode(_ bytes: [UInt8], tick: Double = HubProtocol.defaultTick) throws(ProtocolError) -> ClientMessage {
        let result: Result<ClientMessage, ProtocolError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ProtocolError) -> ClientMessage in try decode(buffer, tick: tick) }
        }
        return try result.get()
    }

    public static func decode(_ text: String, tick: Double = HubProtocol.defaultTick) throws(ProtocolError) -> ClientMessage {
        try decode(Array(text.utf8), tick: tick)
    }

    // MARK: hello

    static func decodeHello(_ f: FieldReader, tick: Double) throws(ProtocolError) -> Hello {
        let roomText = try f.requiredString("room")
        let room: RoomName
        do { room = try RoomName(validating: roomText) } catch { throw f.fail(error) }
        let role = try f.enumeration("role", Role.self, what: "role")
        guard let role else { throw f.fail("role", "missing") }
        let name = try f.text("name")
        let token = try f.string("token")
        if let token, token.unicodeScalars.count > HubProtocol.maxTokenLength {
            throw f.fail("token", "must be at most \(HubProtocol.maxTokenLength) characters")
        }
        let maxRate = max(1, tick)
        let rate = try f.number("rate", in: 1...maxRate, unit: " frames per second")
        var viewport = Hello.defaultViewport
        if f.has("viewport") {
            viewport = try decodeViewport(try f.requiredObject("viewport"))
        }
        var hello = Hello(
            room: room, role: role, name: name, token: token, rate: rate, viewport: viewport,
            events: try decodeEvents(f))
        hello.fit = try f.enumeration("fit", FitMode.self, what: "fit") ?? .same
        hello.encoding = try f.enumeration("encoding", FrameEncoding.self, what: "encoding") ?? .json
        if let render = try f.object("render") { hello.render = try decodeRender(render) }
        return hello
    }

    /// `projection`: `mercator` or `globe`.
    static func decodeProjection(_ f: FieldReader) throws(ProtocolError) -> MapProjection {
        let known = MapProjection.allCases.map(\.rawValue).joined(separator: " or ")
        guard let value = f.object["projection"] else { throw f.fail("projection", "missing (\(known))") }
        guard case .string(let text) = value, let projection = MapProjection(rawValue: text) else {
            let got = if case .string(let text) = value { "'\(text)'" } else { value.typeName }
            throw f.fail("projection", "\(known) (got \(got))")
        }
        return projection
    }

    /// `hello.render`: `{"roll": bool, "maxTilt": whole degrees, "globe": bool}`, each defaulting to everything.
    static func decodeRender(_ r: FieldReader) throws(ProtocolError) -> RenderCapabilities {
        try r.rejectUnknownKeys(["roll", "maxTilt", "globe"], of: "render")
        var maxTilt = RenderCapabilities.all.maxTilt
        if let tilt = try r.number("maxTilt") {
            guard tilt.rounded() == tilt, abs(tilt) < 1e6 else {
                throw r.fail(r.name("maxTilt"), "must be a whole number of degrees (got \(format(tilt)))")
            }
            maxTilt = Int(tilt)
        }
        let roll = try r.bool("roll") ?? true
        let globe = try r.bool("globe") ?? true
        do {
            return try RenderCapabilities.validated(roll: roll, maxTilt: maxTilt, globe: globe)
        } catch {
            throw r.fail(error)
        }
    }

    /// `events`: a list of event names (see `EventSubscriptions.named`), or nil when absent.
    static func decodeEvents(_ f: FieldReader) throws(ProtocolError) -> EventSubscriptions? {
        guard let list = try f.array("events") else { return nil }
        var names: [String] = []
        for (i, value) in list.enumerated() {
            guard case .string(let name) = value else { throw f.fail("events[\(i)]", "must be a string (got \(value.typeName))") }
            names.append(name)
        }
        do { return try EventSubscriptions(names: names) } catch {
            throw ProtocolError(error.code, error.message, ref: f.ref)
        }
    }

    static func decodeViewport(_ f: FieldReader) throws(ProtocolError) -> Viewport {
        if !f.path.isEmpty { try f.rejectUnknownKeys(["width", "height"], of: String(f.path.dropLast())) }
        let width = try f.requiredNumber("width")
        let height = try f.requiredNumber("height")
        do { return try Viewport.validated(width: width, height: height) } catch { throw f.fail(error, prefix: f.path) }
    }

    // MARK: camera

    static let cameraKeys = ["lat", "lon", "zoom", "bearing", "tilt", "anchor", "padding", "roll", "elevation", "fov"]

    /// A partial camera under `key` (required, at least one field).
    static func decodeCamera(_ f: FieldReader, key: String) throws(ProtocolError) -> CameraUpdate {
        let c = try f.requiredObject(key)
        try c.rejectUnknownKeys(cameraKeys, of: key)
        var update = CameraUpdate()
        update.latitude = try c.number("lat")
        update.longitude = try c.number("lon")
        update.zoom = try c.number("zoom")
        update.bearing = try c.number("bearing")
        update.tilt = try c.number("tilt")
        update.roll = try c.number("roll")
        update.elevation = try c.number("elevation")
        update.fov = try c.number("fov")
        update.anchor = try c.viewPoint("anchor").map { Anchor(x: $0.x, y: $0.y) }
        if let p = try c.object("padding") {
            try p.rejectUnknownKeys(["top", "left", "bottom", "right"], of: c.path + "padding")
            let padding = PaddingUpdate(
                top: try p.number("top"), left: try p.number("left"), bottom: try p.number("bottom"),
                right: try p.number("right"))
            guard !padding.isEmpty else { throw f.fail(c.path + "padding", "must name at least one of top, left, bottom, right") }
            update.padding = padding
        }
        guard !update.isEmpty else {
            throw f.fail(key, "must name at least one of \(cameraKeys.joined(separator: ", "))")
        }
        do { try update.validate() } catch { throw f.fail(error, prefix: c.path) }
        return update
    }

    static func decodeTimingCurve(_ f: FieldReader) throws(ProtocolError) -> TimingCurve? {
        guard let value = f.object["curve"] else { return nil }
        switch value {
        case .string(let name):
            guard let curve = TimingCurve(name: name) else {
                throw f.fail("curve", "unknown curve '\(name)' (known: \(TimingCurve.names.joined(separator: ", ")), or [x1, y1, x2, y2])")
            }
            return curve
        case .array(let items):
            guard items.count == 4 else { throw f.fail("curve", "must have 4 numbers [x1, y1, x2, y2] (got \(items.count))") }
            var v: [Double] = []
            for (i, item) in items.enumerated() { v.append(try FieldReader.finite(item, field: "curve[\(i)]", reader: f)) }
            do { return try TimingCurve.bezier(v[0], v[1], v[2], v[3], field: "curve") } catch { throw f.fail(error) }
        default:
            throw f.fail("curve", "must be a curve name or [x1, y1, x2, y2] (got \(value.typeName))")
        }
    }

    static func decodeEase(_ f: FieldReader) throws(ProtocolError) -> EaseCommand {
        let id = try f.text("id")
        let camera = try decodeCamera(f, key: "camera")
        let duration = try f.number("duration", in: 0...60, unit: " seconds") ?? EaseCommand.defaultDuration
        let curve = try decodeTimingCurve(f) ?? .easeInOut
        let around = try f.viewPoint("around")
        if around != nil && (camera.latitude != nil || camera.longitude != nil) {
            throw f.fail("around", "cannot be combined with camera.lat/camera.lon (around keeps the point under it fixed)")
        }
        var command = EaseCommand(id: id, camera: camera, duration: duration, curve: curve, around: around)
        command.essential = try f.bool("essential") ?? false
        return command
    }

    static func decodeFly(_ f: FieldReader) throws(ProtocolError) -> FlyCommand {
        let id = try f.text("id")
        let camera = try decodeCamera(f, key: "camera")
        let duration = try f.number("duration", in: 0...60, unit: " seconds")
        let speed = try f.positiveNumber("speed", atMost: 100) ?? FlyCommand.defaultSpeed
        let curve = try f.positiveNumber("curve", atMost: 10) ?? FlyCommand.defaultCurve
        let minZoom = try f.number("minZoom", in: CameraLimits.zoomRange)
        var command = FlyCommand(id: id, camera: camera, duration: duration, speed: speed, curve: curve, minZoom: minZoom)
        command.essential = try f.bool("essential") ?? false
        return command
    }

    static func decodeAnimate(_ f: FieldReader) throws(ProtocolError) -> AnimateCommand {
        let id = try f.text("id")
        let to = try decodeCamera(f, key: "to")
        guard let duration = try f.number("duration", in: 0...60, unit: " seconds") else { throw f.fail("duration", "missing") }
        let curve = try decodeTimingCurve(f) ?? .easeInOut
        let delay = try f.number("delay", in: 0...3600, unit: " seconds") ?? 0
        let after = try f.text("after")
        if let after, after == id { throw f.fail("after", "an animation cannot wait for itself") }
        var from: CameraUpdate?
        if f.has("from") {
            let values = try decodeCamera(f, key: "from")
            do { try EaseRequest.validate(from: values, to: to) } catch { throw f.fail(error) }
            from = values
        }
        var command = AnimateCommand(id: id, to: to, duration: duration, curve: curve, delay: delay, after: after, from: from)
        command.essential = try f.bool("essential") ?? false
        return command
    }

    static func decodeCancel(_ f: FieldReader) throws(ProtocolError) -> CancelScope {
        let id = try f.text("id")
        let all = try f.bool("all") ?? false
        switch (id, all) {
        case (let id?, false): return .id(id)
        case (nil, true): return .all
        case (nil, false): return .own
        case (.some, true): throw f.fail("all", "cannot be combined with id")
        }
    }

    // MARK: gestures

    static func decodeGesture(_ f: FieldReader) throws(ProtocolError) -> GestureMessage {
        guard let kind = try f.enumeration("kind", GestureMessage.Kind.self, what: "gesture kind") else { throw f.fail("kind", "missing") }
        let phase = try f.enumeration("phase", GestureMessage.Phase.self, what: "phase")
        if phase == nil && !kind.isInstantaneous { throw f.fail("phase", "missing (required for \(kind.rawValue))") }
        var g = GestureMessage(kind: kind, phase: phase)
        g.x = try f.number("x")
        g.y = try f.number("y")
        g.t = try f.number("t")
        g.scale = try f.number("scale")
        g.rotation = try f.number("rotation")
        g.dy = try f.number("dy")
        g.delta = try f.number("delta")
        if let seq = try f.number("seq") {
            guard seq >= 0, seq <= 9_007_199_254_740_991, seq == seq.rounded() else {
                throw f.fail("seq", "must be a whole number within 0…9007199254740991 (got \(seq))")
            }
            g.seq = Int(seq)
        }
        if let scale = g.scale, scale <= 0 { throw f.fail("scale", "must be greater than 0 (got \(scale))") }
        if (g.x == nil) != (g.y == nil) { throw f.fail(g.x == nil ? "x" : "y", "missing (x and y come together)") }

        // A continuous gesture's (or a long press's) end or cancel needs nothing but the phase.
        if (!kind.isInstantaneous || kind == .longPress) && (phase == .end || phase == .cancel) { return g }
        func require(_ present: Bool, _ field: String) throws(ProtocolError) {
            guard present else { throw f.fail(field, "missing (required for \(kind.rawValue)\(phase.map { " " + $0.rawValue } ?? ""))") }
        }
        switch kind {
        case .pan, .doubleTap, .tap, .longPress:
            try require(g.x != nil, "x")
        case .pinch:
            try require(g.x != nil, "x")
            try require(g.scale != nil, "scale")
        case .scroll:
            try require(g.x != nil, "x")
            try require(g.delta != nil, "delta")
        case .tilt:
            try require(g.dy != nil, "dy")
        case .rotate:
            try require(g.rotation != nil, "rotation")
        case .twoFingerTap:
            break
        }
        return g
    }

    static func decodeGestureKinds(_ f: FieldReader, _ key: String) throws(ProtocolError) -> Set<GestureMessage.Kind> {
        guard let items = try f.array(key) else { return [] }
        var out: Set<GestureMessage.Kind> = []
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item else { throw f.fail("\(key)[\(i)]", "must be a string (got \(item.typeName))") }
            guard let kind = GestureMessage.Kind(rawValue: s) else {
                throw f.fail("\(key)[\(i)]", "unknown gesture kind '\(s)' (known: \(GestureMessage.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            out.insert(kind)
        }
        return out
    }

    static func decodeGestureToggle(_ f: FieldReader) throws(ProtocolError) -> GestureToggle {
        guard f.has("disable") || f.has("enable") else { throw f.fail("disable", "missing (give disable and/or enable)") }
        let toggle = GestureToggle(disable: try decodeGestureKinds(f, "disable"), enable: try decodeGestureKinds(f, "enable"))
        let both = toggle.disable.intersection(toggle.enable)
        if let kind = GestureMessage.Kind.allCases.first(where: both.contains) {
            throw f.fail("enable", "'\(kind.rawValue)' is also in disable")
        }
        return toggle
    }

    // MARK: limits

    static let limitKeys = ["minZoom", "maxZoom", "minTilt", "maxTilt", "maxTiltByZoom", "bounds", "maxRoll"]

    static func decodeLimits(_ f: FieldReader) throws(ProtocolError) -> CameraLimits.Change {
        var change = CameraLimits.Change()
        func scalar(_ key: String) throws(ProtocolError) -> CameraLimits.LimitChange<Double> {
            guard let value = f.object[key] else { return .keep }
            if value == .null { return .reset }
            return .set(try FieldReader.finite(value, field: key, reader: f))
        }
        change.minZoom = try scalar("minZoom")
        change.maxZoom = try scalar("maxZoom")
        change.minTilt = try scalar("minTilt")
        change.maxTilt = try scalar("maxTilt")
        change.maxRoll = try scalar("maxRoll")
        if let value = f.object["maxTiltByZoom"] {
            switch value {
            case .null: change.maxTiltByZoom = .reset
            case .array(let rows):
                var stops: [CameraLimits.TiltStop] = []
                for (i, row) in rows.enumerated() {
                    guard case .array(let pair) = row, pair.count == 2 else {
                        throw f.fail("maxTiltByZoom[\(i)]", "must be a pair [zoom, tilt]")
                    }
                    stops.append(
                        CameraLimits.TiltStop(
                            zoom: try FieldReader.finite(pair[0], field: "maxTiltByZoom[\(i)][0]", reader: f),
                            tilt: try FieldReader.finite(pair[1], field: "maxTiltByZoom[\(i)][1]", reader: f)))
                }
                change.maxTiltByZoom = .set(stops)
            default:
                throw f.fail("maxTiltByZoom", "must be an array of [zoom, tilt] pairs or null (got \(value.typeName))")
            }
        }
        if let value = f.object["bounds"] {
            if value == .null {
                change.bounds = .reset
            } else {
                let b = try decodeBounds(f, key: "bounds", validate: false)
                change.bounds = .set(b)
            }
        }
        guard change != CameraLimits.Change() else {
            throw f.fail("limits", "must name at least one of \(limitKeys.joined(separator: ", "))")
        }
        return change
    }

    /// `{"south","west","north","east"}` (all required, finite). Range checks
    /// only when `validate` (limits leave them to `CameraLimits.applying`).
    static func decodeBounds(_ f: FieldReader, key: String, validate: Bool) throws(ProtocolError) -> GeoBounds {
        let b = try f.requiredObject(key)
        try b.rejectUnknownKeys(["south", "west", "north", "east"], of: key)
        let south = try b.requiredNumber("south")
        let west = try b.requiredNumber("west")
        let north = try b.requiredNumber("north")
        let east = try b.requiredNumber("east")
        guard validate else { return GeoBounds(south: south, west: west, north: north, east: east) }
        do { return try GeoBounds.validated(south: south, west: west, north: north, east: east, prefix: b.path) } catch { throw f.fail(error) }
    }

    // MARK: route

    static func decodeRoute(_ f: FieldReader) throws(ProtocolError) -> RouteMessage {
        guard let items = try f.array("points") else { throw f.fail("points", "missing (a list of {lat, lon}; [] clears the route)") }
        guard items.count <= Route.maxPoints else {
            throw f.fail("points", "a route has at most \(Route.maxPoints) points (got \(items.count))")
        }
        var points: [GeoCoordinate] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .object(let o) = item else { throw f.fail("points[\(i)]", "must be an object {lat, lon} (got \(item.typeName))") }
            let p = FieldReader(o, path: "points[\(i)].", ref: f.ref)
            try p.rejectUnknownKeys(["lat", "lon"], of: "points[\(i)]")
            let lat = try p.requiredNumber("lat")
            guard abs(lat) <= 90 else { throw p.fail(p.name("lat"), "must be within -90…90 degrees (got \(lat))") }
            points.append(GeoCoordinate(latitude: lat, longitude: try p.requiredNumber("lon")))
        }
        let append = try f.bool("append") ?? false
        if append && points.isEmpty { throw f.fail("points", "must not be empty when appending") }
        if !append && points.count == 1 { throw f.fail("points", "a route needs at least 2 points (got 1); [] clears it") }
        return RouteMessage(points: points, append: append)
    }

    // MARK: follow

    /// `{"lat":…,"lon":…}` shows the pointer there; `{"lat":null}` hides it.
    static func decodePointer(_ f: FieldReader) throws(ProtocolError) -> GeoCoordinate? {
        guard let lat = f.object["lat"] else { throw f.fail("lat", "missing (a latitude, or null to hide the pointer)") }
        if lat == .null { return nil }
        let latitude = try f.requiredNumber("lat")
        guard abs(latitude) <= 90 else { throw f.fail("lat", "must be within -90…90 degrees (got \(latitude))") }
        return GeoCoordinate(latitude: latitude, longitude: try f.requiredNumber("lon"))
    }

    static func decodeFollow(_ f: FieldReader) throws(ProtocolError) -> FollowState {
        let known = FollowState.allCases.map(\.name).joined(separator: ", ")
        let name = try f.requiredString("state")
        guard let state = FollowState(name: name) else { throw f.fail("state", "unknown follow state '\(name)' (known: \(known))") }
        return state
    }

    /// `looking`: `region`, four `[lon, lat]` corners (finite, lat within ±90,
    /// lon wrapped to [-180, 180]), or `null` (the sender stopped sharing).
    static func decodeLooking(_ f: FieldReader) throws(ProtocolError) -> [GeoCoordinate]? {
        try f.rejectUnknownKeys(["type", "region"], of: "looking")
        let expected = "four [lon, lat] corners of the visible region, or null (stop sharing)"
        guard let value = f.object["region"] else { throw f.fail("region", "missing (\(expected))") }
        if value == .null { return nil }
        guard case .array(let items) = value else { throw f.fail("region", "must be \(expected) (got \(value.typeName))") }
        guard items.count == LookRegion.corners else { throw f.fail("region", "must be \(expected) (got \(items.count) corners)") }
        var region: [GeoCoordinate] = []
        for (i, item) in items.enumerated() {
            let field = "region[\(i)]"
            guard case .array(let pair) = item, pair.count == 2 else { throw f.fail(field, "must be [lon, lat] (got \(item.typeName))") }
            let lon = try FieldReader.finite(pair[0], field: field + "[0]", reader: f)
            let lat = try FieldReader.finite(pair[1], field: field + "[1]", reader: f)
            guard (-90...90).contains(lat) else { throw f.fail(field + "[1]", "latitude must be within [-90, 90] (got \(format(lat)))") }
            region.append(GeoCoordinate(latitude: lat, longitude: JSONWriter.wireLongitude(lon)))
        }
        return region
    }

    // MARK: track

    static func decodeTrack(_ f: FieldReader) throws(ProtocolError) -> TrackMessage {
        let mode = try f.enumeration("mode", TrackMessage.Mode.self, what: "tracking mode")
        var location: TrackMessage.Location?
        if let l = try f.object("location") {
            try l.rejectUnknownKeys(["lat", "lon", "heading"], of: "location")
            let lat = try l.requiredNumber("lat")
            guard abs(lat) <= 90 else { throw l.fail(l.name("lat"), "must be within -90…90 degrees (got \(lat))") }
            let lon = try l.requiredNumber("lon")
            let heading = try l.number("heading").map(normalizeBearing)
            location = TrackMessage.Location(latitude: lat, longitude: lon, heading: heading)
        }
        guard mode != nil || location != nil else { throw f.fail("mode", "missing (give mode and/or location)") }
        return TrackMessage(mode: mode, location: location)
    }

    // MARK: query

    static func decodeQuery(_ f: FieldReader) throws(ProtocolError) -> QueryCommand {
        guard let id = try f.text("id") else { throw f.fail("id", "missing") }
        let what = try f.requiredString("what")
        func points() throws(ProtocolError) -> [FieldReader] {
            guard let items = try f.array("points") else { throw f.fail("points", "missing") }
            guard items.count <= HubProtocol.maxQueryPoints else {
                throw f.fail("points", "at most \(HubProtocol.maxQueryPoints) points per query (got \(items.count))")
            }
            var out: [FieldReader] = []
            for (i, item) in items.enumerated() {
                guard case .object(let o) = item else { throw f.fail("points[\(i)]", "must be an object (got \(item.typeName))") }
                out.append(FieldReader(o, path: "points[\(i)].", ref: f.ref))
            }
            return out
        }
        switch what {
        case "project":
            var geos: [GeoCoordinate] = []
            for p in try points() {
                try p.rejectUnknownKeys(["lat", "lon"], of: String(p.path.dropLast()))
                let lat = try p.requiredNumber("lat")
                guard abs(lat) <= 90 else { throw p.fail(p.name("lat"), "must be within -90…90 degrees (got \(lat))") }
                geos.append(GeoCoordinate(latitude: lat, longitude: try p.requiredNumber("lon")))
            }
            return QueryCommand(id: id, what: .project(geos))
        case "unproject":
            var views: [ViewPoint] = []
            for p in try points() {
                try p.rejectUnknownKeys(["x", "y"], of: String(p.path.dropLast()))
                views.append(ViewPoint(x: try p.requiredNumber("x"), y: try p.requiredNumber("y")))
            }
            return QueryCommand(id: id, what: .unproject(views))
        case "bounds":
            return QueryCommand(id: id, what: .bounds)
        case "fit":
            let bounds = try decodeBounds(f, key: "bounds", validate: true)
            return QueryCommand(id: id, what: .fit(bounds, padding: try decodePadding(f)))
        case "story":
            return QueryCommand(id: id, what: .story)
        default:
            throw f.fail("what", "unknown query '\(what)' (known: project, unproject, bounds, fit, story)")
        }
    }

    static func decodePadding(_ f: FieldReader) throws(ProtocolError) -> EdgeInsets {
        guard let value = f.object["padding"] else { return EdgeInsets() }
        func side(_ v: Double, _ field: String) throws(ProtocolError) -> Double {
            guard v >= 0 else { throw f.fail(field, "must not be negative (got \(v))") }
            return v
        }
        switch value {
        case .number:
            return EdgeInsets(all: try side(try FieldReader.finite(value, field: "padding", reader: f), "padding"))
        case .object:
            let p = try f.requiredObject("padding")
            try p.rejectUnknownKeys(["top", "left", "bottom", "right"], of: "padding")
            var insets = EdgeInsets()
            if let v = try p.number("top") { insets.top = try side(v, "padding.top") }
            if let v = try p.number("left") { insets.left = try side(v, "padding.left") }
            if let v = try p.number("bottom") { insets.bottom = try side(v, "padding.bottom") }
            if let v = try p.number("right") { insets.right = try side(v, "padding.right") }
            return insets
        default:
            throw f.fail("padding", "must be a number or {top, left, bottom, right} (got \(value.typeName))")
        }
    }
}
