import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    @Test func echoesTextAndBinaryMessages() throws {
        let server = try ServerHarness()
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let id = client.connectAndWait(ConnectRequest(port: server.port, path: "/echo"))
        client.client.send(.text("hello, camera"), to: id)
        client.client.send(.binary([0, 1, 2, 254, 255]), to: id)
        #expect(waitUntil { client.messages(id).count == 2 })
        #expect(client.messages(id) == [.text("hello, camera"), .binary([0, 1, 2, 254, 255])])
    }

    @Test func echoesA7KiBMessageSentInFragmentsWhole() throws {
        let server = try ServerHarness()
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let id = client.connectAndWait(ConnectRequest(port: server.port, path: "/echo"))
        let text = String((0..<(7 * 1024)).map { i in Character(UnicodeScalar(UInt8(97 + i % 26))) })
        let binary = (0..<(7 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        client.client.send(.text(text), to: id, fragmentSize: 1000)
        client.client.send(.binary(binary), to: id, fragmentSize: 3000)
        #expect(waitUntil { client.messages(id).count == 2 })
        #expect(client.messages(id) == [.text(text), .binary(binary)])
    }

    @Test func messageOver8KiBClosesWith1009() throws {
        let server = try ServerHarness()
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let id = client.connectAndWait(ConnectRequest(port: server.port, path: "/echo"))
        client.client.send(.binary([UInt8](repeating: 7, count: 8 * 1024 + 1)), to: id)
        #expect(waitUntil { client.closeEvent(id) != nil })
        #expect(client.closeEvent(id)?.code == .messageTooBig)
        #expect(client.messages(id).isEmpty)
    }

    @Test func exactly8KiBIsStillAccepted() throws {
        let server = try ServerHarness()
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let id = client.connectAndWait(ConnectRequest(port: server.port, path: "/echo"))
        let payload = [UInt8](repeating: 9, count: 8 * 1024)
        client.client.send(.binary(payload), to: id, fragmentSize: 2048)
        #expect(waitUntil { client.messages(id).count == 1 })
        #expect(client.messages(id) == [.binary(payload)])
    }

    @Test func invalidUTF8TextClosesWith1007() throws {
        let server = try ServerHarness()
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let id = client.connectAndWait(ConnectRequest(port: server.port, path: "/echo"))
        client.client.send(bytes: [0x68, 0x69, 0xC3, 0x28], kind: .text, to: id)
        #expect(waitUntil { client.closeEvent(id) != nil })
        #expect(client.closeEvent(id)?.code == .invalidPayload)
        #expect(client.messages(id).isEmpty)
    }
}
