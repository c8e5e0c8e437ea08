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
        #expect(records.allSatisfy { $0["time"]?.string != nil && $0["level"]?.string != nil })
        func record(_ message: String) -> JSONValue? { records.first { $0["message"]?.string == message } }

        let started = try #require(record("hub started"))
        #expect(started["port"]?.number == Double(serve.port))
        #expect(started["host"]?.string == "127.0.0.1")
        #expect(started["presenterToken"]?.string == "set")
        #expect(started["eventLoop"]?.string != nil)
        #expect(["io_uring batches", "one write each"].contains(started["sends"]?.string ?? ""))

        let joined = try #require(record("client joined"))
        #expect(joined["room"]?.string == "logs")
        #expect(joined["role"]?.string == "follower")
        #expect(joined["remote"]?.string == "127.0.0.1")
        let client = try #require(joined["client"]?.string)

        let closed = try #require(records.first { $0["message"]?.string == "connection closed" && $0["client"]?.string == client })
        #expect(closed["room"]?.string == "logs")
        #expect(closed["role"]?.string == "follower")
        #expect(closed["code"]?.number == 1000)
        #expect(closed["by"]?.string == "client")
        let duration = closed["duration"]?.number ?? -1
        #expect(duration >= 0.25 && duration < 5, "the follower stayed about 0.3 s (\(duration))")

        let hello = try #require(record("hello refused"))
        #expect(hello["level"]?.string == "warning")
        #expect(hello["error"]?.string == "token: wrong token for role presenter")
        #expect(hello["code"]?.number == 1008)
        let refusedClose = try #require(records.first { $0["message"]?.string == "connection closed" && $0["hubCode"] != nil })
        #expect(refusedClose["by"]?.string == "hub")
        #expect(refusedClose["hubCode"]?.number == 1008)
        #expect(refusedClose["reason"]?.string == "forbidden")
        #expect(refusedClose["remote"]?.string == "127.0.0.1")
        #expect(refusedClose["client"] == nil, "it never joined")

        let handshake = try #require(record("handshake refused"))
        #expect(handshake["status"]?.number == 403)
        #expect(handshake["reason"]?.string?.contains("origin http://evil.example") == true)

        #expect(record("shutting down")?["closeCode"]?.number == 1012, "SIGTERM: service restart")
        #expect(records.last?["message"]?.string == "stopped")
        for secret in ["sekrit-token", "wrong-guess", "m3trics"] {
            #expect(!serve.stderr.contains(secret), "no log line shows a token")
        }
        #expect(!records.contains { $0["label"]?.string == "libwebsockets" }, "lws lines only at debug and trace")
    }

    @Test func serveAtDebugLogsSocketOpensButNothingPerFrame() throws {
        let web = try TempDir()
        let serve = try ServeProcess(camhubPath, ["--web", web.path, "--log-format", "json", "--log-level", "debug"])
        let follow = try camhub(["follow", "--url", "ws://127.0.0.1:\(serve.port)/hub", "--rate", "60", "--duration", "0.5", "--quiet"])
        #expect(follow.status == 0)
        #expect(serve.stop(SIGINT) == 0)
        let records = serve.stderr.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        #expect(records.contains { $0["message"]?.string == "connection opened" && $0["level"]?.string == "debug" })
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
            .filter { $0["message"]?.string?.hasPrefix("redis unreachable") == true }
        #expect(warnings.count == 1, "one line while it stays down, not one per retry: \(warnings.count)")
        #expect(warnings.first?["reason"]?.string?.isEmpty == false, "the reason is named")
    }
}
