import CameraCore
import CameraMotion

extension ClientMessage {
    /// The message as the JSON text a client sends: `type` first, then the
    /// fields docs/PROTOCOL.md lists, in that order. Optional fields are left
    /// out when nil, and so are fields equal to the value the hub assumes
    /// without them (an ease's 1.5 s and `easeInOut`, a hello's 1280×720 viewport,
    /// `fit: same`, `encoding: json`), so that what a client writes is what
    /// people write by hand. `ClientMessage.decode` of the bytes gives back an
    /// equal message (doubles go shortest round-trip).
    public var encoded: [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.raw("{\"type\":")
        w.string(type)
        writeFields(into: &w)
        w.raw("}")
        return w.bytes
    }

    /// `encoded` as a string.
    public var json: String { String(decoding: encoded, as: UTF8.self) }

    private func writeFields(into w: inout JSONWriter) {
        switch self {
        case .hello(let h): h.write(into: &w)
        case .set(let camera): w.field("camera") { $0.cameraUpdate(camera) }
        case .ease(let e): e.write(into: &w)
        case .fly(let f): f.write(into: &w)
        case .animate(let a): a.write(into: &w)
        case .cancel(.id(let id)): w.field("id", id)
        case .cancel(.own): break
        case .cancel(.all): w.field("all", true)
        case .gesture(let g): g.write(into: &w)
        case .gestures(let t):
            // At least one of the two lists: `{"type":"gestures"}` alone is refused.
            if !t.disable.isEmpty || t.enable.isEmpty { w.field("disable") { $0.gestureKinds(t.disable) } }
            if !t.enable.isEmpty { w.field("enable") { $0.gestureKinds(t.enable) } }
        case .viewport(let v): v.writeFields(into: &w)
        case .limits(let change): change.writeFields(into: &w)
        case .track(let t): t.write(into: &w)
        case .query(let q): q.write(into: &w)
        case .ping(let t): w.field("t", t)
        case .subscribe(let events): w.field("events") { $0.names(events.names) }
        case .route(let r):
            w.field("points") { $0.array(r.points) { $0.geoPoint($1) } }
            if r.append { w.field("append", true) }
        case .follow(let state): w.field("state", state.name)
        case .looking(let region):
            w.field("region") { w in
                if let region { w.region(region) } else { w.null() }
            }
        case .summon(let id, let client):
            w.field("id", id)
            w.field("client", client)
        case .followPolicy(let explore): w.field("explore", explore)
        case .projection(let projection): w.field("projection", projection.rawValue)
        case .fit(let mode): w.field("mode", mode.rawValue)
        case .pointer(let at?):
            w.field("lat", at.latitude)
            w.field("lon", at.longitude)
        case .pointer(nil): w.field("lat") { $0.null() }
        case .refresh(let token): w.field("token", token)
        case .story(let story): story.writeFields(into: &w)
        case .step(let step):
            switch step.to {
            case .index(let i): w.field("to", Double(i))
            default: w.field("to", step.to.name)
            }
            w.field("id", step.id)
        }
    }
}

extension Hello {
    fileprivate func write(into w: inout JSONWriter) {
        w.field("room", room.value)
        w.field("role", role.rawValue)
        w.field("name", name)
        w.field("token", token)
        w.field("rate", rate)
        if viewport != Hello.defaultViewport { w.field("viewport") { $0.object { viewport.writeFields(into: &$0) } } }
        if let events { w.field("events") { $0.names(events.names) } }
        if fit != .same { w.field("fit", fit.rawValue) }
        if encoding != .json { w.field("encoding", encoding.rawValue) }
        if render != .all {
            w.field("render") {
                $0.object {
                    if !render.roll { $0.field("roll", false) }
                    if render.maxTilt != RenderCapabilities.all.maxTilt { $0.field("maxTilt", Double(render.maxTilt)) }
                    if !render.globe { $0.field("globe", false) }
                }
            }
        }
    }
}

extension EaseCommand {
    fileprivate func write(into w: inout JSONWriter) {
        w.field("id", id)
        w.field("camera") { $0.cameraUpdate(camera) }
        if duration != EaseCommand.defaultDuration { w.field("duration", duration) }
        if curve != .easeInOut { w.field("curve") { $0.curve(curve) } }
        if let around { w.field("around") { $0.viewPoint(around) } }
        if essential { w.field("essential", true) }
    }
}

extension FlyCommand {
    fileprivate func write(into w: inout JSONWriter) {
        w.field("id", id)
        w.field("camera") { $0.cameraUpdate(camera) }
        w.field("duration", duration)
        if speed != FlyCommand.defaultSpeed { w.field("speed", speed) }
        if curve != FlyCommand.defaultCurve { w.field("curve", curve) }
        w.field("minZoom", minZoom)
        if essential { w.field("essential", true) }
    }
}

extension AnimateCommand {
    fileprivate func write(into w: inout JSONWriter) {
        w.field("id", id)
        w.field("to") { $0.cameraUpdate(to) }
        w.field("duration", duration)
        if curve != .easeInOut { w.field("curve") { $0.curve(curve) } }
        if delay != 0 { w.field("delay", delay) }
        w.field("after", after)
        if let from { w.field("from") { $0.cameraUpdate(from) } }
        if essential { w.field("essential", true) }
    }
}

extension GestureInput {
    fileprivate func write(into w: inout JSONWriter) {
        w.field("kind", kind.rawValue)
        w.field("phase", phase?.rawValue)
        w.field("x", x)
        w.field("y", y)
        w.field("t", t)
        w.field("scale", scale)
        w.field("rotation", rotation)
        w.field("dy", dy)
        w.field("delta", delta)
        if let seq { w.field("seq") { $0.integer(UInt64(seq)) } }
    }
}

extension Viewport {
    fileprivate func writeFields(into w: inout JSONWriter) {
        w.field("width", width)
        w.field("height", height)
    }
}

extension CameraLimits.Change {
    fileprivate func writeFields(into w: inout JSONWriter) {
        w.limit("minZoom", minZoom) { $0.plainNumber($1) }
        w.limit("maxZoom", maxZoom) { $0.plainNumber($1) }
        w.limit("minTilt", minTilt) { $0.plainNumber($1) }
        w.limit("maxTilt", maxTilt) { $0.plainNumber($1) }
        w.limit("maxTiltByZoom", maxTiltByZoom) { $0.array($1) { $0.array([$1.zoom, $1.tilt]) { $0.plainNumber($1) } } }
        w.limit("bounds", bounds) { $0.geoBounds($1) }
        w.limit("maxRoll", maxRoll) { $0.plainNumber($1) }
    }
}

extension TrackMessage {
    fileprivate func write(into w: inout JSONWriter) {
        w.field("mode", mode?.rawValue)
        guard let location else { return }
        w.field("location") { w in
            w.object {
                $0.field("lat", location.latitude)
                $0.field("lon", location.longitude)
                $0.field("heading", location.heading)
            }
        }
    }
}

extension QueryCommand {
    fileprivate func write(into w: inout JSONWriter) {
        w.field("id", id)
        w.field("what", what.name)
        switch what {
        case .project(let points): w.field("points") { $0.array(points) { $0.geoPoint($1) } }
        case .unproject(let points): w.field("points") { $0.array(points) { $0.viewPoint($1) } }
        case .bounds, .story: break
        case .fit(let bounds, let padding):
            w.field("bounds") { $0.geoBounds(bounds) }
            if padding != EdgeInsets() { w.field("padding") { $0.padding(PaddingUpdate(padding)) } }
        }
    }
}

extension StoryCommand {
    fileprivate func writeFields(into w: inout JSONWriter) {
        switch op {
        case nil: break
        case .set(let steps):
            w.field("op", "set")
            w.field("steps") { $0.steps(steps) }
        case .insert(let steps, let at):
            w.field("op", "insert")
            w.field("steps") { $0.steps(steps) }
            w.field("index", at.map(Double.init))
        case .update(let step, let at):
            w.field("op", "update")
            w.field("index", Double(at))
            w.field("step") { $0.step(step) }
        case .move(let from, let to):
            w.field("op", "move")
            w.field("from", Double(from))
            w.field("to", Double(to))
        case .remove(let at):
            w.field("op", "remove")
            w.field("index", Double(at))
        }
        if let drivers { w.field("drivers", drivers) }
    }
}

extension JSONWriter {
    /// `,"key":` then what `value` writes (every field follows `type`, so each starts with a comma).
    mutating func field(_ key: StaticString, _ value: (inout JSONWriter) -> Void) {
        raw(",\"")
        raw(key)
        raw("\":")
        value(&self)
    }

    mutating func field(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        field(key) { $0.string(value) }
    }

    mutating func field(_ key: StaticString, _ value: Double?) {
        guard let value else { return }
        field(key) { $0.plainNumber(value) }
    }

    mutating func field(_ key: StaticString, _ value: Bool) { field(key) { $0.bool(value) } }

    /// A limit's change: nothing for `keep`, `null` for `reset`, the value for `set`.
    fileprivate mutating func limit<Value>(
        _ key: StaticString, _ change: CameraLimits.LimitChange<Value>, _ write: (inout JSONWriter, Value) -> Void
    ) {
        switch change {
        case .keep: break
        case .reset: field(key) { $0.null() }
        case .set(let value): field(key) { write(&$0, value) }
        }
    }

    /// `{` fields `}`: `fields` writes `,"key":value` pairs; the first comma is dropped.
    mutating func object(_ fields: (inout JSONWriter) -> Void) {
        var inner = JSONWriter(capacity: 64)
        fields(&inner)
        raw("{")
        encoded(Array(inner.bytes.dropFirst()))
        raw("}")
    }

    mutating func array<Item>(_ items: [Item], _ write: (inout JSONWriter, Item) -> Void) {
        raw("[")
        for (i, item) in items.enumerated() {
            if i > 0 { raw(",") }
            write(&self, item)
        }
        raw("]")
    }

    fileprivate mutating func geoPoint(_ g: GeoCoordinate) {
        object {
            $0.field("lat", g.latitude)
            $0.field("lon", g.longitude)
        }
    }

    mutating func viewPoint(_ p: ViewPoint) {
        object {
            $0.field("x", p.x)
            $0.field("y", p.y)
        }
    }

    fileprivate mutating func geoBounds(_ b: GeoBounds) {
        object {
            $0.field("south", b.south)
            $0.field("west", b.west)
            $0.field("north", b.north)
            $0.field("east", b.east)
        }
    }

    fileprivate mutating func names(_ names: [String]) { array(names) { $0.string($1) } }

    fileprivate mutating func gestureKinds(_ kinds: Set<GestureKind>) {
        names(GestureKind.allCases.filter(kinds.contains).map(\.rawValue))
    }

    mutating func curve(_ curve: TimingCurve) {
        switch curve {
        case .linear: string("linear")
        case .easeIn: string("easeIn")
        case .easeOut: string("easeOut")
        case .easeInOut: string("easeInOut")
        case .cubicBezier(let x1, let y1, let x2, let y2): array([x1, y1, x2, y2]) { $0.plainNumber($1) }
        }
    }

    /// `{"top":…,"left":…,"bottom":…,"right":…}`: the sides given.
    mutating func padding(_ p: PaddingUpdate) {
        object {
            $0.field("top", p.top)
            $0.field("left", p.left)
            $0.field("bottom", p.bottom)
            $0.field("right", p.right)
        }
    }

    /// A partial camera: only the fields it names.
    mutating func cameraUpdate(_ c: CameraUpdate) {
        object {
            $0.field("lat", c.latitude)
            $0.field("lon", c.longitude)
            $0.field("zoom", c.zoom)
            $0.field("bearing", c.bearing)
            $0.field("tilt", c.tilt)
            $0.field("roll", c.roll)
            $0.field("elevation", c.elevation)
            $0.field("fov", c.fov)
            if let anchor = c.anchor { $0.field("anchor") { $0.viewPoint(ViewPoint(x: anchor.x, y: anchor.y)) } }
            if let p = c.padding { $0.field("padding") { $0.padding(p) } }
        }
    }
}
