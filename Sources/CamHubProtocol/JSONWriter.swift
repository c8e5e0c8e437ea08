import CameraCore
import CameraMotion

/// Appends JSON to a byte buffer by hand (no JSONSerialization, no
/// intermediate dictionaries): the hub's per-frame encoding path.
///
/// Numbers are written with Swift's shortest round-trip representation
/// (`Double.description`), so a client parsing them gets the hub's exact
/// doubles. Non-finite numbers are never written: they become `null`.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends ASCII/UTF-8 text as it is (keys, punctuation).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a JSON value encoded before (e.g. another writer's `bytes`).
    public mutating func encoded(_ json: [UInt8]) { bytes.append(contentsOf: json) }

    public mutating func null() { raw("null") }

    public mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// A finite double in shortest round-trip form (`0.1`, `1e-05`, `100.0`); `null` when not finite.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A double as people write it: integral values without a fraction (`30`, `-2`), others in
    /// shortest round-trip form; `null` when not finite. Client messages are written so; the
    /// hub's own messages keep `number` (`30.0`), whose bytes clients and fixtures rely on.
    public mutating func plainNumber(_ value: Double) {
        guard value.isFinite, value == value.rounded(), abs(value) < 1e15 else { return number(value) }
        bytes.append(contentsOf: String(Int64(value)).utf8)
    }

    public mutating func number(_ value: Double?) {
        if let value { number(value) } else { null() }
    }

    public mutating func integer(_ value: UInt64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A JSON string literal: quotes, backslashes and control characters
    /// escaped (`\n`, `\t`, … or `\u00XX`), and U+2028/U+2029 escaped so the
    /// text is also safe inside JavaScript source. Other characters are
    /// copied as UTF-8.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Fast path: printable ASCII without quote or backslash (ids, most names).
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: value.utf8)
        } else {
            for scalar in value.unicodeScalars {
                switch scalar.value {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x00..<0x20, 0x7F:
                    raw("\\u00")
                    bytes.append(Self.hex[Int(scalar.value >> 4)])
                    bytes.append(Self.hex[Int(scalar.value & 0xF)])
                case 0x2028: raw("\\u2028")
                case 0x2029: raw("\\u2029")
                default:
                    UTF8.encode(scalar) { bytes.append($0) }
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// `value` as a JSON string literal (with the quotes).
    public static func quoted(_ value: String) -> String {
        var w = JSONWriter(capacity: value.utf8.count + 2)
        w.string(value)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    // MARK: Camera-domain values

    /// `{"lat":…,"lon":…,"zoom":…,"bearing":…,"tilt":…}` per second, each
    /// rounded to 1e-7 (a follower needs the slope, not the double's last
    /// bits: 1e-7 °/s is 0.15 px/s at zoom 20), then `"roll"`, `"elevation"`
    /// and `"fov"` each only when its rounded rate is not 0.
    public mutating func velocity(_ v: CameraVelocity) {
        func rounded(_ x: Double) -> Double { (x * 1e7).rounded() / 1e7 }
        raw("{\"lat\":")
        number(rounded(v.latitude))
        raw(",\"lon\":")
        number(rounded(v.longitude))
        raw(",\"zoom\":")
        number(rounded(v.zoom))
        raw(",\"bearing\":")
        number(rounded(v.bearing))
        raw(",\"tilt\":")
        number(rounded(v.tilt))
        let roll = rounded(v.roll)
        let elevation = rounded(v.elevation)
        let fov = rounded(v.fov)
        if roll != 0 {
            raw(",\"roll\":")
            number(roll)
        }
        if elevation != 0 {
            raw(",\"elevation\":")
            number(elevation)
        }
        if fov != 0 {
            raw(",\"fov\":")
            number(fov)
        }
        raw("}")
    }

    /// `{"lat":…,"lon":…,"zoom":…,"bearing":…,"tilt":…}`, then `"roll"`,
    /// `"elevation"` and `"fov"` each only when not at its default (0, 0,
    /// `Camera.defaultFov`: a flat camera reads as it did before they
    /// existed), `"anchor":{"x":…,"y":…}` when the anchor is not the centre and
    /// `"padding"` when there is some. Longitude wrapped to [-180, 180) (see
    /// `wireLongitude`), bearing to [0, 360).
    public mutating func camera(_ camera: Camera) {
        raw("{\"lat\":")
        number(camera.latitude)
        raw(",\"lon\":")
        number(Self.wireLongitude(camera.continuousLongitude))
        raw(",\"zoom\":")
        number(camera.zoom)
        raw(",\"bearing\":")
        number(normalizeBearing(camera.bearing))
        raw(",\"tilt\":")
        number(camera.tilt)
        if camera.roll != 0 {
            raw(",\"roll\":")
            number(camera.roll)
        }
        if camera.elevation != 0 {
            raw(",\"elevation\":")
            number(camera.elevation)
        }
        if camera.fov != Camera.defaultFov {
            raw(",\"fov\":")
            number(camera.fov)
        }
        if camera.anchor != .center {
            raw(",\"anchor\":{\"x\":")
            number(camera.anchor.x)
            raw(",\"y\":")
            number(camera.anchor.y)
            raw("}")
        }
        if camera.padding != .zero {
            let p = camera.padding
            raw(",\"padding\":{\"top\":")
            number(p.top)
            raw(",\"left\":")
            number(p.left)
            raw(",\"bottom\":")
            number(p.bottom)
            raw(",\"right\":")
            number(p.right)
            raw("}")
        }
        raw("}")
    }

    /// `longitude` wrapped to [-180, 180), returned unchanged (bit for bit)
    /// when it already is in range. (`wrapLongitude` computes
    /// `(l + 180) mod 360 - 180`, which rounds: 2.3522219 → 2.3522218999999893.)
    public static func wireLongitude(_ longitude: Double) -> Double {
        longitude >= -180 && longitude < 180 ? longitude : wrapLongitude(longitude)
    }

    /// `{"lat":…,"lon":…}` (longitude as given).
    public mutating func geo(_ geo: GeoCoordinate) {
        raw("{\"lat\":")
        number(geo.latitude)
        raw(",\"lon\":")
        number(geo.longitude)
        raw("}")
    }

    /// `{"x":…,"y":…}`.
    public mutating func point(_ point: ViewPoint) {
        raw("{\"x\":")
        number(point.x)
        raw(",\"y\":")
        number(point.y)
        raw("}")
    }

    /// `{"south":…,"west":…,"north":…,"east":…}`.
    public mutating func bounds(_ b: GeoBounds) {
        raw("{\"south\":")
        number(b.south)
        raw(",\"west\":")
        number(b.west)
        raw(",\"north\":")
        number(b.north)
        raw(",\"east\":")
        number(b.east)
        raw("}")
    }

    /// Same shape as the `limits` message, every field present (bounds null
    /// when none) but `maxRoll`, written only when it limits the roll (below 180).
    public mutating func limits(_ l: CameraLimits) {
        raw("{\"minZoom\":")
        number(l.minZoom)
        raw(",\"maxZoom\":")
        number(l.maxZoom)
        raw(",\"minTilt\":")
        number(l.minTilt)
        raw(",\"maxTilt\":")
        number(l.maxTilt)
        if l.maxRoll != CameraLimits.defaultMaxRoll {
            raw(",\"maxRoll\":")
            number(l.maxRoll)
        }
        raw(",\"maxTiltByZoom\":[")
        for (i, stop) in l.maxTiltByZoom.enumerated() {
            if i > 0 { raw(",") }
            raw("[")
            number(stop.zoom)
            raw(",")
            number(stop.tilt)
            raw("]")
        }
        raw("],\"bounds\":")
        if let b = l.bounds { bounds(b) } else { null() }
        raw("}")
    }

    /// `[{"lat":…,"lon":…},…]` with longitudes wrapped to [-180, 180).
    public mutating func route(_ points: [GeoCoordinate]) {
        raw("[")
        for (i, p) in points.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"lat\":")
            number(p.latitude)
            raw(",\"lon\":")
            number(Self.wireLongitude(p.longitude))
            raw("}")
        }
        raw("]")
    }

    /// `["center","zoom",…]` in `CameraProperties.names` order.
    public mutating func properties(_ p: CameraProperties) {
        raw("[")
        for (i, name) in p.names.enumerated() {
            if i > 0 { raw(",") }
            string(name)
        }
        raw("]")
    }
}

extension JSONWriter {
    /// `,"clients":…,"followers":…,"following":…,"exploring":…,"away":…`
    /// (the head counts of `welcome` and `audience`).
    mutating func audience(_ a: Audience) {
        raw(",\"clients\":")
        integer(UInt64(a.clients))
        raw(",\"followers\":")
        integer(UInt64(a.followers))
        raw(",\"following\":")
        integer(UInt64(max(0, a.follow.following)))
        raw(",\"exploring\":")
        integer(UInt64(max(0, a.follow.exploring)))
        raw(",\"away\":")
        integer(UInt64(max(0, a.follow.away)))
    }

    /// `{"by":…,"width":…,"height":…,"padding":{"top":…,"left":…,"bottom":…,"right":…}}` (`welcome.view`, `viewChanged`).
    mutating func view(_ v: RoomView) {
        raw("{\"by\":")
        string(v.by)
        raw(",\"width\":")
        number(v.viewport.width)
        raw(",\"height\":")
        number(v.viewport.height)
        raw(",\"padding\":{\"top\":")
        number(v.padding.top)
        raw(",\"left\":")
        number(v.padding.left)
        raw(",\"bottom\":")
        number(v.padding.bottom)
        raw(",\"right\":")
        number(v.padding.right)
        raw("}}")
    }
}
