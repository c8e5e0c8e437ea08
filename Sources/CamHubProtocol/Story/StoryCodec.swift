import CameraCore
import CameraMotion

// MARK: Reading (client messages, the room store, the cluster)

extension ClientMessage {
    static let stepKeys = ["camera", "via", "duration", "speed", "curve", "hold", "title", "notes", "essential"]

    /// `story`: `op` (`set`, `insert`, `update`, `move`, `remove`) with its
    /// fields, and/or `drivers`. Every index is checked against `count`, the
    /// room's steps now, by the hub (`StoryState.apply`), not here.
    static func decodeStory(_ f: FieldReader) throws(ProtocolError) -> StoryCommand {
        let drivers = try f.bool("drivers")
        guard let opName = try f.string("op") else {
            guard drivers != nil else { throw f.fail("op", "missing (set, insert, update, move or remove)") }
            return StoryCommand(op: nil, drivers: drivers)
        }
        let op: StoryCommand.Op
        switch opName {
        case "set": op = .set(try decodeSteps(f, key: "steps", allowEmpty: true))
        case "insert": op = .insert(try decodeSteps(f, key: "steps", allowEmpty: false), at: try index(f, "index"))
        case "update":
            guard let step = try f.object("step") else { throw f.fail("step", "missing (the step that replaces step index)") }
            guard let at = try index(f, "index") else { throw f.fail("index", "missing (the step to replace, from 0)") }
            op = .update(try decodeStep(step), at: at)
        case "move":
            guard let from = try index(f, "from") else { throw f.fail("from", "missing (the step to move, from 0)") }
            guard let to = try index(f, "to") else { throw f.fail("to", "missing (its new position, from 0)") }
            op = .move(from: from, to: to)
        case "remove":
            guard let at = try index(f, "index") else { throw f.fail("index", "missing (the step to remove, from 0)") }
            op = .remove(at: at)
        default:
            throw f.fail("op", "unknown op '\(opName)' (known: set, insert, update, move, remove)")
        }
        return StoryCommand(op: op, drivers: drivers)
    }

    /// `step`: `to` is `next`, `previous`, `play`, `pause` or a step's index (from 0).
    static func decodeStepCommand(_ f: FieldReader) throws(ProtocolError) -> StepCommand {
        let id = try f.text("id")
        guard let value = f.object["to"] else { throw f.fail("to", "missing (next, previous, play, pause or a step's index)") }
        switch value {
        case .string("next"): return StepCommand(to: .next, id: id)
        case .string("previous"): return StepCommand(to: .previous, id: id)
        case .string("play"): return StepCommand(to: .play, id: id)
        case .string("pause"): return StepCommand(to: .pause, id: id)
        case .number:
            guard let i = try index(f, "to") else { throw f.fail("to", "missing") }
            return StepCommand(to: .index(i), id: id)
        case .string(let other):
            throw f.fail("to", "unknown step '\(other)' (next, previous, play, pause or a step's index)")
        default:
            throw f.fail("to", "must be next, previous, play, pause or a step's index (got \(value.typeName))")
        }
    }

    /// A whole number ≥ 0 under `key`, or nil when absent.
    private static func index(_ f: FieldReader, _ key: String) throws(ProtocolError) -> Int? {
        guard let v = try f.number(key) else { return nil }
        guard v >= 0, v == v.rounded(), v < Double(Int32.max) else {
            throw f.fail(f.name(key), "must be a whole number ≥ 0 (got \(v))")
        }
        return Int(v)
    }

    /// `steps`: an array of steps, at most `StoryLimits.steps`.
    static func decodeSteps(_ f: FieldReader, key: String, allowEmpty: Bool) throws(ProtocolError) -> [StoryStep] {
        guard let items = try f.array(key) else { throw f.fail(f.name(key), "missing (an array of steps)") }
        guard allowEmpty || !items.isEmpty else { throw f.fail(f.name(key), "must hold at least one step") }
        guard items.count <= StoryLimits.steps else {
            throw f.fail(f.name(key), "must hold at most \(StoryLimits.steps) steps (got \(items.count))")
        }
        var steps: [StoryStep] = []
        for (i, item) in items.enumerated() {
            guard case .object(let o) = item else { throw f.fail(f.name("\(key)[\(i)]"), "must be an object (got \(item.typeName))") }
            steps.append(try decodeStep(FieldReader(o, path: f.name("\(key)[\(i)]") + ".", ref: f.ref)))
        }
        return steps
    }

    /// One step: `camera` (lat, lon and zoom required; bearing, tilt, roll and
    /// elevation 0 and fov `Camera.defaultFov` when absent), `via`,
    /// `duration`, `speed` (fly), `curve` (ease), `hold`, `title`, `notes`, `essential`.
    static func decodeStep(_ f: FieldReader) throws(ProtocolError) -> StoryStep {
        try f.rejectUnknownKeys(stepKeys, of: f.path.isEmpty ? "step" : String(f.path.dropLast()))
        let update = try decodeCamera(f, key: "camera")
        for key in ["lat", "lon", "zoom"] where update.value(of: key) == nil {
            throw f.fail(f.name("camera.\(key)"), "missing (a step's camera needs lat, lon and zoom)")
        }
        var camera = Camera(
            latitude: update.latitude ?? 0, longitude: update.longitude ?? 0, zoom: update.zoom ?? 0, tilt: update.tilt ?? 0,
            bearing: update.bearing ?? 0, roll: update.roll ?? 0, elevation: update.elevation ?? 0, fov: update.fov ?? Camera.defaultFov)
        if let anchor = update.anchor { camera.anchor = anchor }
        if let padding = update.padding { camera.padding = padding.applied(to: .zero) }
        var step = StoryStep(camera: camera)
        step.writesPlacement = update.anchor != nil || update.padding != nil
        step.via = try f.enumeration("via", StoryVia.self, what: "way") ?? .fly
        step.duration = try f.number("duration", in: StoryLimits.duration, unit: " seconds")
        step.speed = try f.positiveNumber("speed", atMost: 100)
        if f.has("curve") {
            guard step.via == .ease else { throw f.fail(f.name("curve"), "only an ease has a curve (via is \(step.via.rawValue))") }
            step.curve = try decodeTimingCurve(f)
        }
        if step.via != .fly, step.speed != nil { throw f.fail(f.name("speed"), "only a flight has a speed (via is \(step.via.rawValue))") }
        if step.via == .jump, step.duration != nil { throw f.fail(f.name("duration"), "a jump takes no time (via is jump)") }
        step.hold = try f.number("hold", in: StoryLimits.hold, unit: " seconds")
        step.title = try storyText(f, "title", maxLength: StoryLimits.titleLength, newlines: false)
        step.notes = try storyText(f, "notes", maxLength: StoryLimits.notesLength, newlines: true)
        step.essential = try f.bool("essential") ?? false
        return step
    }

    /// Plain text of at most `maxLength` Unicode scalars, no control
    /// characters but new lines where `newlines`; nil when absent or empty.
    private static func storyText(_ f: FieldReader, _ key: String, maxLength: Int, newlines: Bool) throws(ProtocolError) -> String? {
        guard let s = try f.string(key), !s.isEmpty else { return nil }
        var count = 0
        for scalar in s.unicodeScalars {
            count += 1
            guard count <= maxLength else { throw f.fail(f.name(key), "must be at most \(maxLength) characters (got \(s.unicodeScalars.count))") }
            let v = scalar.value
            if newlines && v == 0x0A { continue }
            guard v >= 0x20 && !(0x7F...0x9F).contains(v) else {
                throw f.fail(f.name(key), newlines ? "must not contain control characters but new lines" : "must be one line without control characters")
            }
        }
        return s
    }
}

extension StoryState {
    /// Reads what `encoded` wrote (`{"steps":[…],"index":…,"playing":…,"drivers":…}`),
    /// validated as a client's steps are.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> StoryState {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw ProtocolError(.badMessage, error.description) }
        guard case .object(let object) = json else { throw ProtocolError(.badMessage, "story must be a JSON object (got \(json.typeName))") }
        return try decode(FieldReader(object, ref: nil))
    }

    /// The storyboard's fields of `f` (`steps`, `index` (null or absent: none), `playing`, `drivers`).
    static func decode(_ f: FieldReader) throws(ProtocolError) -> StoryState {
        var state = StoryState(steps: try ClientMessage.decodeSteps(f, key: "steps", allowEmpty: true))
        state.drivers = try f.bool("drivers") ?? false
        state.playing = try f.bool("playing") ?? false
        if f.object["index"] != .null, let i = try f.number("index") {
            guard i >= 0, i == i.rounded(), Int(i) < state.steps.count else {
                throw f.fail("index", "must be a step's index within 0…\(state.steps.count - 1) (got \(i))")
            }
            state.index = Int(i)
        }
        return state
    }

    /// `{"steps":[…],"index":…,"playing":…,"drivers":…}` (`index` only when
    /// on a step, `playing` and `drivers` only when true): what the room store
    /// and the cluster keep.
    public func encoded() -> [UInt8] {
        var w = JSONWriter(capacity: 64 + 160 * steps.count)
        w.raw("{\"steps\":")
        w.steps(steps)
        if let index { w.field("index", Double(index)) }
        if playing { w.field("playing", true) }
        if drivers { w.field("drivers", true) }
        w.raw("}")
        return w.bytes
    }
}

extension CameraUpdate {
    fileprivate func value(of key: String) -> Double? {
        switch key {
        case "lat": latitude
        case "lon": longitude
        case "zoom": zoom
        default: nil
        }
    }
}

// MARK: Writing

extension JSONWriter {
    /// `[step, …]`.
    public mutating func steps(_ steps: [StoryStep]) {
        array(steps) { $0.step($1) }
    }

    /// One step as `decodeStep` reads it: fields at their defaults are left out.
    public mutating func step(_ s: StoryStep) {
        object {
            $0.field("camera") { $0.stepCamera(s) }
            if s.via != .fly { $0.field("via", s.via.rawValue) }
            $0.field("duration", s.duration)
            $0.field("speed", s.speed)
            if let curve = s.curve { $0.field("curve") { $0.curve(curve) } }
            $0.field("hold", s.hold)
            $0.field("title", s.title)
            $0.field("notes", s.notes)
            if s.essential { $0.field("essential", true) }
        }
    }

    /// A step's camera as it was given (the longitude and bearing not wrapped, so
    /// that it reads back equal): centre, zoom, bearing, tilt; roll, elevation
    /// and fov when not at their defaults; anchor and padding when it writes them.
    public mutating func stepCamera(_ s: StoryStep) {
        let c = s.camera
        object {
            $0.field("lat", c.latitude)
            $0.field("lon", c.continuousLongitude)
            $0.field("zoom", c.zoom)
            $0.field("bearing", c.bearing)
            $0.field("tilt", c.tilt)
            if c.roll != 0 { $0.field("roll", c.roll) }
            if c.elevation != 0 { $0.field("elevation", c.elevation) }
            if c.fov != Camera.defaultFov { $0.field("fov", c.fov) }
            if s.writesPlacement {
                $0.field("anchor") { $0.viewPoint(ViewPoint(x: c.anchor.x, y: c.anchor.y)) }
                $0.field("padding") { $0.padding(PaddingUpdate(c.padding)) }
            }
        }
    }
}
