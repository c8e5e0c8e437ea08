import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing

extension CLITests {
    @Test func serveLogsJSONLinesForStartConnectionsRefusalsAndShutdown() throws {
        let web = try TempDir()
        try web.write("script.json", #"[{"type": "wait", "seconds": 0.1}]"#)
        let serve = try ServeProcess(
            camhubPath,
            [
                "--web", web.path, "--log-format", "json",
                "--presenter-token", "sekrit-token", "--metrics-token", "m3trics",
            ])
        let url = "ws://127.0.0.1:\(serve.port)/hub"
        let follow = try camhub(["follow", "--url", url, "--room", "logs", "--duration", "0.3", "--quiet"])
        #expect(follow.status == 0, "\(follow.stderr)")
        let present = try camhub([
            "present", "--url", url, "--room", "logs", "--script", web.path + "/script.json",
            "--token", "wrong-guess", "--plain",
        ])
        #expect(present.status != 0)
        let refused = try RawHTTP.request(
            port: serve.port, path: "/hub",
            extraHeaders: [
                "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Origin: http://evil.example",
            ])
        #expect(refused.status == 403)
        #expect(serve.stop(SIGTERM) == 0)

        #expect(serve.stdout.hasPrefix("camhub: listening on http://127.0.0.1:\(serve.port)/"), "stdout keeps its lines")
        let lines = serve.stderr.split(separator: "\n").map(String.init)
        let records = lines.compactMap { try? JSONParser.parse($0) }
        #expect(records.count == lines.count, "every line on stderr is one JSON object: \(lines)")
        #expect(records.allSatisfy { $0["time"]?.stringValue != nil && $0["level"]?.stringValue != nil })
        func record(_ message: String) -> JSONValue? { records.first { $0["message"]?.stringValue == message } }

        let started = try #require(record("hub started"))
        #expect(started["port"]?.numberValue == Double(serve.port))
        #expect(started["host"]?.stringValue == "127.0.0.1")
        #expect(started["presenterToken"]?.stringValue == "set")
        #expect(started["eventLoop"]?.stringValue != nil)
        #expect(["io_uring batches", "one write each"].contains(started["sends"]?.stringValue ?? ""))

        let joined = try #require(record("client joined"))
        #expect(joined["room"]?.stringValue == "logs")
        #expect(joined["role"]?.stringValue == "follower")
        #expect(joined["remote"]?.stringValue == "127.0.0.1")
        let client = try #require(joined["client"]?.stringValue)

        let closed = try #require(records.first { $0["message"]?.stringValue == "connection closed" && $0["client"]?.stringValue == client })
        #expect(closed["room"]?.stringValue == "logs")
        #expect(closed["role"]?.stringValue == "follower")
        #expect(closed["code"]?.numberValue == 1000)
        #expect(closed["by"]?.stringValue == "client")
        let duration = closed["duration"]?.numberValue ?? -1
        #expect(duration >= 0.25 && duration < 5, "the follower stayed about 0.3 s (\(duration))")

        let hello = try #require(record("hello refused"))
        #expect(hello["level"]?.stringValue == "warning")
        #expect(hello["error"]?.stringValue == "token: wrong token for role presenter")
        #expect(hello["code"]?.numberValue == 1008)
        let refusedClose = try #require(records.first { $0["message"]?.stringValue == "connection closed" && $0["hubCode"] != nil })
        #expect(refusedClose["by"]?.stringValue == "hub")
        #expect(refusedClose["hubCode"]?.numberValue == 1008)
        #expect(refusedClose["reason"]?.stringValue == "forbidden")
        #expect(refusedClose["remote"]?.stringValue == "127.0.0.1")
        #expect(refusedClose["client"] == nil, "it never joined")

        let handshake = try #require(record("handshake refused"))
        #expect(handshake["status"]?.numberValue == 403)
        #expect(handshake["reason"]?.stringValue?.contains("origin http://evil.example") == true)

        #expect(record("shutting down")?["closeCode"]?.numberValue == 1012, "SIGTERM: service restart")
        #expect(records.last?["message"]?.stringValue == "stopped")
        for secret in ["sekrit-token", "wrong-guess", "m3trics"] {
            #expect(!serve.stderr.contains(secret), "no log line shows a token")
        }
        #expect(!records.contains { $0["label"]?.stringValue == "libwebsockets" }, "lws lines only at debug and trace")
    }

    @Test func serveAtDebugLogsSocketOpensButNothingPerFrame() throws {
        let web = try TempDir()
        let serve = try ServeProcess(camhubPath, ["--web", web.path, "--log-format", "json", "--log-level", "debug"])
        let follow = try camhub(["follow", "--url", "ws://127.0.0.1:\(serve.port)/hub", "--rate", "60", "--duration", "0.5", "--quiet"])
        #expect(follow.status == 0)
        #expect(serve.stop(SIGINT) == 0)
        let records = serve.stderr.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        #expect(records.contains { $0["message"]?.stringValue == "connection opened" && $0["level"]?.stringValue == "debug" })
        #expect(records.count < 40, "no line per frame: \(records.count) lines")
    }
}

extension CLITests {
    @Test func serveWithRedisUnreachableStartsAndLogsOneWarningNamingWhy() throws {
        let nobody = try RedisServer.freePort()
        let serve = try ServeProcess(camhubPath, ["--redis", "redis://127.0.0.1:\(nobody)", "--log-format", "json"])
        #expect(waitUntil(.seconds(20)) { serve.stderr.contains("redis unreachable") }, "\(serve.stderr)")
        let health = try RawHTTP.request(port: serve.port, path: "/healthz")
        #expect(
            health.status == 200 && String(decoding: health.body, as: UTF8.self).contains(#""status":"degraded""#),
            "the hub serves while Redis is down, and says so")
        Thread.sleep(forTimeInterval: 2.5)  // a few reconnect attempts (backoff up to 2 s)
        #expect(serve.stop(SIGTERM) == 0)
        let warnings = serve.stderr.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
            .filter { $0["message"]?.stringValue?.hasPrefix("redis unreachable") == true }
        #expect(warnings.count == 1, "one line while it stays down, not one per retry: \(warnings.count)")
        #expect(warnings.first?["reason"]?.stringValue?.isEmpty == false, "the reason is named")
    }
}
