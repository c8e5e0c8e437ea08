import CamHubProtocol
import HubCore
import WebSocketTransport

/// `POST /api/v1/rooms/{room}/story/step` with `{"to": "next" | "previous" | N | "play" | "pause"}`
/// (and optionally `"id"`, the move's animation id): steps the room's storyboard
/// as its server, a presenter, would with `step`. Answered like any `step` the
/// server API runs (`ServerAPI.command`): the storyboard after it (`stepAnswer`).
extension ServerAPI {
    /// The work of `POST …/story/step` with `body`, checked here (a bad body is 400 on any hub).
    static func storyStep(_ body: [UInt8], in room: RoomName) throws(APIFailure) -> Work {
        let message = try stepMessage(body)
        return .room(room) { s, r in
            // A step is a command: in a cluster the hub that runs the room's camera runs it.
            guard s.cluster == nil || s.hub.owns(room) == true else {
                return askOwner(.command(room, body: message, untilFinished: false), of: room, s, r)
            }
            command(message, in: room, untilFinished: false, s, r)
        }
    }

    /// The fields the body may have.
    static let stepBodyKeys: Set<String> = ["to", "id"]

    /// The `step` message the body asks for, checked as the hub checks a
    /// presenter's (the hub's own errors, naming the field), or why not (400).
    static func stepMessage(_ body: [UInt8]) throws(APIFailure) -> [UInt8] {
        let json: JSONValue
        do { json = try JSONParser.parse(body) } catch {
            throw APIFailure(status: 400, code: "bad_message", "body: not JSON (\(error.description)); send {\"to\":\"next\"}")
        }
        guard case .object(let fields) = json else {
            throw APIFailure(status: 400, code: "bad_message", "body: must be a JSON object like {\"to\":\"next\"} (got \(json.typeName))")
        }
        if let unknown = fields.keys.sorted().first(where: { !stepBodyKeys.contains($0) }) {
            throw APIFailure(status: 400, code: "bad_message", "\(unknown): unknown field (a step takes to and id)", ref: "step")
        }
        // The body is an object of `to` and `id` only: with `"type":"step"` in front it is the presenter's message.
        guard let open = body.firstIndex(of: UInt8(ascii: "{")) else { throw APIFailure(status: 400, code: "bad_message", "body: not an object") }
        let bytes = Array(#"{"type":"step""#.utf8) + (fields.isEmpty ? [] : [UInt8(ascii: ",")]) + Array(body[(open + 1)...])
        let message: ClientMessage
        do { message = try ClientMessage.decode(bytes) } catch { throw APIFailure(error) }
        guard case .step = message else { throw APIFailure(status: 500, code: "internal", "body: did not read as a step") }
        return message.encoded
    }

    /// `{"type":"story","count","index","title","notes","playing","drivers"}`:
    /// the room's storyboard after a step (`index`, `title`, `notes` null when on no step).
    static func stepAnswer(_ story: StoryState) -> String {
        let s = story.summary
        var w = JSONWriter(capacity: 160)
        w.raw("{\"type\":\"story\",\"count\":")
        w.integer(UInt64(s.count))
        w.raw(",\"index\":")
        if let index = s.index { w.integer(UInt64(index)) } else { w.null() }
        w.raw(",\"title\":")
        w.string(s.title)
        w.raw(",\"notes\":")
        w.string(s.notes)
        w.raw(",\"playing\":")
        w.bool(s.playing)
        w.raw(",\"drivers\":")
        w.bool(s.drivers)
        w.raw("}")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
