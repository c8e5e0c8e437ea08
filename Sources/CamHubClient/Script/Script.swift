import CamHubProtocol
import CameraCore
import CameraMotion
import Foundation
import HubCore

/// A presenter script: a JSON list of steps that `camhub present` runs in
/// order. Command steps are protocol messages (same fields, checked by
/// HubCore's own decoder, so the rules are identical to the hub's); `wait`,
/// `waitFor` and timed gesture strokes are script-only steps.
///
/// ```json
/// [
///   {"type": "fly", "id": "paris", "camera": {"lat": 48.8566, "lon": 2.3522, "zoom": 11}},
///   {"type": "waitFor", "id": "paris"},
///   {"type": "wait", "seconds": 1.5},
///   {"type": "animate", "to": {"bearing": 90, "tilt": 50}, "duration": 3, "curve": "linear"},
///   {"type": "gesture", "kind": "pan", "from": {"x": 640, "y": 360}, "to": {"x": 400, "y": 360}, "duration": 1}
/// ]
/// ```
/// The whole script may also be an object `{"name": "...", "steps": [...]}`.
/// Every step may carry a `label` (text shown in the progress output).
public struct PresenterScript: Sendable {
    public var name: String?
    public var steps: [ScriptStep]

    /// Step types a script may use.
    public static let commandTypes = [
        "set", "ease", "fly", "animate", "cancel", "gesture", "gestures", "limits", "track", "route",
        "viewport", "summon", "followPolicy", "pointer",
    ]
    public static let stepTypes = commandTypes + ["wait", "waitFor"]

    /// Top-level fields each command step may have (besides `type` and `label`).
    /// Unknown top-level keys are errors in a script (the hub would ignore
    /// them, but in a hand-written file they are typos: `duraton`, `pitch`).
    static let commandKeys: [String: [String]] = [
        "set": ["camera"],
        "ease": ["id", "camera", "duration", "curve", "around", "essential"],
        "fly": ["id", "camera", "duration", "speed", "curve", "minZoom", "essential"],
        "animate": ["id", "to", "from", "duration", "curve", "delay", "after", "essential"],
        "cancel": ["id", "all"],
        "gesture": ["kind", "phase", "x", "y", "t", "scale", "rotation", "dy", "delta"],
        "gestures": ["disable", "enable"],
        "limits": ["minZoom", "maxZoom", "minTilt", "maxTilt", "maxTiltByZoom", "bounds"],
        "track": ["mode", "location"],
        "route": ["points", "append"],
        "viewport": ["width", "height"],
        "summon": ["id", "client"],
        "followPolicy": ["explore"],
        "pointer": ["lat", "lon"],
        "story": ["op", "steps", "step", "index", "from", "to", "drivers"],
        "step": ["to", "id"],
    ]
    static let strokeKeys = ["kind", "duration", "from", "to", "x", "y", "scale", "rotation", "dy", "rate", "momentum"]

    public init(name: String? = nil, steps: [ScriptStep]) {
        self.name = name
        self.steps = steps
    }

    /// Parses and validates a whole script. Throws the first problem, naming
    /// the step (1-based) and the field.
    public static func parse(_ text: String) throws(ScriptError) -> PresenterScript {
        let json: JSONValue
        do { json = try JSONParser.parse(text) } catch {
            let (line, column) = JSONParseError.lineAndColumn(of: error.offset, in: text)
            throw ScriptError(step: nil, type: nil, field: nil, "invalid JSON at line \(line), column \(column): \(error.reason)")
        }
        var name: String?
        let items: [JSONValue]
        switch json {
        case .array(let a):
            items = a
        case .object(let o):
            for key in o.keys.sorted() where !["name", "steps"].contains(key) {
                throw ScriptError(step: nil, type: nil, field: key, "unknown field in the script object (known: name, steps)")
            }
            if let n = o["name"] {
                guard case .string(let s) = n else { throw ScriptError(step: nil, type: nil, field: "name", "must be a string (got \(n.typeName))") }
                name = s
            }
            guard let s = o["steps"] else { throw ScriptError(step: nil, type: nil, field: "steps", "missing") }
            guard case .array(let a) = s else { throw ScriptError(step: nil, type: nil, field: "steps", "must be an array of steps (got \(s.typeName))") }
            items = a
        default:
            throw ScriptError(
                step: nil, type: nil, field: nil, "a script must be a JSON array of steps, or an object {\"steps\": [...]} (got \(json.typeName))")
        }
        guard !items.isEmpty else { throw ScriptError(step: nil, type: nil, field: "steps", "the script has no steps") }
        var builder = Builder(items: items)
        return PresenterScript(name: name, steps: try builder.build())
    }

    /// Total planned seconds of `wait` steps and strokes (the script's minimum run time).
    public var plannedSeconds: Double {
        steps.reduce(0) { sum, step in
            switch step.action {
            case .wait(let s): sum + s
            case .stroke(let stroke): sum + stroke.duration
            default: sum
            }
        }
    }
}

/// A rejected script: `step 3 (fly): camera.lat: must be within -90…90 degrees (got 91.0)`.
public struct ScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based step number (nil: the script as a whole).
    public var step: Int?
    public var type: String?
    /// The offending field's path inside the step (`camera.lat`, `seconds`, `curve[2]`).
    public var field: String?
    public var message: String

    public init(step: Int?, type: String?, field: String?, _ message: String) {
        self.step = step
        self.type = type
        self.field = field
        self.message = message
    }

    public var description: String {
        var s = ""
        if let step { s += "step \(step)" + (type.map { " (\($0))" } ?? "") + ": " }
        if let field { s += "\(field): " }
        return s + message
    }
}

/// One step of a script.
public struct ScriptStep: Sendable, Equatable {
    /// 1-based position in the script.
    public var number: Int
    public var type: String
    public var label: String?
    public var action: Action

    public enum Action: Sendable, Equatable {
        /// A protocol message sent as is (`text`), already validated by HubCore (`message`).
        /// `animationID`: the id of the animation it starts (fly/ease/animate;
        /// assigned `stepN` when the script gave none).
        case command(text: String, message: ClientMessage, animationID: String?)
        /// Pause for this many seconds (messages keep being reported).
        case wait(Double)
        /// Wait until the animation with this id ends (finished, superseded, cancelled or refused).
        case waitFor(id: String, timeout: Double)
        /// A timed gesture: begin, changes at `rate` Hz, end.
        case stroke(GestureStroke)
    }

    /// Seconds the animation this step starts should take, when known from
    /// the step alone (ease, animate, fly with `duration`).
    public var plannedAnimationSeconds: Double? {
        guard case .command(_, let message, _) = action else { return nil }
        switch message {
        case .ease(let e): return e.duration
        case .animate(let a): return a.delay + a.duration
        case .fly(let f): return f.duration
        default: return nil
        }
    }

    /// "fly paris → lat 48.8566 lon 2.3522 zoom 11" and the like.
    public var summary: String {
        var s = type
        switch action {
        case .command(_, let message, let id):
            if let id { s += " \(id)" }
            switch message {
            case .set(let u): s += " " + describe(u)
            case .ease(let e): s += " → " + describe(e.camera) + " in \(JSONWriter.plain(e.duration)) s"
            case .fly(let f): s += " → " + describe(f.camera) + (f.duration.map { " in \(JSONWriter.plain($0)) s" } ?? "")
            case .animate(let a):
                s += " → " + describe(a.to) + " in \(JSONWriter.plain(a.duration)) s"
                if let after = a.after { s += " after \(after)" }
                if a.delay > 0 { s += " +\(JSONWriter.plain(a.delay)) s" }
            case .cancel(let scope):
                switch scope {
                case .id(let id): s += " \(id)"
                case .own: s += " (mine)"
                case .all: s += " (all)"
                }
            case .gesture(let g): s += " \(g.kind.rawValue)" + (g.phase.map { " \($0.rawValue)" } ?? "")
            case .track(let t):
                s +=
                    (t.mode.map { " \($0.rawValue)" } ?? "")
                    + (t.location.map { " at \(JSONWriter.plain($0.latitude)),\(JSONWriter.plain($0.longitude))" } ?? "")
            case .route(let r): s += (r.append ? " + " : " ") + "\(r.points.count) point\(r.points.count == 1 ? "" : "s")"
            case .followPolicy(let explore): s += explore ? " unlock" : " lock"
            case .pointer(let at): s += at.map { " at \(JSONWriter.plain($0.latitude)),\(JSONWriter.plain($0.longitude))" } ?? " hidden"
            default: break
            }
        case .wait(let seconds): s += " \(JSONWriter.plain(seconds)) s"
        case .waitFor(let id, _): s += " \(id)"
        case .stroke(let stroke): s += " \(stroke.kind.rawValue) over \(JSONWriter.plain(stroke.duration)) s"
        }
        if let label { s += " — \(label)" }
        return s
    }

    private func describe(_ u: CameraUpdate) -> String {
        var parts: [String] = []
        if let v = u.latitude { parts.append("lat \(JSONWriter.plain(v))") }
        if let v = u.longitude { parts.append("lon \(JSONWriter.plain(v))") }
        if let v = u.zoom { parts.append("zoom \(JSONWriter.plain(v))") }
        if let v = u.bearing { parts.append("bearing \(JSONWriter.plain(v))") }
        if let v = u.tilt { parts.append("tilt \(JSONWriter.plain(v))") }
        if let v = u.roll { parts.append("roll \(JSONWriter.plain(v))") }
        if let v = u.elevation { parts.append("elevation \(JSONWriter.plain(v)) m") }
        if let v = u.fov { parts.append("fov \(JSONWriter.plain(v))") }
        if let a = u.anchor { parts.append("anchor \(JSONWriter.plain(a.x)),\(JSONWriter.plain(a.y))") }
        if let p = u.padding {
            let sides = [("top", p.top), ("left", p.left), ("bottom", p.bottom), ("right", p.right)]
            parts.append("padding " + sides.compactMap { name, v in v.map { "\(name) \(JSONWriter.plain($0))" } }.joined(separator: " "))
        }
        return parts.joined(separator: " ")
    }
}

/// A timed continuous gesture, expanded into protocol `gesture` messages.
public struct GestureStroke: Sendable, Equatable {
    public var kind: GestureKind
    public var duration: Double
    /// Messages to send, each at `offset` seconds after the stroke began: its wire text and the decoded message.
    public var messages: [(offset: Double, text: String, message: ClientMessage)]

    public static func == (a: GestureStroke, b: GestureStroke) -> Bool {
        a.kind == b.kind && a.duration == b.duration && a.messages.map(\.offset) == b.messages.map(\.offset)
            && a.messages.map(\.text) == b.messages.map(\.text)
    }
}

// MARK: - Validation

private struct Builder {
    let items: [JSONValue]
    /// Animation ids started by earlier steps.
    var known: Set<String> = []
    /// Every id the script names itself (so assigned ids never collide).
    var named: Set<String> = []

    init(items: [JSONValue]) {
        self.items = items
        for item in items {
            if case .string(let type)? = item["type"], ["fly", "ease", "animate"].contains(type),
                case .string(let id)? = item["id"]
            {
                named.insert(id)
            }
        }
    }

    mutating func build() throws(ScriptError) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        for (index, item) in items.enumerated() {
            steps.append(try step(number: index + 1, item))
        }
        return steps
    }

    func fail(_ n: Int, _ type: String?, _ field: String?, _ message: String) -> ScriptError {
        ScriptError(step: n, type: type, field: field, message)
    }

    mutating func step(number n: Int, _ item: JSONValue) throws(ScriptError) -> ScriptStep {
        guard case .object(var object) = item else { throw fail(n, nil, nil, "must be an object (got \(item.typeName))") }
        guard let typeValue = object["type"] else {
            throw fail(n, nil, "type", "missing (one of \(PresenterScript.stepTypes.joined(separator: ", ")))")
        }
        guard case .string(let type) = typeValue else { throw fail(n, nil, "type", "must be a string (got \(typeValue.typeName))") }
        var label: String?
        if let l = object.removeValue(forKey: "label") {
            guard case .string(let s) = l else { throw fail(n, type, "label", "must be a string (got \(l.typeName))") }
            guard s.unicodeScalars.count <= 200 else { throw fail(n, type, "label", "must be at most 200 characters") }
            label = s
        }
        let action: ScriptStep.Action
        switch type {
        case "wait":
            try rejectUnknown(object, ["seconds"], n, type)
            action = .wait(try number(object, "seconds", n, type, in: 0...3600, required: true)!)
        case "waitFor":
            try rejectUnknown(object, ["id", "timeout"], n, type)
            guard let idValue = object["id"] else { throw fail(n, type, "id", "missing (the id of an earlier fly, ease or animate step)") }
            guard case .string(let id) = idValue else { throw fail(n, type, "id", "must be a string (got \(idValue.typeName))") }
            guard known.contains(id) else {
                throw fail(n, type, "id", "unknown animation id '\(id)' (no earlier fly, ease or animate step has it\(knownList))")
            }
            let timeout = try number(object, "timeout", n, type, in: 0...3600, required: false) ?? 120
            guard timeout > 0 else { throw fail(n, type, "timeout", "must be greater than 0 (got 0)") }
            action = .waitFor(id: id, timeout: timeout)
        case "gesture" where object["duration"] != nil:
            action = .stroke(try stroke(object, n))
        case _ where PresenterScript.commandKeys[type] != nil:
            action = try command(type, object, n)
        case "hello", "ping", "query":
            throw fail(
                n, type, "type",
                "'\(type)' is not a script step (camhub present sends hello itself; steps are \(PresenterScript.stepTypes.joined(separator: ", ")))")
        default:
            throw fail(n, type, "type", "unknown step '\(type)' (known: \(PresenterScript.stepTypes.joined(separator: ", ")))")
        }
        return ScriptStep(number: n, type: type, label: label, action: action)
    }

    var knownList: String {
        known.isEmpty ? "" : "; known: " + known.sorted().joined(separator: ", ")
    }

    func rejectUnknown(_ object: [String: JSONValue], _ allowed: [String], _ n: Int, _ type: String) throws(ScriptError) {
        for key in object.keys.sorted() where key != "type" && !allowed.contains(key) {
            throw fail(n, type, key, "unknown field in a \(type) step (known: \((allowed + ["label"]).joined(separator: ", ")))")
        }
    }

    func number(
        _ object: [String: JSONValue], _ key: String, _ n: Int, _ type: String,
        in range: ClosedRange<Double>, required: Bool
    ) throws(ScriptError) -> Double? {
        guard let value = object[key] else {
            if required { throw fail(n, type, key, "missing") }
            return nil
        }
        guard case .number(let v) = value else { throw fail(n, type, key, "must be a finite number (got \(value.typeName))") }
        guard v.isFinite else { throw fail(n, type, key, "must be a finite number (got \(v))") }
        guard range.contains(v) else {
            throw fail(n, type, key, "must be within \(JSONWriter.plain(range.lowerBound))…\(JSONWriter.plain(range.upperBound)) (got \(v))")
        }
        return v
    }

    /// Runs HubCore's decoder over the step's wire text; its error becomes a step error.
    func decode(_ object: [String: JSONValue], _ n: Int, _ type: String) throws(ScriptError) -> (String, ClientMessage) {
        let text = JSONValue.object(object).text
        do {
            return (text, try ClientMessage.decode(text))
        } catch {
            // HubCore's messages start with the field path: "camera.lat: must be …".
            let message = error.message
            if let range = message.range(of: ": ") {
                let field = String(message[..<range.lowerBound])
                if !field.contains(" ") {
                    throw fail(n, type, field, String(message[range.upperBound...]))
                }
            }
            throw fail(n, type, nil, message)
        }
    }

    mutating func command(_ type: String, _ object: [String: JSONValue], _ n: Int) throws(ScriptError) -> ScriptStep.Action {
        var object = object
        guard let keys = PresenterScript.commandKeys[type] else {
            preconditionFailure("'\(type)' is not a command: a step is made a command only when `commandKeys` has its type")
        }
        try rejectUnknown(object, keys, n, type)
        var animationID: String?
        if type == "step", case .string(let id)? = object["id"] {
            animationID = id  // the step's move, for a later waitFor (a jump's or play's id is never started: give none)
        } else if ["fly", "ease", "animate"].contains(type) {
            if case .string(let id)? = object["id"] {
                animationID = id
            } else if object["id"] == nil {
                var id = "step\(n)"
                while named.contains(id) { id += "_" }
                animationID = id
                object["id"] = .string(id)
            }
        }
        let (text, message) = try decode(object, n, type)
        switch message {
        case .animate(let a):
            if let after = a.after, !known.contains(after) {
                throw fail(n, type, "after", "unknown animation id '\(after)' (no earlier fly, ease or animate step has it\(knownList))")
            }
        case .cancel(.id(let id)):
            if !known.contains(id) {
                throw fail(n, type, "id", "unknown animation id '\(id)' (no earlier fly, ease or animate step has it\(knownList))")
            }
        default:
            break
        }
        if let animationID { known.insert(animationID) }
        return .command(text: text, message: message, animationID: animationID)
    }

    func point(_ object: [String: JSONValue], _ key: String, _ n: Int) throws(ScriptError) -> ViewPoint? {
        guard let value = object[key] else { return nil }
        guard case .object(let o) = value else { throw fail(n, "gesture", key, "must be an object {\"x\", \"y\"} (got \(value.typeName))") }
        for k in o.keys.sorted() where k != "x" && k != "y" {
            throw fail(n, "gesture", "\(key).\(k)", "unknown field in \(key) (known: x, y)")
        }
        func coordinate(_ c: String) throws(ScriptError) -> Double {
            guard let v = o[c] else { throw fail(n, "gesture", "\(key).\(c)", "missing") }
            guard case .number(let d) = v, d.isFinite else {
                throw fail(n, "gesture", "\(key).\(c)", "must be a finite number (got \(v.numberValue.map { "\($0)" } ?? v.typeName))")
            }
            return d
        }
        return ViewPoint(x: try coordinate("x"), y: try coordinate("y"))
    }

    /// `{"type":"gesture","kind":"pan","from":{…},"to":{…},"duration":1}` and the
    /// pinch/tilt/rotate forms: values go linearly from the neutral start
    /// (scale 1, rotation 0, dy 0) to the given end over `duration` (seconds, at
    /// most 60), with `rate` `change` messages a second (1…120, default 60).
    ///
    /// Fields are checked in this order (the first problem is the one reported):
    /// unknown keys, kind, duration, rate, momentum, the focal point, the kind's own fields.
    func stroke(_ object: [String: JSONValue], _ n: Int) throws(ScriptError) -> GestureStroke {
        try rejectUnknown(object, PresenterScript.strokeKeys, n, "gesture")
        let kind = try strokeKind(object, n)
        guard let duration = try number(object, "duration", n, "gesture", in: 0...60, required: true), duration > 0 else {
            throw fail(n, "gesture", "duration", "must be greater than 0 (got 0)")
        }
        let rate = try number(object, "rate", n, "gesture", in: 1...120, required: false) ?? 60
        let momentum = try strokeMomentum(object, kind, n)
        let sample = try strokeSampler(object, kind, n)
        let messages = try strokeMessages(kind, duration: duration, rate: rate, momentum: momentum, sample: sample, n)
        return GestureStroke(kind: kind, duration: duration, messages: messages)
    }

    /// The stroke's `kind`: a gesture that lasts (pan, pinch, tilt or rotate).
    func strokeKind(_ object: [String: JSONValue], _ n: Int) throws(ScriptError) -> GestureKind {
        let t = "gesture"
        guard let kindValue = object["kind"] else { throw fail(n, t, "kind", "missing") }
        guard case .string(let kindName) = kindValue else { throw fail(n, t, "kind", "must be a string (got \(kindValue.typeName))") }
        guard let kind = GestureKind(rawValue: kindName) else {
            throw fail(n, t, "kind", "unknown gesture kind '\(kindName)' (known: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard kind.isContinuous else {
            throw fail(n, t, "duration", "only pan, pinch, tilt and rotate gestures take a duration (\(kindName) is instantaneous: send it without duration)")
        }
        return kind
    }

    /// `momentum` (a pan's only; default false): the finger lifts while still moving, so the hub flings.
    func strokeMomentum(_ object: [String: JSONValue], _ kind: GestureKind, _ n: Int) throws(ScriptError) -> Bool {
        guard let m = object["momentum"] else { return false }
        guard case .bool(let b) = m else { throw fail(n, "gesture", "momentum", "must be true or false (got \(m.typeName))") }
        guard kind == .pan else { throw fail(n, "gesture", "momentum", "only a pan has momentum") }
        return b
    }

    /// A stroke's fields at progress p (0…1): positions in view pixels, `scale` a factor,
    /// `rotation` in degrees, `dy` in pixels. Only the fields that change are there.
    typealias StrokeSample = (Double) -> [String: JSONValue]

    /// How the kind's fields go from the neutral start to the step's end values.
    /// Checks the kind's own fields, and that the step has none of another kind's.
    func strokeSampler(_ object: [String: JSONValue], _ kind: GestureKind, _ n: Int) throws(ScriptError) -> StrokeSample {
        let t = "gesture"
        let at = try focalPoint(object, n)
        switch kind {
        case .pan:
            try rejectUnused(["x", "y", "scale", "rotation", "dy"], object, kind, n)
            guard let from = try point(object, "from", n) else { throw fail(n, t, "from", "missing (the finger's start point {\"x\", \"y\"})") }
            guard let to = try point(object, "to", n) else { throw fail(n, t, "to", "missing (the finger's end point {\"x\", \"y\"})") }
            return { p in ["x": .number(from.x + (to.x - from.x) * p), "y": .number(from.y + (to.y - from.y) * p)] }
        case .pinch:
            try rejectUnused(["from", "to", "dy"], object, kind, n)
            guard let at else { throw fail(n, t, "x", "missing (the focal point x, y)") }
            guard let scale = try finite(object, "scale", n, required: true), scale > 0 else { throw fail(n, t, "scale", "must be greater than 0") }
            let rotation = try finite(object, "rotation", n, required: false) ?? 0
            return { p in
                ["x": .number(at.x), "y": .number(at.y), "scale": .number(exp(log(scale) * p)), "rotation": .number(rotation * p)]
            }
        case .tilt:
            try rejectUnused(["from", "to", "scale", "rotation"], object, kind, n)
            let dy = try finite(object, "dy", n, required: true)!
            return { p in Self.withFocalPoint(["dy": .number(dy * p)], at) }
        case .rotate:
            try rejectUnused(["from", "to", "scale", "dy"], object, kind, n)
            let rotation = try finite(object, "rotation", n, required: true)!
            return { p in Self.withFocalPoint(["rotation": .number(rotation * p)], at) }
        default:
            throw fail(n, t, "kind", "not a continuous gesture")
        }
    }

    /// A tilt's or rotate's fields, with the focal point when the step gives one.
    static func withFocalPoint(_ fields: [String: JSONValue], _ at: ViewPoint?) -> [String: JSONValue] {
        var o = fields
        if let at {
            o["x"] = .number(at.x)
            o["y"] = .number(at.y)
        }
        return o
    }

    /// The step's focal point `x`, `y` (view pixels), both or neither; nil when neither is given.
    func focalPoint(_ object: [String: JSONValue], _ n: Int) throws(ScriptError) -> ViewPoint? {
        guard object["x"] != nil || object["y"] != nil else { return nil }
        guard let x = try finite(object, "x", n, required: true), let y = try finite(object, "y", n, required: true) else {
            throw fail(n, "gesture", "x", "missing")
        }
        return ViewPoint(x: x, y: y)
    }

    /// Any finite number (nil when absent and not `required`).
    func finite(_ object: [String: JSONValue], _ key: String, _ n: Int, required: Bool) throws(ScriptError) -> Double? {
        try number(object, key, n, "gesture", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude, required: required)
    }

    /// Fails on the first of `keys` the step has: they belong to another kind of stroke.
    func rejectUnused(_ keys: [String], _ object: [String: JSONValue], _ kind: GestureKind, _ n: Int) throws(ScriptError) {
        for key in keys where object[key] != nil {
            throw fail(n, "gesture", key, "not used by a \(kind.rawValue) stroke")
        }
    }

    /// The stroke as protocol messages, each checked by HubCore's decoder: `begin` at 0,
    /// a `change` every 1/`rate` s up to `duration` (the last one at `duration`), then `end`.
    /// Offsets are seconds from the stroke's start.
    func strokeMessages(
        _ kind: GestureKind, duration: Double, rate: Double, momentum: Bool, sample: StrokeSample, _ n: Int
    ) throws(ScriptError) -> [(offset: Double, text: String, message: ClientMessage)] {
        var messages: [(offset: Double, text: String, message: ClientMessage)] = []
        func add(_ offset: Double, _ phase: String, _ fields: [String: JSONValue]) throws(ScriptError) {
            var o = fields
            o["type"] = .string("gesture")
            o["kind"] = .string(kind.rawValue)
            o["phase"] = .string(phase)
            let (text, message) = try decode(o, n, "gesture")
            messages.append((offset, text, message))
        }
        try add(0, "begin", sample(0))
        let count = max(1, Int((duration * rate).rounded(.up)))
        for k in 1...count {
            let offset = min(duration, Double(k) / rate)
            try add(offset, "change", sample(offset / duration))
        }
        // Without momentum, hold still past the hub's 50 ms fling window before lifting.
        try add(duration + (kind == .pan && !momentum ? 0.1 : 0), "end", [:])
        return messages
    }
}
