import SocketTestSupport
import Testing
@testable import WebSocketTransport

extension TransportTests {
    static func hubServer(origins: OriginPolicy = .allowAll) throws -> ServerHarness {
        try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/hub", subprotocol: "camhub.v1"),
                            WebSocketEndpoint(path: "/plain"),
                            WebSocketEndpoint(path: "/other", subprotocol: "other.v1")]
            $0.originPolicy = origins
        }
    }

    @Test func matchingPathAndSubprotocolOpenWithConnectionInfo() throws {
        let server = try Self.hubServer()
        let client = try ClientHarness()
        defer { client.client.shutdown(); server.server.shutdown() }
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
        defer { client.client.shutdown(); server.server.shutdown() }
        let refused = [
            ConnectRequest(port: server.port, path: "/hub", subprotocol: "camhub.v2"),
            ConnectRequest(port: server.port, path: "/hub"),                          // none offered
            ConnectRequest(port: server.port, path: "/hub", subprotocol: "other.v1"), // another path's
            ConnectRequest(port: server.port, path: "/plain", subprotocol: "camhub.v1"),
            ConnectRequest(port: server.port, path: "/nowhere"),
            ConnectRequest(port: server.port, path: "/nowhere", subprotocol: "camhub.v1"),
        ]
        let ids = refused.map { client.client.connect($0) }
        #expect(waitUntil { ids.allSatisfy { client.closeEvent($0) != nil } })
        for (id, request) in zip(ids, refused) {
            #expect(client.closeEvent(id)?.wasOpen == false, "\(request.path) \(request.subprotocol ?? "-")")
        }
        #expect(server.opened.isEmpty)
    }

    @Test func disallowedOriginIsRefused() throws {
        let server = try Self.hubServer(origins: .allowList(["http://127.0.0.1:8080"]))
        let client = try ClientHarness()
        defer { client.client.shutdown(); server.server.shutdown() }
        let evil = client.client.connect(ConnectRequest(
            port: server.port, path: "/hub", subprotocol: "camhub.v1", origin: "http://evil.example"))
        #expect(waitUntil { client.closeEvent(evil) != nil })
        #expect(client.closeEvent(evil)?.wasOpen == false)
        _ = client.connectAndWait(ConnectRequest(
            port: server.port, path: "/hub", subprotocol: "camhub.v1", origin: "http://127.0.0.1:8080"))
        _ = client.connectAndWait(ConnectRequest(port: server.port, path: "/hub", subprotocol: "camhub.v1"))
        #expect(waitUntil { server.opened.count == 2 })
        #expect(Set(server.opened.map(\.origin)) == [nil, "http://127.0.0.1:8080"])
    }

    @Test func refusedUpgradeGetsAnHTTPStatus() throws {
        let server = try Self.hubServer(origins: .allowList([]))
        defer { server.server.shutdown() }
        let upgrade = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="]
        // The raw client sends "Connection: close" too; lws reads the last value.
        let unknown = try RawHTTP.request(port: server.port, path: "/nowhere", extraHeaders: upgrade)
        #expect(unknown.status == 404)
        let origin = try RawHTTP.request(port: server.port, path: "/plain",
                                         extraHeaders: upgrade + ["Origin: http://evil.example"])
        #expect(origin.status == 403)
    }
}
