import CamHubProtocol
import CameraCore

/// Reading what the hub sends: the protocol module's typed decoder
/// (`HubToClient`), with what this library adds for people and logs.
extension HubToClient {
    /// A text message as this client reads it. One it cannot read comes as
    /// `.unknown` with an empty type and the reason as its value.
    public static func reading(text: String) -> HubToClient {
        do { return try decode(text) } catch { return .unknown(type: "", .string(error.description)) }
    }

    /// A binary message: a binary frame, with the JSON text of the frame that
    /// says the same; anything else is `.unknown` (empty type), its text the reason.
    public static func reading(binary bytes: [UInt8]) -> (message: HubToClient, text: String) {
        do {
            let message = try decode(binary: bytes)
            guard case .frame(let frame) = message else { return (message, "") }
            return (message, String(decoding: frame.json, as: UTF8.self))
        } catch {
            return (.unknown(type: "", .string(error.description)), error.description)
        }
    }
}

extension Camera {
    /// Short form for people: `lat 48.85660 lon 2.35220 zoom 12.00 bearing 30.0 tilt 45.0`
    /// (then ` roll r`, ` elevation e m`, ` fov f` when not at their defaults and
    /// ` anchor x,y` when not centred).
    public var summary: String {
        "lat \(fixed(latitude, 5)) lon \(fixed(longitude, 5)) zoom \(fixed(zoom, 2)) bearing \(fixed(bearing, 1)) tilt \(fixed(tilt, 1))"
            + (roll == 0 ? "" : " roll \(fixed(roll, 1))") + (elevation == 0 ? "" : " elevation \(fixed(elevation, 0)) m")
            + (fov == Camera.defaultFov ? "" : " fov \(fixed(fov, 1))")
            + (anchor == .center ? "" : " anchor \(fixed(anchor.x, 2)),\(fixed(anchor.y, 2))")
    }

    /// The camera as the hub writes it in a frame (same fields, same order).
    public var wireJSON: String {
        var w = JSONWriter(capacity: 128)
        w.camera(self)
        return String(decoding: w.bytes, as: UTF8.self)
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
