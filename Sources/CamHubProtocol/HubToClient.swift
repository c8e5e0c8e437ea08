import CameraCore
import CameraMotion

/// One hub → client message, decoded into the types the hub encodes it from
/// (`HubMessage`, `GestureAck`, `BinaryFrame`), so that for every message the
/// hub can send, decoding its bytes gives back the value it was written from,
/// less what the wire does not carry (each such loss is noted where the value
/// is read: wrapped longitudes and bearings, rounded velocities, fields the
/// encoder leaves out).
///
/// Decoding is typed and names the offending field (`camera.lat: missing`,
/// `roster[1].role: unknown role 'host'`), and forward compatible:
/// - a message `type` this version does not know decodes as `.unknown`, and
///   an `event` it does not know as `.unknownEvent`, each with the parsed
///   message, so that a client keeps going when a newer hub sends more;
/// - unknown fields are ignored, at every level;
/// - lists of names (`welcome.events`, `welcome.gestures`, `gestures.disabled`,
///   property lists) drop the names this version does not know;
/// - a field that may be null may also be left out (both read as nil).
///
/// What it does not forgive: a missing or mistyped field, a number that is
/// not finite or (where an integer is due) not a whole number in range, and
/// an unknown value where one of a fixed set is due (a role, a status, a
/// gesture kind, a result's `what`: a hub answers only the
/// queries the client asked, so it knows every `what` it can get).
public enum HubToClient: Hashable, Sendable {
    /// `welcome`, with the hub's `time` (ms since the Unix epoch).
    case welcome(Welcome, time: Double)
    /// `frame`, from JSON text or a binary message alike.
    case frame(HubFrame)
    case animation(AnimationMessage, time: Double)
    case event(HubEvent, time: Double)
    case gestureAck(GestureAck)
    /// `result` answering a `query`.
    case result(id: String, QueryAnswer)
    /// `result` answering a `summon` (`what` is `summon`): how many clients it
    /// reached. `id` is `summon` when the `summon` had none (`HubMessage.summonResult`
    /// writes a nil id so, and nil does not come back).
    case summonResult(id: String, summoned: Int)
    /// `gestures`: the kinds now disabled for this client.
    case gestures(disabled: Set<GestureKind>)
    /// `error`. `close` is not on the wire: always nil here.
    case error(ProtocolError)
    /// `tokenExpiring`: `exp` in seconds since 1970.
    case tokenExpiring(exp: Double)
    case tokenRefreshed(exp: Double)
    /// `pong`: the ping's `t` (nil when it had none) and the hub's `time`.
    case pong(t: Double?, time: Double)
    /// An `event` whose name this version does not know: its name and the whole message.
    case unknownEvent(name: String, JSONValue)
    /// A message `type` this version does not know: the type and the whole message.
    case unknown(type: String, JSONValue)

    /// The message's `type` on the wire.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .frame: "frame"
        case .animation: "animation"
        case .event, .unknownEvent: "event"
        case .gestureAck: "gestureAck"
        case .result, .summonResult: "result"
        case .gestures: "gestures"
        case .error: "error"
        case .tokenExpiring: "tokenExpiring"
        case .tokenRefreshed: "tokenRefreshed"
        case .pong: "pong"
        case .unknown(let type, _): type
        }
    }

    /// Why a hub message does not decode: the field, by its wire path
    /// (`camera.lat`, `roster[1].role`, `animation.to.zoom`), and what was wrong.
    public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Empty when the message as a whole is wrong (not UTF-8, not JSON, not
        /// an object, a binary message that is not a frame: `message` says which).
        public var field: String
        public var message: String

        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }

        public var description: String { field.isEmpty ? message : "\(field): \(message)" }
    }
}

extension HubToClient {
    /// Decodes one WebSocket text message: UTF-8 JSON text.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodingError) -> HubToClient {
        let parsed = { (buffer: UnsafeBufferPointer<UInt8>) in Result { () throws(DecodingError) -> JSONValue in try parse(buffer) } }
        let result = bytes.withContiguousStorageIfAvailable(parsed) ?? Array(bytes).withUnsafeBufferPointer(parsed)
        return try decode(try result.get())
    }

    /// Decodes one message given as text.
    public static func decode(_ text: String) throws(DecodingError) -> HubToClient {
        try decode(Array(text.utf8))
    }

    /// Decodes one WebSocket binary message: a binary frame (`BinaryFrame`),
    /// the same `.frame` as its JSON twin. Its errors name the field in the
    /// message (`binary frame: camera.zoom needs 8 bytes at offset 34, 4 left`).
    public static func decode(binary bytes: some Collection<UInt8>) throws(DecodingError) -> HubToClient {
        do {
            return .frame(HubFrame(try BinaryFrame.decode(bytes)))
        } catch {
            throw DecodingError(field: "", message: error.description)
        }
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> JSONValue {
        guard UTF8Validation.isValid(buffer) else { throw DecodingError(field: "", message: "message is not valid UTF-8") }
        do {
            return try JSONParser.parse(buffer)
        } catch {
            throw DecodingError(field: "", message: error.description)
        }
    }

    /// Decodes one parsed message.
    public static func decode(_ json: JSONValue) throws(DecodingError) -> HubToClient {
        guard case .object(let object) = json else {
            throw DecodingError(field: "", message: "message must be a JSON object (got \(json.typeName))")
        }
        let f = WireReader(object)
        let type = try f.requiredString("type")
        switch type {
        case "welcome": return .welcome(try decodeWelcome(f), time: try f.requiredNumber("time"))
        case "frame": return .frame(try decodeFrame(f))
        case "animation": return .animation(try decodeAnimation(f), time: try f.requiredNumber("time"))
        case "event":
            let name = try f.requiredString("event")
            guard let event = try decodeEvent(f, name: name) else { return .unknownEvent(name: name, json) }
            return .event(event, time: try f.requiredNumber("time"))
        case "gestureAck": return .gestureAck(try decodeGestureAck(f))
        case "result":
            let id = try f.requiredString("id")
            let what = try f.requiredString("what")
            if what == "summon" { return .summonResult(id: id, summoned: try f.requiredInt("summoned")) }
            return .result(id: id, try decodeAnswer(f, what: what))
        case "gestures": return .gestures(disabled: try f.gestureKinds("disabled"))
        case "error":
            guard let error = try decodeError(f) else { return .unknown(type: type, json) }
            return .error(error)
        case "tokenExpiring": return .tokenExpiring(exp: try f.requiredNumber("exp"))
        case "tokenRefreshed": return .tokenRefreshed(exp: try f.requiredNumber("exp"))
        case "pong": return .pong(t: try f.number("t"), time: try f.requiredNumber("time"))
        default: return .unknown(type: type, json)
        }
    }
}
