import CamHubProtocol
import Foundation
import Gzip
import HubCore
import HubRecording
import SocketTestSupport
import Testing

/// `GET /recordings` and `GET /recordings/<room>/<file>` on `camhub serve --record DIR`
/// (docs/RECORDING.md, "Over HTTP"), as the viewer's Recordings section uses them.
extension CLITests {
    /// A hub recording into a temp dir, with a presenter's fly in room `room` already written out.
    private func recordingHub(_ extra: [String] = [], token: String? = nil, room: String = "demo") throws -> (hub: ServeProcess, dir: TempDir) {
        let dir = try TempDir()
        try dir.write(
            "fly.json",
            """
            {"name": "fly", "steps": [
              {"type": "viewport", "width": 1024, "height": 700},
              {"type": "fly", "id": "paris", "camera": {"lat": 48.85, "lon": 2.35, "zoom": 10.3}, "duration": 0.4},
              {"type": "waitFor", "id": "paris"}
            ]}
            """)
        let hub = try ServeProcess(camhubPath, ["--web", dir.path, "--record", dir.path + "/rec"] + extra)
        let present = try camhub(
            ["present", "--url", "ws://127.0.0.1:\(hub.port)/hub", "--room", room, "--script", dir.path + "/fly.json", "--plain"]
                + (token.map { ["--token", $0] } ?? []),
            timeout: .seconds(20))
        #expect(present.status == 0, "\(present.stderr)")
        return (hub, dir)
    }

    private func get(_ port: Int, _ path: String, token: String? = nil) throws -> RawHTTP.Response {
        try RawHTTP.request(port: port, path: path, extraHeaders: token.map { ["Authorization: Bearer \($0)"] } ?? [])
    }

    /// The listing's entries, once the recorder has flushed (about once a second).
    private func listing(_ port: Int, _ path: String = "/recordings", token: String? = nil) throws -> [JSONValue] {
        let response = try get(port, path, token: token)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers["content-type"] == "application/json")
        guard case .array(let entries)? = try JSONParser.parse(response.text)["recordings"] else {
            Issue.record("no recordings array in \(response.text)")
            return []
        }
        return entries
    }

    @Test func theRecordingsAreListedAndAPartReadsBackAsTheRecording() throws {
        let (hub, dir) = try recordingHub()
        defer { withExtendedLifetime(dir) {} }
        #expect(waitUntil(.seconds(20)) { ((try? listing(hub.port))?.first?["bytes"]?.numberValue ?? 0) > 100 })
        #expect(try JSONParser.parse(try get(hub.port, "/map/config.json").text)["recordings"]?.stringValue == "/recordings", "the page learns it here")
        let entries = try listing(hub.port)
        #expect(entries.count == 1, "\(entries)")
        let entry = try #require(entries.first)
        #expect(entry["room"]?.stringValue == "demo")
        #expect(entry["part"]?.numberValue == 1)
        let file = try #require(entry["file"]?.stringValue)
        #expect(RecordingName(file) != nil, "\(file)")
        let started = try #require(entry["started"]?.stringValue)
        #expect(started.count == 20 && started.hasSuffix("Z") && file.hasPrefix(started.filter { $0.isNumber || $0 == "T" || $0 == "Z" }), "\(started) \(file)")
        #expect(try listing(hub.port, "/recordings/demo").count == 1)
        #expect(try listing(hub.port, "/recordings/elsewhere").isEmpty)

        let part = try get(hub.port, "/recordings/demo/\(file)")
        #expect(part.status == 200)
        #expect(part.headers["content-type"] == "application/gzip")
        #expect(part.headers["cache-control"] == "no-cache")
        #expect(entry["bytes"]?.numberValue.map { Int($0) } ?? 0 <= part.body.count)
        let (bytes, truncated) = try Gzip.decompress(part.body)
        #expect(truncated, "the hub is still writing the part: no gzip trailer yet")
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(try JSONParser.parse(String(try #require(lines.first)))["room"]?.stringValue == "demo")
        let fly = lines.compactMap { try? JSONParser.parse(String($0)) }.first { $0["type"]?.stringValue == "command" }
        #expect(try JSONParser.parse(try #require(fly?["message"]?.stringValue))["id"]?.stringValue == "paris")
        #expect(lines.contains { $0.contains("\"animationEnded\"") }, "the fly's end, flushed")
        #expect(hub.stop() == 0)
    }

    @Test func anUnknownPartIs404AndNamesThatAreNotRecordingsAre400() throws {
        let (hub, dir) = try recordingHub()
        defer { withExtendedLifetime(dir) {} }
        let missing = try get(hub.port, "/recordings/demo/20200101T000000Z-001.jsonl.gz")
        #expect(missing.status == 404)
        #expect(missing.text == "not found: room demo has no recording 20200101T000000Z-001.jsonl.gz (GET /recordings/demo lists them)\n")
        let badFile = try get(hub.port, "/recordings/demo/..%5Csecret.jsonl.gz")
        #expect(badFile.status == 400)
        #expect(badFile.text.hasPrefix("bad request: '..\\secret.jsonl.gz' is not a recording file name"), "\(badFile.text)")
        let badRoom = try get(hub.port, "/recordings/..%5C..%5Cetc/passwd")
        #expect(badRoom.status == 400)
        #expect(badRoom.text.hasPrefix("bad request: room '..\\..\\etc' is not a room name"), "\(badRoom.text)")
        // A part above the cap is refused before it is read (handlers run on a loop thread).
        let big = dir.path + "/rec/demo/20200101T000000Z-001.jsonl.gz"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, off_t(16 << 20) + 1) == 0)
        let tooLarge = try get(hub.port, "/recordings/demo/20200101T000000Z-001.jsonl.gz")
        #expect(tooLarge.status == 413)
        #expect(tooLarge.text.hasPrefix("content too large: 20200101T000000Z-001.jsonl.gz has 16777217 bytes; the hub serves parts up to 16777216"))
        let deep = try get(hub.port, "/recordings/demo/x/y")
        #expect(deep.status == 400)
        #expect(deep.text == "bad request: recordings are at /recordings/<room>/<file>, not /recordings/demo/x/y\n")
        #expect(hub.stop() == 0)
    }

    @Test func aHubWithAPresenterTokenOpensItsRecordingsOnlyWithIt() throws {
        let (hub, dir) = try recordingHub(["--presenter-token", "p-secret", "--driver-token", "d-secret"], token: "p-secret")
        defer { withExtendedLifetime(dir) {} }
        let without = try get(hub.port, "/recordings")
        #expect(without.status == 401)
        #expect(without.headers["www-authenticate"] == "Bearer")
        #expect(without.text.hasPrefix("unauthorized: this hub needs the presenter token"), "\(without.text)")
        let driver = try get(hub.port, "/recordings", token: "d-secret")
        #expect(driver.status == 403)
        #expect(driver.text == "forbidden: token: wrong token for role presenter\n")
        #expect(try get(hub.port, "/recordings/demo/20200101T000000Z-001.jsonl.gz").status == 401, "a part too")
        #expect(waitUntil(.seconds(20)) { ((try? listing(hub.port, token: "p-secret"))?.count ?? 0) == 1 })
        #expect(hub.stop() == 0)
    }

    @Test func aSignedRoomTokenOpensTheRecordingsOfItsRoomOnly() throws {
        let secret = try TokenSecret(text: TokenCLITests.secretText)
        let exp = Date().timeIntervalSince1970 + 600
        let all = RoomToken.sign(RoomTokenClaims(room: "*", role: .presenter, exp: exp), secret: secret)
        let (first, dir) = try recordingHub()  // room demo, recorded by a hub without tokens
        #expect(first.stop() == 0)
        try dir.write("secret", TokenCLITests.secretText)
        let signed = try ServeProcess(camhubPath, ["--web", dir.path, "--record", dir.path + "/rec", "--token-secret-file", dir.path + "/secret"])
        // a second room, recorded by this hub
        try dir.write(
            "other.json",
            #"{"name": "o", "steps": [{"type": "set", "camera": {"zoom": 3}}, {"type": "wait", "seconds": 0.1}]}"#)
        let present = try camhub(
            ["present", "--url", "ws://127.0.0.1:\(signed.port)/hub", "--room", "other", "--script", dir.path + "/other.json", "--plain", "--token", all],
            timeout: .seconds(20))
        #expect(present.status == 0, "\(present.stderr)")
        #expect(waitUntil(.seconds(20)) { ((try? listing(signed.port, token: all))?.count ?? 0) == 2 }, "demo from the first hub, other from this one")

        let demo = RoomToken.sign(RoomTokenClaims(room: "demo", role: .presenter, exp: exp), secret: secret)
        let rooms = try listing(signed.port, token: demo).compactMap { $0["room"]?.stringValue }
        #expect(rooms == ["demo"], "a token for one room lists that room's recordings only")
        let forbidden = try get(signed.port, "/recordings/other", token: demo)
        #expect(forbidden.status == 403)
        #expect(forbidden.text == "forbidden: token: for another room, not 'other'\n")
        let driver = RoomToken.sign(RoomTokenClaims(room: "*", role: .driver, exp: exp), secret: secret)
        let refused = try get(signed.port, "/recordings", token: driver)
        #expect(refused.status == 403)
        #expect(refused.text == "forbidden: token: grants driver at most, not presenter\n")
        let expired = RoomToken.sign(RoomTokenClaims(room: "*", role: .presenter, exp: 1000), secret: secret)
        #expect(try get(signed.port, "/recordings", token: expired).text.hasPrefix("forbidden: token: expired at"))
        #expect(signed.stop() == 0)
    }

    @Test func aHubThatDoesNotRecordHasNoRecordingsEndpoint() throws {
        let dir = try TempDir()
        let hub = try ServeProcess(camhubPath, ["--web", dir.path])
        #expect(try get(hub.port, "/recordings").status == 404)
        #expect(try JSONParser.parse(try get(hub.port, "/map/config.json").text)["recordings"] == .null)
        #expect(hub.stop() == 0)
    }
}
