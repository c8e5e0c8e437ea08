import CamHubProtocol
import HubCore

/// A camera as the hub sends it (always complete). Numbers are the hub's
/// exact doubles (HubCore's parser rounds correctly), so two of these
/// compare equal exactly when the hub's cameras were equal on the wire.
public struct WireCamera: Hashable, Sendable, CustomStringConvertible {
    public var lat: Double
    public var lon: Double
    public var zoom: Double
    public var bearing: Double
    public var tilt: Double
    /// nil: centred (the hub omits the anchor then).
    public var anchor: Anchor?

    public struct Anchor: Hashable, Sendable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public init(lat: Double, lon: Double, zoom: Double, bearing: Double, tilt: Double, anchor: Anchor? = nil) {
        self.lat = lat
        self.lon = lon
        self.zoom = zoom
        self.bearing = bearing
        self.tilt = tilt
        self.anchor = anchor
    }

    init?(_ value: JSONValue?) {
        guard let value, let lat = value["lat"]?.numberValue, let lon = value["lon"]?.numberValue,
            let zoom = value["zoom"]?.numberValue, let bearing = value["bearing"]?.numberValue,
            let tilt = value["tilt"]?.numberValue
        else { return nil }
        var anchor: Anchor?
        if let a = value["anchor"], let x = a["x"]?.numberValue, let y = a["y"]?.numberValue { anchor = Anchor(x: x, y: y) }
        self.init(lat: lat, lon: lon, zoom: zoom, bearing: bearing, tilt: tilt, anchor: anchor)
    }

    /// The camera as wire JSON (same field order as the hub).
    public var json: String {
        var s =
            "{\"lat\":\(lat.description),\"lon\":\(lon.description),\"zoom\":\(zoom.description),"
            + "\"bearing\":\(bearing.description),\"tilt\":\(tilt.description)"
        if let anchor { s += ",\"anchor\":{\"x\":\(anchor.x.description),\"y\":\(anchor.y.description)}" }
        return s + "}"
    }

    /// Short form for people: `lat 48.85660 lon 2.35220 zoom 12.00 bearing 30.0 tilt 45.0`.
    public var description: String {
        "lat \(fixed(lat, 5)) lon \(fixed(lon, 5)) zoom \(fixed(zoom, 2)) bearing \(fixed(bearing, 1)) tilt \(fixed(tilt, 1))"
            + (anchor.map { " anchor \(fixed($0.x, 2)),\(fixed($0.y, 2))" } ?? "")
    }
}

/// One hub → client message, decoded loosely (the hub is trusted; unknown
/// shapes become `.other`).
public enum Incoming: Sendable {
    case welcome(Welcome)
    case frame(Frame)
    case animation(Animation)
    case event(Event)
    case error(Failure)
    case pong(t: Double?, time: Double)
    case result(id: String?, raw: JSONValue)
    case other(type: String?, raw: JSONValue)

    public struct Welcome: Sendable {
        public var client: String
        public var room: String
        public var role: String
        public var rate: Double
        public var tick: Double
        public var time: Double
        public var seq: UInt64
        public var camera: WireCamera
    }

    public struct Frame: Sendable, Equatable {
        public var seq: UInt64
        /// Hub wall clock, ms since the Unix epoch.
        public var time: Double
        public var camera: WireCamera
        public var moving: Bool
        public var by: String?
        /// The room's pointer in this frame: shown (`pointer` set), hidden since the last frame
        /// (`pointerHidden`), or neither (nobody points).
        public var pointer: Pointer? = nil
        public var pointerHidden = false
    }

    /// A presenter's or driver's pointer on the map (`frame.pointer`).
    public struct Pointer: Sendable, Equatable {
        public var lat: Double
        public var lon: Double
        public var by: String
    }

    public struct Animation: Sendable, Equatable {
        public var id: String?
        /// `started`, `finished`, `cancelled`, `superseded`.
        public var status: String
        public var by: String?
        public var lost: [String]
        public var clamped: [String]
        public var camera: WireCamera?
        public var reason: String?
        public var time: Double
    }

    public struct Event: Sendable {
        public var event: String
        public var time: Double
        public var raw: JSONValue
    }

    public struct Failure: Sendable, Equatable {
        public var code: String
        public var message: String
        public var ref: String?
    }

    /// A binary message: a binary frame (`BinaryFrame`), with the JSON text of
    /// the frame that says the same; anything else is `.other`, its text the reason.
    public static func decode(binary bytes: [UInt8]) -> (Incoming, text: String) {
        do {
            let f = try BinaryFrame.decode(bytes)
            let anchor = f.anchor.map { WireCamera.Anchor(x: $0.x, y: $0.y) }
            var frame = Frame(
                seq: f.seq, time: f.time,
                camera: WireCamera(lat: f.latitude, lon: f.longitude, zoom: f.zoom, bearing: f.bearing, tilt: f.tilt, anchor: anchor),
                moving: f.moving, by: f.by)
            switch f.pointer {
            case .none: break
            case .hidden: frame.pointerHidden = true
            case .shown(let lat, let lon, let by): frame.pointer = Pointer(lat: lat, lon: lon, by: by)
            }
            return (.frame(frame), String(decoding: f.json, as: UTF8.self))
        } catch {
            return (.other(type: nil, raw: .null), error.description)
        }
    }

    public static func decode(_ text: String) -> Incoming? {
        guard let json = try? JSONParser.parse(text) else { return nil }
        return decode(json)
    }

    public static func decode(_ json: JSONValue) -> Incoming {
        let type = json["type"]?.stringValue
        switch type {
        case "frame":
            if let seq = json["seq"]?.numberValue, let time = json["time"]?.numberValue,
                let camera = WireCamera(json["camera"]), let moving = json["moving"]?.boolValue
            {
                var frame = Frame(seq: UInt64(max(0, seq)), time: time, camera: camera, moving: moving, by: json["by"]?.stringValue)
                if let p = json["pointer"], let lat = p["lat"]?.numberValue, let lon = p["lon"]?.numberValue,
                    let by = p["by"]?.stringValue
                {
                    frame.pointer = Pointer(lat: lat, lon: lon, by: by)
                }
                frame.pointerHidden = json["pointer"] == .null
                return .frame(frame)
            }
        case "welcome":
            if let client = json["client"]?.stringValue, let camera = WireCamera(json["camera"]) {
                return .welcome(
                    Welcome(
                        client: client, room: json["room"]?.stringValue ?? "", role: json["role"]?.stringValue ?? "",
                        rate: json["rate"]?.numberValue ?? 0, tick: json["tick"]?.numberValue ?? 0,
                        time: json["time"]?.numberValue ?? 0, seq: UInt64(max(0, json["seq"]?.numberValue ?? 0)),
                        camera: camera))
            }
        case "animation":
            if let status = json["status"]?.stringValue {
                func names(_ key: String) -> [String] { json[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
                return .animation(
                    Animation(
                        id: json["id"]?.stringValue, status: status, by: json["by"]?.stringValue,
                        lost: names("lost"), clamped: names("clamped"), camera: WireCamera(json["camera"]),
                        reason: json["reason"]?.stringValue, time: json["time"]?.numberValue ?? 0))
            }
        case "event":
            if let event = json["event"]?.stringValue {
                return .event(Event(event: event, time: json["time"]?.numberValue ?? 0, raw: json))
            }
        case "error":
            return .error(
                Failure(
                    code: json["code"]?.stringValue ?? "?", message: json["message"]?.stringValue ?? "",
                    ref: json["ref"]?.stringValue))
        case "pong":
            if let time = json["time"]?.numberValue { return .pong(t: json["t"]?.numberValue, time: time) }
        case "result":
            return .result(id: json["id"]?.stringValue, raw: json)
        default:
            break
        }
        return .other(type: type, raw: json)
    }
}

/// `value` with `digits` decimals (no Foundation formatting on the hot path).
package func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return value.description }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let negative = value < 0
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return value.description }
    let n = Int64(scaled)
    let whole = n / Int64(scale)
    var text = String(whole)
    if digits > 0 {
        var frac = String(n % Int64(scale))
        while frac.count < digits { frac = "0" + frac }
        text += "." + frac
    }
    return (negative && scaled != 0 ? "-" : "") + text
}
