import CamHubProtocol
import Foundation
import HubCore
import HubRecording
import WebSocketTransport

/// `camhub serve --record DIR`'s recordings over HTTP (docs/RECORDING.md, "Over HTTP"):
///
/// - `GET /recordings`: the parts the credential may open, as
///   `{"recordings":[{"room","file","part","bytes","started"}…]}`, by room, then start, then part;
/// - `GET /recordings/<room>`: that room's parts;
/// - `GET /recordings/<room>/<file>`: one part's gzip bytes (`application/gzip`).
///
/// Access is presenting's (`TokenPolicy.presenterScope`): with a presenter
/// token or a token secret, `Authorization: Bearer <token>` (401 without, 403
/// with one that does not open the room); without either, open. A part above
/// `maxServedBytes` is refused with 413: handlers run on a loop thread, and
/// reading and sending more would hold its other connections up.
public struct RecordingsEndpoint: Sendable {
    public static let path = "/recordings"
    public static let prefix = "/recordings/"
    /// The largest part served (16 MiB, about 10 ms of reading from the page cache).
    public static let maxServedBytes = 16 << 20

    let directory: String
    let tokens: TokenPolicy
    let now: @Sendable () -> Double

    public init(directory: String, tokens: TokenPolicy, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.directory = directory
        self.tokens = tokens
        self.now = now
    }

    public func respond(_ request: HTTPRequest) -> HTTPResponse {
        let scope: PresenterScope
        do { scope = try tokens.presenterScope(token: Self.bearer(request.authorization), now: now()) } catch {
            switch error {
            case .missing(let why):
                var response = HTTPResponse.text("unauthorized: \(why): send Authorization: Bearer <token>\n", status: 401)
                response.headers["www-authenticate"] = "Bearer"
                return response
            case .refused(let why):
                return .text("forbidden: \(why)\n", status: 403)
            }
        }
        let rest = request.path == Self.path ? "" : String(request.path.dropFirst(Self.prefix.count))
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1 where parts[0].isEmpty:
            return listing(RecordingCatalog.list(directory) { scope.covers($0) })
        case 1, 2:
            let room = parts[0]
            guard RecordingCatalog.isRoomName(room) else {
                return .text("bad request: room '\(Self.shown(room))' is not a room name (1-64 of A-Z, a-z, 0-9, _ and -)\n", status: 400)
            }
            guard scope.covers(room) else { return .text("forbidden: token: for another room, not '\(room)'\n", status: 403) }
            if parts.count == 1 { return listing(RecordingCatalog.list(directory) { $0 == room }) }
            return file(room: room, name: parts[1])
        default:
            return .text("bad request: recordings are at /recordings/<room>/<file>, not \(Self.shown(request.path))\n", status: 400)
        }
    }

    private func file(room: String, name file: String) -> HTTPResponse {
        guard let name = RecordingName(file) else {
            return .text(
                "bad request: '\(Self.shown(file))' is not a recording file name (<start>-<part>.jsonl.gz, e.g. 20261123T220000Z-001.jsonl.gz)\n",
                status: 400)
        }
        let path = directory + "/" + room + "/" + name.file
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int
        else { return .text("not found: room \(room) has no recording \(name.file) (GET /recordings/\(room) lists them)\n", status: 404) }
        guard size <= Self.maxServedBytes else {
            return .text(
                "content too large: \(name.file) has \(size) bytes; the hub serves parts up to \(Self.maxServedBytes) (read it from the hub's disk, or record with --record-max-bytes \(Self.maxServedBytes))\n",
                status: 413)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .text("cannot read \(room)/\(name.file) on the hub\n", status: 500)
        }
        return HTTPResponse(contentType: "application/gzip", body: [UInt8](data), headers: ["cache-control": "no-cache"])
    }

    private func listing(_ parts: [RecordingCatalog.Part]) -> HTTPResponse {
        var w = JSONWriter(capacity: 64 + parts.count * 120)
        w.raw("{\"recordings\":[")
        for (index, part) in parts.enumerated() {
            if index > 0 { w.raw(",") }
            w.raw("{\"room\":")
            w.string(part.room)
            w.raw(",\"file\":")
            w.string(part.name.file)
            w.raw(",\"part\":")
            w.integer(UInt64(part.name.part))
            w.raw(",\"bytes\":")
            w.integer(UInt64(part.bytes))
            w.raw(",\"started\":")
            w.string(part.name.started)
            w.raw("}")
        }
        w.raw("]}")
        return HTTPResponse(contentType: "application/json", body: w.bytes, headers: ["cache-control": "no-cache"])
    }

    /// The token of an `Authorization: Bearer <token>` header (nil for none or another scheme).
    static func bearer(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// A client's text in an error message: at most 80 printable ASCII characters.
    static func shown(_ text: String) -> String {
        let printable = text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return String(printable.prefix(80))
    }
}

extension RecordingsEndpoint {
    /// Adds `/recordings` and `/recordings/…` to `transport`: any loop takes the
    /// request, a worker thread reads the files (`OffLoopReads`), never a loop.
    static func install(directory: String, tokens: TokenPolicy, on transport: inout ServerConfiguration) {
        let endpoint = RecordingsEndpoint(directory: directory, tokens: tokens)
        let reads = OffLoopReads("recording", limit: 16).handler { request in
            // The handler's key is a prefix: `/recordingsX` is not ours.
            guard request.path == path || request.path.hasPrefix(prefix) else { return .text("not found\n", status: 404) }
            return endpoint.respond(request)
        }
        transport.httpAPIHandlers[path] = reads  // `/recordings` and `/recordings/…`
    }
}
