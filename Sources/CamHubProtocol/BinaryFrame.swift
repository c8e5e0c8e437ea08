import CameraCore
import CameraMotion

/// How a client gets its frames (`hello.encoding`): JSON text, or the binary
/// layout below. Every other message stays JSON text either way.
public enum FrameEncoding: String, CaseIterable, Hashable, Sendable {
    case json
    case binary
}

/// The binary `frame`: the same fields as the JSON one, little-endian, in a
/// WebSocket binary message (docs/PROTOCOL.md, "Binary frames"). Doubles are
/// their IEEE 754 bits, so a decoded camera is the hub's camera to the bit.
///
/// ```
/// offset  size  field
///  0      1     kind: 1 (frame), or 2 (a frame whose camera has roll, elevation or fov)
///  1      1     flags: 0x01 moving, 0x02 corner, 0x04 velocity, 0x08 anchor,
///               0x10 padding, 0x20 epoch, 0x40 pointer shown, 0x80 pointer hidden
/// (kind 2 only)
///  2      1     3D flags: 0x01 roll, 0x02 elevation, 0x04 fov
/// then
///         8     seq (u64)
///         8     time (f64, ms since the Unix epoch)
///        40     camera: lat, lon, zoom, bearing, tilt (f64 each; lon in [-180, 180), bearing in [0, 360))
///               then, each only when its flag is set, in this order:
///       8 each  (kind 2) roll, elevation, fov (f64)
///       16      anchor: x, y (f64)
///       32      padding: top, left, bottom, right (f64)
///        8      epoch (u64)
///       20      velocity: lat, lon, zoom, bearing, tilt per second (f32; the JSON's values, rounded to 1e-7);
///       32      in kind 2: also roll, elevation, fov per second (eight f32s in all)
///        2+n    by: length (u16; 0xFFFF: null), then n bytes of UTF-8
///               pointer (flag 0x40): lat, lon (f64), by: length (u16), UTF-8
/// ```
/// A moving frame with its velocity is 83 bytes where its JSON is ~270. A
/// frame is kind 2 only when its camera has a roll, elevation or field of
/// view off its default or its velocity changes one of them, so a flat room's
/// frames are the kind 1 bytes clients without 3D read.
public enum BinaryFrame {
    /// The first byte of a binary frame message.
    public static let kind: UInt8 = 1
    /// The first byte of a binary frame whose camera has 3D fields (a second flags byte follows the first).
    public static let kind3D: UInt8 = 2

    /// The second flags byte of a kind 2 frame: which 3D fields follow the camera.
    public struct Flags3D: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let roll = Flags3D(rawValue: 0x01)
        public static let elevation = Flags3D(rawValue: 0x02)
        public static let fov = Flags3D(rawValue: 0x04)

        /// The fields `camera` has off their defaults.
        init(_ camera: Camera) {
            self = []
            if camera.roll != 0 { insert(.roll) }
            if camera.elevation != 0 { insert(.elevation) }
            if camera.fov != Camera.defaultFov { insert(.fov) }
        }
    }

    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let moving = Flags(rawValue: 0x01)
        public static let corner = Flags(rawValue: 0x02)
        public static let velocity = Flags(rawValue: 0x04)
        public static let anchor = Flags(rawValue: 0x08)
        public static let padding = Flags(rawValue: 0x10)
        public static let epoch = Flags(rawValue: 0x20)
        public static let pointerShown = Flags(rawValue: 0x40)
        public static let pointerHidden = Flags(rawValue: 0x80)
    }

    /// Marks a null `by` in place of a length.
    static let nullLength: UInt16 = 0xFFFF

    /// The frame's bytes; the same arguments as `HubMessage.frame`, which it mirrors field for field.
    public static func encode(
        seq: UInt64, time: Double, camera: Camera, moving: Bool, by: String?, corner: Bool = false, velocity: CameraVelocity? = nil,
        pointer: FramePointer = .none, epoch: UInt64 = 0
    ) -> [UInt8] {
        var flags: Flags = []
        if moving { flags.insert(.moving) }
        if corner { flags.insert(.corner) }
        if velocity != nil { flags.insert(.velocity) }
        if camera.anchor != .center { flags.insert(.anchor) }
        if camera.padding != .zero { flags.insert(.padding) }
        if epoch > 0 { flags.insert(.epoch) }
        switch pointer {
        case .none: break
        case .shown: flags.insert(.pointerShown)
        case .hidden: flags.insert(.pointerHidden)
        }
        let flags3D = Flags3D(camera)
        let is3D = !flags3D.isEmpty || !(velocity?.hasOnlyFlatRates ?? true)
        var w = BinaryWriter(capacity: 96)
        w.byte(is3D ? kind3D : kind)
        w.byte(flags.rawValue)
        if is3D { w.byte(flags3D.rawValue) }
        w.u64(seq)
        w.f64(time)
        w.f64(camera.latitude)
        w.f64(JSONWriter.wireLongitude(camera.continuousLongitude))
        w.f64(camera.zoom)
        w.f64(normalizeBearing(camera.bearing))
        w.f64(camera.tilt)
        if flags3D.contains(.roll) { w.f64(camera.roll) }
        if flags3D.contains(.elevation) { w.f64(camera.elevation) }
        if flags3D.contains(.fov) { w.f64(camera.fov) }
        if flags.contains(.anchor) {
            w.f64(camera.anchor.x)
            w.f64(camera.anchor.y)
        }
        if flags.contains(.padding) {
            for side in [camera.padding.top, camera.padding.left, camera.padding.bottom, camera.padding.right] { w.f64(side) }
        }
        if epoch > 0 { w.u64(epoch) }
        if let v = velocity {
            let rates = [v.latitude, v.longitude, v.zoom, v.bearing, v.tilt] + (is3D ? [v.roll, v.elevation, v.fov] : [])
            for rate in rates { w.f32(Float((rate * 1e7).rounded() / 1e7)) }
        }
        w.text(by)
        if case .shown(let p) = pointer {
            w.f64(p.latitude)
            w.f64(JSONWriter.wireLongitude(p.longitude))
            w.text(p.by)
        }
        return w.bytes
    }
}

/// Appends little-endian values to a byte array.
struct BinaryWriter {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func f64(_ value: Double) { u64(value.bitPattern) }

    mutating func f32(_ value: Float) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }

    /// A length-prefixed UTF-8 string (u16 length; `BinaryFrame.nullLength` for nil). Client ids are a few bytes.
    mutating func text(_ value: String?) {
        guard let value else { return u16(BinaryFrame.nullLength) }
        let utf8 = Array(value.utf8.prefix(Int(BinaryFrame.nullLength) - 1))
        u16(UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

extension BinaryFrame {
    /// A binary frame as a client reads it: the JSON frame's fields, numbers
    /// as the hub's exact doubles (the velocity as its float32s, widened).
    public struct Decoded: Hashable, Sendable {
        public var seq: UInt64
        /// Hub wall clock, ms since the Unix epoch.
        public var time: Double
        public var latitude, longitude, zoom, bearing, tilt: Double
        /// The camera's 3D fields (kind 2), their defaults in a kind 1 frame.
        public var roll = 0.0, elevation = 0.0, fov = Camera.defaultFov
        /// nil: centred.
        public var anchor: Anchor?
        /// nil: none.
        public var padding: EdgeInsets?
        public var moving: Bool
        public var corner: Bool
        public var by: String?
        /// 0: none (the in-memory engine).
        public var epoch: UInt64
        /// lat, lon, zoom, bearing, tilt per second (and roll, elevation, fov in a kind 2 frame); nil: none.
        public var velocity: [Double]?
        public var pointer: Pointer

        public enum Pointer: Hashable, Sendable {
            case none
            case hidden
            case shown(latitude: Double, longitude: Double, by: String)
        }
    }

    /// Why bytes are not a binary frame.
    public struct DecodingError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Reads one binary frame message.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodingError) -> Decoded {
        var r = BinaryReader(Array(bytes))
        let first = try r.byte("kind")
        guard first == kind || first == kind3D else {
            throw DecodingError(description: "binary message of kind \(first): only 1 (frame) and 2 (frame with 3D fields) exist")
        }
        let flags = Flags(rawValue: try r.byte("flags"))
        let flags3D = first == kind3D ? Flags3D(rawValue: try r.byte("flags3D")) : []
        var frame = Decoded(
            seq: try r.u64("seq"), time: try r.f64("time"),
            latitude: try r.f64("camera.lat"), longitude: try r.f64("camera.lon"), zoom: try r.f64("camera.zoom"),
            bearing: try r.f64("camera.bearing"), tilt: try r.f64("camera.tilt"),
            padding: nil, moving: flags.contains(.moving), corner: flags.contains(.corner), by: nil, epoch: 0,
            velocity: nil, pointer: .none)
        if flags3D.contains(.roll) { frame.roll = try r.f64("camera.roll") }
        if flags3D.contains(.elevation) { frame.elevation = try r.f64("camera.elevation") }
        if flags3D.contains(.fov) { frame.fov = try r.f64("camera.fov") }
        if flags.contains(.anchor) { frame.anchor = Anchor(x: try r.f64("anchor.x"), y: try r.f64("anchor.y")) }
        if flags.contains(.padding) {
            frame.padding = EdgeInsets(
                top: try r.f64("padding.top"), left: try r.f64("padding.left"), bottom: try r.f64("padding.bottom"),
                right: try r.f64("padding.right"))
        }
        if flags.contains(.epoch) { frame.epoch = try r.u64("epoch") }
        if flags.contains(.velocity) {
            let count = first == kind3D ? 8 : 5
            frame.velocity = try (0..<count).map { _ throws(DecodingError) in Double(try r.f32("velocity")) }
        }
        frame.by = try r.text("by")
        if flags.contains(.pointerShown) {
            let latitude = try r.f64("pointer.lat")
            let longitude = try r.f64("pointer.lon")
            guard let by = try r.text("pointer.by") else { throw DecodingError(description: "binary frame: pointer.by is null") }
            frame.pointer = Decoded.Pointer.shown(latitude: latitude, longitude: longitude, by: by)
        } else if flags.contains(.pointerHidden) {
            frame.pointer = Decoded.Pointer.hidden
        }
        guard r.isAtEnd else { throw DecodingError(description: "binary frame: \(r.remaining) bytes after its last field") }
        return frame
    }
}

/// Reads little-endian values, naming the field that ran past the end.
struct BinaryReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    private mutating func take(_ count: Int, _ field: String) throws(BinaryFrame.DecodingError) -> ArraySlice<UInt8> {
        guard remaining >= count else {
            throw BinaryFrame.DecodingError(
                description: "binary frame: \(field) needs \(count) bytes at offset \(offset), \(remaining) left")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func unsigned(_ count: Int, _ field: String) throws(BinaryFrame.DecodingError) -> UInt64 {
        try take(count, field).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func byte(_ field: String) throws(BinaryFrame.DecodingError) -> UInt8 { UInt8(try unsigned(1, field)) }
    mutating func u64(_ field: String) throws(BinaryFrame.DecodingError) -> UInt64 { try unsigned(8, field) }
    mutating func f64(_ field: String) throws(BinaryFrame.DecodingError) -> Double { Double(bitPattern: try unsigned(8, field)) }
    mutating func f32(_ field: String) throws(BinaryFrame.DecodingError) -> Float { Float(bitPattern: UInt32(try unsigned(4, field))) }

    mutating func text(_ field: String) throws(BinaryFrame.DecodingError) -> String? {
        let length = UInt16(try unsigned(2, field + " length"))
        guard length != BinaryFrame.nullLength else { return nil }
        return String(decoding: try take(Int(length), field), as: UTF8.self)
    }
}

extension BinaryFrame.Decoded {
    /// The JSON frame that says the same, field for field in the hub's order
    /// (`HubMessage.frame`): the same bytes, but for the velocity, whose
    /// float32s print as the doubles they widen to.
    public var json: [UInt8] {
        var w = JSONWriter(capacity: 320)
        w.raw("{\"type\":\"frame\",\"seq\":")
        w.integer(seq)
        w.raw(",\"time\":")
        w.number(time)
        w.raw(",\"camera\":")
        var camera = [("lat", latitude), ("lon", longitude), ("zoom", zoom), ("bearing", bearing), ("tilt", tilt)]
        if roll != 0 { camera.append(("roll", roll)) }
        if elevation != 0 { camera.append(("elevation", elevation)) }
        if fov != Camera.defaultFov { camera.append(("fov", fov)) }
        fields(camera, into: &w, close: false)
        if let anchor {
            w.raw(",\"anchor\":")
            fields([("x", anchor.x), ("y", anchor.y)], into: &w)
        }
        if let padding {
            w.raw(",\"padding\":")
            fields([("top", padding.top), ("left", padding.left), ("bottom", padding.bottom), ("right", padding.right)], into: &w)
        }
        w.raw("}")
        HubMessage.frameState(moving: moving, by: by, corner: corner, epoch: epoch, into: &w)
        if let velocity, velocity.count >= 5 {
            w.raw(",\"velocity\":")
            let names = ["lat", "lon", "zoom", "bearing", "tilt", "roll", "elevation", "fov"]
            fields(zip(names, velocity).enumerated().filter { $0.offset < 5 || $0.element.1 != 0 }.map(\.element), into: &w)
        }
        switch pointer {
        case .none: break
        case .hidden: w.raw(",\"pointer\":null")
        case .shown(let latitude, let longitude, let by):
            w.raw(",\"pointer\":")
            fields([("lat", latitude), ("lon", longitude)], into: &w, close: false)
            w.raw(",\"by\":")
            w.string(by)
            w.raw("}")
        }
        w.raw("}")
        return w.bytes
    }

    /// `{"k":v,…` of numbers, with the closing brace unless `close` is false.
    private func fields(_ pairs: [(String, Double)], into w: inout JSONWriter, close: Bool = true) {
        for (i, (key, value)) in pairs.enumerated() {
            w.raw(i == 0 ? "{" : ",")
            w.string(key)
            w.raw(":")
            w.number(value)
        }
        if close { w.raw("}") }
    }
}
