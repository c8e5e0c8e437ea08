import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing

/// SIGTERM is a planned restart: clients get 1012 and come back.
extension CLITests {
    @Test func sigtermClosesWith1012FollowRejoinsAndPresentSaysItCannotResume() throws {
        let dir = try TempDir()
        let data = dir.path + "/data"
        let first = try ServeProcess(camhubPath, ["--web", dir.path, "--data", data, "--log-format", "json"])
        let port = first.port
        let url = "ws://127.0.0.1:\(port)/hub"
        let follow = Locked<Subprocess.Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let result = try? Subprocess.run(
                camhubPath, ["follow", "--url", url, "--room", "again", "--format", "json", "--duration", "10"],
                timeout: .seconds(40))
            follow.set(result)
            done.signal()
        }
        try dir.write("long.json", #"[{"type": "fly", "id": "slow", "camera": {"zoom": 8}, "duration": 20}, {"type": "waitFor", "id": "slow"}]"#)
        let present = Locked<Subprocess.Result?>(nil)
        let script = dir.path + "/long.json"
        DispatchQueue.global().async {
            let result = try? Subprocess.run(
                camhubPath, ["present", "--url", url, "--room", "again", "--script", script, "--plain"],
                timeout: .seconds(40))
            present.set(result)
            done.signal()
        }
        // Both joined (a loaded machine may take more than a second to start them), then the restart.
        #expect(
            waitUntil(.seconds(20)) { (try? JSONParser.parse(RawHTTP.request(port: port, path: "/healthz").body)["clients"]?.numberValue) == 2 },
            "both joined")
        #expect(first.stop(SIGTERM) == 0)
        let closes = first.stderr.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
            .filter { $0["message"]?.stringValue == "connection closed" }
        #expect(closes.count == 2 && closes.allSatisfy { $0["code"]?.numberValue == 1012 }, "both were closed with 1012 service restart: \(closes)")
        #expect(closes.allSatisfy { $0["by"]?.stringValue == "hub" && $0["reason"]?.stringValue == "service restart" })
        let second = try ServeProcess(camhubPath, ["--web", dir.path, "--data", data, "--port", String(port)])
        #expect(second.port == port)
        #expect(done.wait(timeout: .now() + 40) == .success)
        #expect(done.wait(timeout: .now() + 40) == .success)
        second.stop()
        let presented = try #require(present.get())
        #expect(presented.status != 0)
        #expect(presented.stdout.contains("a script cannot resume where it was"), "\(presented.stdout)")
        let result = try #require(follow.get())
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        let welcomes = lines.filter { $0["type"]?.stringValue == "welcome" }
        #expect(welcomes.count == 2, "joined, then rejoined after the restart: \(result.stdout)")
        #expect(welcomes.allSatisfy { $0["room"]?.stringValue == "again" && $0["role"]?.stringValue == "follower" })
        #expect(lines.last?["type"]?.stringValue == "summary")
        #expect(lines.last?["reconnects"]?.numberValue == 1)
        #expect(result.stderr.contains("reconnecting in"))
    }
}

/// A value shared with a background thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ v: Value) {
        lock.lock()
        value = v
        lock.unlock()
    }
    func get() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
