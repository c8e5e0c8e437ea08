import Foundation
import SharedBytes
import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    /// A client that stopped reading while frames keep coming: once its socket
    /// has not drained for `slowClientTimeout`, the server closes it and its
    /// handler sees 1008 (policy violation, "too slow"); not before.
    @Test func aClientThatStopsReadingIsClosed1008AfterTheSlowClientTimeout() throws {
        let server = try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/feed")]
            $0.slowClientTimeout = 1
        }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let cid = client.client.connect(ConnectRequest(port: server.port, path: "/feed"))
        client.client.setReadingPaused(true, for: cid)
        #expect(waitUntil { client.isOpen(cid) && server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)

        let srv = server.server
        let sent = Box(0)
        let timer = srv.loop.scheduleRepeating(every: .milliseconds(2)) {
            guard sent.value < 10_000 else { return }  // bounded: at most 20 s of frames
            srv.sendLatest(SharedFrame(kind: .binary, count: 32 * 1024) { $0.initializeMemory(as: UInt8.self, repeating: 7) }, to: sid)
            sent.value += 1
        }
        defer { timer.cancel() }
        let start = ContinuousClock.now
        #expect(waitUntil(.seconds(15)) { server.closeCode(of: sid) != nil }, "the server closes the client that stopped reading")
        #expect(ContinuousClock.now - start >= .seconds(1), "not before slowClientTimeout")
        #expect(server.closeCode(of: sid) == .some(.policyViolation))
    }
}
