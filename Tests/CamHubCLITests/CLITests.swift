import CamHubProtocol
import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing

/// The `camhub` binary built beside this test bundle (`swift build` and
/// `swift test` build both into the same folder).
let camhubPath: String = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("camhub").path

/// Runs `camhub` with `arguments` (killed after `timeout`: a safety net, generous for a loaded machine).
func camhub(_ arguments: [String], timeout: Duration = .seconds(30)) throws -> Subprocess.Result {
    try #require(
        FileManager.default.isExecutableFile(atPath: camhubPath),
        "\(camhubPath) is missing: run swift build first")
    return try Subprocess.run(camhubPath, arguments, timeout: timeout)
}

/// A hub in this process on 127.0.0.1, port 0, for the binary to talk to.
final class InProcessHub {
    let server: HubServer
    let port: Int

    init(tick: Double = 60) throws {
        var configuration = HubServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.hub.tick = tick
        server = try HubServer(configuration: configuration)
        port = try server.start()
    }

    var url: String { "ws://127.0.0.1:\(port)/hub" }

    /// Clients joined, as `/healthz` counts them.
    func clients() throws -> Double? {
        try JSONParser.parse(RawHTTP.request(port: port, path: "/healthz").body)["clients"]?.numberValue
    }

    deinit { server.shutdown() }
}

/// The command line as a user meets it: one binary, real sockets on loopback.
@Suite(.serialized, .timeLimit(.minutes(1)), SocketSuiteLock())
struct CLITests {
    @Test func serveOnATakenPortSaysSoInOneLineAndExits1() throws {
        let hub = try InProcessHub()
        let web = try TempDir()
        let result = try camhub(["serve", "--port", String(hub.port), "--web", web.path])
        #expect(result.status == 1)
        #expect(result.stderr == "camhub: cannot listen on 127.0.0.1:\(hub.port): address already in use (try --port 0)\n")
        #expect(result.stdout == "")
    }

    @Test func serveRefusesAHostThatIsNotAnIPAddress() throws {
        let web = try TempDir()
        let result = try camhub(["serve", "--host", "localhost", "--port", "0", "--web", web.path])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --host must be an IP address such as 127.0.0.1, 0.0.0.0 or ::1 (got localhost)\n"))
    }

    @Test func followJSONPrintsTheWelcomeAsItsFirstLine() throws {
        let hub = try InProcessHub()
        let result = try camhub(["follow", "--url", hub.url, "--room", "cli", "--format", "json", "--duration", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let first = try JSONParser.parse(try #require(lines.first))
        #expect(first["type"]?.stringValue == "welcome")
        #expect(first["room"]?.stringValue == "cli")
        #expect(first["role"]?.stringValue == "follower")
        let last = try JSONParser.parse(try #require(lines.last))
        #expect(last["type"]?.stringValue == "summary")
        #expect(lines.dropFirst().allSatisfy { (try? JSONParser.parse($0))?["type"]?.stringValue != "welcome" })
    }

    @Test func followFitCoverPrintsTheCameraThisScreenShows() throws {
        let hub = try InProcessHub()
        let dir = try TempDir()
        try dir.write(
            "set.json",
            #"[{"type":"viewport","width":1280,"height":720},{"type":"set","camera":{"lat":48.8566,"lon":2.3522,"zoom":12}}]"#)
        let present = try camhub(["present", "--url", hub.url, "--room", "fit", "--script", dir.path + "/set.json"])
        #expect(present.status == 0, "\(present.stderr)")
        let result = try camhub([
            "follow", "--url", hub.url, "--room", "fit", "--format", "json", "--duration", "0.3", "--fit", "cover",
            "--viewport", "390x844",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let welcome = try JSONParser.parse(try #require(lines.first))
        #expect(welcome["view"]?["width"]?.numberValue == 1280 && welcome["fit"]?.stringValue == "cover")
        let shown = try JSONParser.parse(try #require(lines.dropFirst().first))
        #expect(shown["type"]?.stringValue == "shown")
        // 12 + log2(min(390/1280, 844/720)): the worked example of docs/PROTOCOL.md
        #expect(abs((shown["camera"]?["zoom"]?.numberValue ?? 0) - 10.285402218862249) < 1e-9, "\(shown)")
        #expect(shown["camera"]?["lat"]?.numberValue == 48.8566)
        let missing = try camhub(["follow", "--url", hub.url, "--fit", "cover"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--fit cover needs --viewport WxH"), "\(missing.stderr)")
    }

    @Test func followEventsChoosesTheSubscriptionsAndUnknownNamesAreRefused() throws {
        let hub = try InProcessHub()
        let result = try camhub([
            "follow", "--url", hub.url, "--room", "cli", "--format", "json", "--duration", "0.3",
            "--events", "joined,left",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let welcome = try JSONParser.parse(try #require(result.stdout.split(separator: "\n").first.map(String.init)))
        #expect(welcome["events"] == .array([.string("joined"), .string("left")]))
        let refused = try camhub(["follow", "--url", hub.url, "--room", "cli", "--events", "joined,moved", "--duration", "0.3"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("events: unknown event 'moved'"), "\(refused.stderr)")
    }

    @Test func followAboveTheHubsTickIsRefusedInTheHubsWords() throws {
        let hub = try InProcessHub(tick: 60)
        let result = try camhub(["follow", "--url", hub.url, "--rate", "100", "--duration", "1"])
        #expect(result.status == 1)
        #expect(result.stderr == "camhub follow: the hub refused --rate 100: rate: must be within 1…60 frames per second (got 100.0)\n")
        #expect(result.stdout == "")
        #expect(try hub.clients() == 0)
        // Above any hub's tick: refused before connecting, in the same words.
        let tooFast = try camhub(["follow", "--url", hub.url, "--rate", "500"])
        #expect(tooFast.status == 64)
        #expect(tooFast.stderr.hasPrefix("Error: --rate: must be within 1…240 frames per second (got 500.0)\n"))
        let badRoom = try camhub(["follow", "--url", hub.url, "--room", "my room!"])
        #expect(badRoom.status == 64)
        #expect(badRoom.stderr.hasPrefix("Error: --room: "))
    }

    @Test func followOnAWrongPathPrintsTheHubsReason() throws {
        let hub = try InProcessHub()
        let url = "ws://127.0.0.1:\(hub.port)/ws"
        let result = try camhub(["follow", "--url", url, "--duration", "1"])
        #expect(result.status == 1)
        #expect(
            result.stderr == "camhub follow: could not connect to \(url): HTTP 404 Not Found: no WebSocket endpoint at /ws; try /hub (subprotocol camhub.v1)\n")
    }

    @Test func presentPrintsEachCompletionOnce() throws {
        let hub = try InProcessHub()
        let dir = try TempDir()
        try dir.write(
            "script.json",
            """
            [{"type": "ease", "id": "look", "camera": {"zoom": 3}, "duration": 0.2},
             {"type": "waitFor", "id": "look"},
             {"type": "ease", "id": "back", "camera": {"zoom": 2}, "duration": 0.2},
             {"type": "wait", "seconds": 0.5},
             {"type": "waitFor", "id": "back"}]
            """)
        let result = try camhub(["present", "--url", hub.url, "--room", "cli", "--script", dir.path + "/script.json", "--plain"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for id in ["look", "back"] {
            let saying = lines.filter { $0.contains("\(id) finished") || $0.contains("\(id) (step") }
            #expect(saying.count == 1, "\(id): \(saying)")
            #expect(saying.first?.hasPrefix("    ✓ \(id) (step ") == true)
        }
        #expect(lines.contains("[2/5] waitFor look"))
        #expect(lines.contains { $0.hasPrefix("Done after ") && $0.contains("2 finished") })
    }
}
