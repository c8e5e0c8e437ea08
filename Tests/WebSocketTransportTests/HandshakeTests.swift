import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    static func hubServer(origins: OriginPolicy = .allowAll) throws -> ServerHarness {
        try ServerHarness {
            $0.endpoints = [
                WebSocketEndpoint(path: "/hub", subprotocol: "camhub.v1"),
                WebSocketEndpoint(path: "/plain"),
                WebSocketEndpoint(path: "/other", subprotocol: "other.v1"),
            ]
            $0.originPolicy = origins
        }
    }

    @Test func matchingPathAndSubprotocolOpenWithConnectionInfo() throws {
        let server = try Self.hubServer()
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        _ = client.connectAndWait(ConnectRequest(port: server.port, path: "/hub", subprotocol: "camhub.v1"))
        _ = client.connectAndWait(ConnectRequest(port: server.port, path: "/plain"))
        #expect(waitUntil { server.opened.count == 2 })
        let infos = server.opened.sorted { $0.id < $1.id }
        #expect(infos.map(\.path) == ["/hub", "/plain"])
        #expect(infos.map(\.subprotocol) == ["camhub.v1", nil])
        #expect(infos.allSatisfy { $0.remoteAddress == "127.0.0.1" && $0.origin == nil })
    }

    @Test func wrongSubprotocolOrPathIsRefused() throws {
        let server = try Self.hubServer()
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let refused = [
            ConnectRequest(port: server.port, path: "/hub", subprotocol: "camhub.v2"),
            ConnectRequest(port: server.port, path: "/hub"),  // none offered
            ConnectRequest(port: server.port, path: "/hub", subprotocol: "other.v1"),  // another path's
            ConnectRequest(port: server.port, path: "/plain", subprotocol: "camhub.v1"),
            ConnectRequest(port: server.port, path: "/nowhere"),
            ConnectRequest(port: server.port, path: "/nowhere", subprotocol: "camhub.v1"),
        ]
        // What the lws client reports: the status and the server's reason.
        let endpoints = "/hub (subprotocol camhub.v1), /other (subprotocol other.v1), /plain (no subprotocol), /echo (no subprotocol)"
        let expected = [
            "HTTP 400 Bad Request: subprotocol camhub.v1 required (offered: camhub.v2)",
            "HTTP 400 Bad Request: subprotocol camhub.v1 required (offered: none)",
            "HTTP 400 Bad Request: subprotocol camhub.v1 required (offered: other.v1)",
            "HTTP 400 Bad Request: /plain takes no subprotocol (offered: camhub.v1)",
            "HTTP 404 Not Found: no WebSocket endpoint at /nowhere; try one of \(endpoints)",
            "HTTP 404 Not Found: no WebSocket endpoint at /nowhere; try one of \(endpoints)",
        ]
        let ids = refused.map { client.client.connect($0) }
        #expect(waitUntil { ids.allSatisfy { client.closeEvent($0) != nil } })
        for ((id, request), message) in zip(zip(ids, refused), expected) {
            let event = client.closeEvent(id)
            #expect(event?.wasOpen == false, "\(request.path) \(request.subprotocol ?? "-")")
            #expect(event?.error == message)
            #expect(event?.httpStatus == Int(message.dropFirst(5).prefix(3)))
        }
        #expect(server.opened.isEmpty)
    }

    @Test func refusedUpgradeIsAWholeHTTP11ResponseNamingTheProblem() throws {
        let server = try Self.hubServer()
        defer { server.server.shutdown() }
        let upgrade = [
            "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        ]
        let cases: [(path: String, headers: [String], statusLine: String, body: String)] = [
            (
                "/hub", upgrade + ["Sec-WebSocket-Protocol: camhub.v2"], "HTTP/1.1 400 Bad Request",
                "subprotocol camhub.v1 required (offered: camhub.v2)"
            ),
            (
                "/hub", upgrade + ["Sec-WebSocket-Protocol: other.v1, camhub.v1"], "HTTP/1.1 400 Bad Request",
                "subprotocol camhub.v1 must come before other.v1 in the offer (offered: other.v1, camhub.v1)"
            ),
            (
                "/ws", upgrade + ["Sec-WebSocket-Protocol: camhub.v1"], "HTTP/1.1 404 Not Found",
                "no WebSocket endpoint at /ws; try one of /hub (subprotocol camhub.v1), /other (subprotocol other.v1), /plain (no subprotocol), /echo (no subprotocol)"
            ),
            (
                "/hub",
                [
                    "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 8",
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol: camhub.v1",
                ],
                "HTTP/1.1 426 Upgrade Required", "WebSocket version 13 required (offered: 8)"
            ),
            (
                "/hub",
                [
                    "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                    "Sec-WebSocket-Protocol: camhub.v1",
                ],
                "HTTP/1.1 400 Bad Request", "Sec-WebSocket-Key header missing or too long (a valid one is 24 characters of base64)"
            ),
            // The raw client says "Connection: close" and nothing else here.
            (
                "/hub",
                [
                    "Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                    "Sec-WebSocket-Protocol: camhub.v1",
                ],
                "HTTP/1.1 400 Bad Request", "Connection: Upgrade header required"
            ),
        ]
        for c in cases {
            let response = try RawHTTP.request(port: server.port, path: c.path, extraHeaders: c.headers)
            #expect(response.statusLine == c.statusLine, "\(c.path) \(c.headers)")
            #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
            #expect(response.headers["content-length"] == String(response.body.count))
            #expect(response.text == c.body + "\n")
            #expect(response.headers["x-websocket-refusal"] == c.body)
        }
        let old = try RawHTTP.request(
            port: server.port, path: "/hub",
            extraHeaders: [
                "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 8",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol: camhub.v1",
            ])
        #expect(old.headers["sec-websocket-version"] == "13")
        // Client text is echoed as printable ASCII only, and cut short.
        let long = String(repeating: "x", count: 300)
        let hostile = try RawHTTP.request(
            port: server.port, path: "/hub",
            extraHeaders: upgrade + ["Sec-WebSocket-Protocol: \(long)"])
        #expect(hostile.text == "subprotocol camhub.v1 required (offered: \(String(repeating: "x", count: 100))...)\n")
        #expect(server.opened.isEmpty)
    }

    @Test func plainGETOnAWebSocketPathIs426WithUpgradeHeader() throws {
        let server = try Self.hubServer()
        defer { server.server.shutdown() }
        let response = try RawHTTP.request(port: server.port, path: "/hub")
        #expect(response.statusLine == "HTTP/1.1 426 Upgrade Required")
        #expect(response.headers["upgrade"] == "websocket")
        #expect(response.text == "/hub is a WebSocket endpoint (subprotocol camhub.v1): connect with a WebSocket client\n")
        let missing = try RawHTTP.request(port: server.port, path: "/missing.txt")
        #expect(missing.statusLine == "HTTP/1.1 404 Not Found")
    }

    @Test func disallowedOriginIsRefused() throws {
        let server = try Self.hubServer(origins: .allowList(["http://127.0.0.1:8080"]))
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let evil = client.client.connect(
            ConnectRequest(
                port: server.port, path: "/hub", subprotocol: "camhub.v1", origin: "http://evil.example"))
        #expect(waitUntil { client.closeEvent(evil) != nil })
        #expect(client.closeEvent(evil)?.wasOpen == false)
        _ = client.connectAndWait(
            ConnectRequest(
                port: server.port, path: "/hub", subprotocol: "camhub.v1", origin: "http://127.0.0.1:8080"))
        _ = client.connectAndWait(ConnectRequest(port: server.port, path: "/hub", subprotocol: "camhub.v1"))
        #expect(waitUntil { server.opened.count == 2 })
        #expect(Set(server.opened.map(\.origin)) == [nil, "http://127.0.0.1:8080"])
    }

    @Test func refusedUpgradeGetsAnHTTPStatus() throws {
        let server = try Self.hubServer(origins: .allowList([]))
        defer { server.server.shutdown() }
        let upgrade = [
            "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        ]
        // The raw client sends "Connection: close" too; lws reads the last value.
        let unknown = try RawHTTP.request(port: server.port, path: "/nowhere", extraHeaders: upgrade)
        #expect(unknown.statusLine == "HTTP/1.1 404 Not Found")
        let origin = try RawHTTP.request(
            port: server.port, path: "/plain",
            extraHeaders: upgrade + ["Origin: http://evil.example"])
        #expect(origin.statusLine == "HTTP/1.1 403 Forbidden")
        #expect(origin.text == "origin http://evil.example is not allowed at /plain\n")
    }
}
