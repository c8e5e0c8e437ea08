import CamHubProtocol
import HubCore

/// The server API's hub-to-hub messages in the codec's binary form: kinds
/// `Q` (request), `A` (answer), `W` (waiting for an animation's end), `M` (a hub's rooms).
/// A request's ask is `L` (rooms), `G` (a room), `C`/`F` (a command, `F` answered at
/// its animation's end), `S` (a storyboard file) or `D` (close a client).
extension ClusterMessage {
    func encodeAPI(into w: inout ByteWriter) {
        switch self {
        case .apiRequest(let request):
            w.byte(UInt8(ascii: "Q"))
            w.u64(request.id)
            w.string(request.replyTo)
            switch request.ask {
            case .rooms:
                w.byte(UInt8(ascii: "L"))
            case .room(let room):
                w.byte(UInt8(ascii: "G"))
                w.string(room.value)
            case .command(let room, let body, let untilFinished):
                w.byte(untilFinished ? UInt8(ascii: "F") : UInt8(ascii: "C"))
                w.string(room.value)
                w.bytes(body)
            case .story(let room, let body, let contentType):
                w.byte(UInt8(ascii: "S"))
                w.string(room.value)
                w.string(contentType ?? "")
                w.bytes(body)
            case .remove(let client, let room):
                w.byte(UInt8(ascii: "D"))
                w.string(room.value)
                w.string(client)
            }
        case .apiAnswer(let id, let status, let body):
            w.byte(UInt8(ascii: "A"))
            w.u64(id)
            w.u64(UInt64(status))
            w.bytes(body)
        case .apiWaiting(let id, let hub):
            w.byte(UInt8(ascii: "W"))
            w.u64(id)
            w.string(hub)
        case .apiRooms(let id, let hub, let entries):
            w.byte(UInt8(ascii: "M"))
            w.u64(id)
            w.string(hub)
            w.u64(UInt64(entries.count))
            for entry in entries {
                w.string(entry.name.value)
                w.byte(entry.owned ? 1 : 0)
                w.bytes(entry.json)
            }
        default:
            return
        }
    }

    /// A message of kind `Q`, `A`, `W` or `M`; nil for any other kind or bytes that do not read.
    static func decodeAPI(_ kind: UInt8, _ r: inout ByteReader) -> ClusterMessage? {
        switch kind {
        case UInt8(ascii: "Q"):
            guard let id = r.u64(), let replyTo = r.string() ?? nil, let ask = decodeAsk(&r) else { return nil }
            return .apiRequest(ClusterAPIRequest(id: id, replyTo: replyTo, ask: ask))
        case UInt8(ascii: "A"):
            guard let id = r.u64(), let status = r.u64(), status < 1000, let body = r.bytes() else { return nil }
            return .apiAnswer(id: id, status: Int(status), body: body)
        case UInt8(ascii: "W"):
            guard let id = r.u64(), let hub = r.string() ?? nil else { return nil }
            return .apiWaiting(id: id, hub: hub)
        case UInt8(ascii: "M"):
            guard let id = r.u64(), let hub = r.string() ?? nil, let count = r.u64(), count < 1_000_000 else { return nil }
            var entries: [APIRoomEntry] = []
            for _ in 0..<count {
                guard let text = r.string() ?? nil, let name = try? RoomName(validating: text), let owned = r.byte(),
                    let json = r.bytes()
                else { return nil }
                entries.append(APIRoomEntry(name: name, owned: owned == 1, json: json))
            }
            return .apiRooms(id: id, hub: hub, entries)
        default:
            return nil
        }
    }

    private static func decodeAsk(_ r: inout ByteReader) -> ClusterAPIRequest.Ask? {
        guard let what = r.byte() else { return nil }
        if what == UInt8(ascii: "L") { return .rooms }
        guard let text = r.string() ?? nil, let room = try? RoomName(validating: text) else { return nil }
        switch what {
        case UInt8(ascii: "G"): return .room(room)
        case UInt8(ascii: "C"), UInt8(ascii: "F"):
            guard let body = r.bytes() else { return nil }
            return .command(room, body: body, untilFinished: what == UInt8(ascii: "F"))
        case UInt8(ascii: "S"):
            guard let contentType = r.string() ?? nil, let body = r.bytes() else { return nil }
            return .story(room, body: body, contentType: contentType.isEmpty ? nil : contentType)
        case UInt8(ascii: "D"):
            guard let client = r.string() ?? nil else { return nil }
            return .remove(client: client, room: room)
        default: return nil
        }
    }
}
