import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    /// `/echo` (with `--echo`) for RFC 6455 suites: messages up to
    /// `--echo-max-message` (16 MiB) while `/hub` keeps its 8 KiB.
    @Suite struct Echo {
        final class Recorder: @unchecked Sendable {
            let lock = NSLock()
            var messages: [WebSocketMessage] = []
            var close: ClientCloseEvent?
            var opened = false
            func locked<T>(_ body: (Recorder) -> T) -> T {
                lock.lock()
                defer { lock.unlock() }
                return body(self)
            }
        }

        func client(_ recorder: Recorder) throws -> WebSocketClient {
            var configuration = ClientConfiguration()
            configuration.maxMessageSize = 32 << 20
            configuration.sendQueueLimits = SendQueueLimits(maxMessages: 4096, maxBytes: 64 << 20)
            let client = WebSocketClient(configuration: configuration)
            try client.start(
                ClientHandlers(
                    onOpen: { _ in recorder.locked { $0.opened = true } },
                    onMessage: { _, m in recorder.locked { $0.messages.append(m) } },
                    onClose: { _, e in recorder.locked { $0.close = e } }))
            return client
        }

        @Test func echoTakesMessagesUpTo16MiBAndClosesAbove() throws {
            let hub = try RunningHub { $0.echo = true }
            let recorder = Recorder()
            let c = try client(recorder)
            defer { c.shutdown() }
            let id = c.connect(ConnectRequest(port: hub.port, path: "/echo"))
            #expect(waitUntil { recorder.locked { $0.opened } })
            let big = (0..<(16 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            c.send(.binary(Array(big.prefix(64 << 10))), to: id)
            c.send(.binary(big), to: id, fragmentSize: 1 << 20)
            try #require(waitUntil(.seconds(30)) { recorder.locked { $0.messages.count } == 2 }, "\(String(describing: recorder.locked { $0.close }))")
            recorder.locked {
                let small = $0.messages.first == .binary(Array(big.prefix(64 << 10)))
                let whole = $0.messages.last == .binary(big)
                #expect(small, "a 64 KiB message comes back whole")
                #expect(whole, "a 16 MiB message comes back whole")
            }
            c.send(.binary(big + [1]), to: id, fragmentSize: 1 << 20)
            #expect(waitUntil(.seconds(30)) { recorder.locked { $0.close != nil } })
            #expect(recorder.locked { $0.close?.code } == .messageTooBig)
        }

        @Test func hubKeepsIts8KiBCapWhenEchoIsOn() throws {
            let hub = try RunningHub { $0.echo = true }
            let clients = try HubClients(port: hub.port)
            let connection = clients.join(role: "follower")
            connection.send("{\"type\":\"ping\",\"pad\":\"" + String(repeating: "x", count: 9 * 1024) + "\"}")
            #expect(connection.waitForClose()?.code == .messageTooBig)
        }
    }
}
