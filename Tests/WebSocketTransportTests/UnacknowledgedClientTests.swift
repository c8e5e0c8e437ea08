import Foundation
import SharedBytes
import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    /// A client that stopped reading while the kernel still takes every frame
    /// (small frames, slowly: no write ever waits in the server, and the
    /// kernel's unsent bytes stay under TCP_NOTSENT_LOWAT for ~10 s): it
    /// acknowledges nothing, and once that has lasted `slowClientTimeout` the
    /// server closes it 1008, counted as unacknowledged.
    @Test func aClientThatAcknowledgesNothingIsClosed1008ThoughItsSocketStillTakesFrames() throws {
        let server = try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/feed")]
            $0.slowClientTimeout = 1
        }
        defer { server.server.shutdown() }
        let stuck = try NonReadingSocket(port: server.port, path: "/feed")
        #expect(waitUntil { server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)

        // 100 bytes every 50 ms (2 KB/s), at most 20 s of them: the peer's ~4 KiB
        // window and the 16 KiB of unsent bytes the kernel takes last ~10 s.
        let srv = server.server
        let sent = Box(0)
        let timer = srv.loop.scheduleRepeating(every: .milliseconds(50)) {
            guard sent.value < 400 else { return }
            srv.sendLatest(SharedFrame(kind: .binary, count: 100) { $0.initializeMemory(as: UInt8.self, repeating: 7) }, to: sid)
            sent.value += 1
        }
        defer { timer.cancel() }
        #expect(waitUntil(.seconds(20)) { server.closeCode(of: sid) != nil }, "the server closes the client that stopped reading")
        #expect(server.closeCode(of: sid) == .some(.policyViolation))
        #expect(srv.slowCloses == SlowCloses(unacknowledged: 1, undrained: 0), "judged by its acknowledgements, not by a full socket")
        withExtendedLifetime(stuck) {}
    }

    /// A client that keeps reading is never judged stalled, however long it is
    /// sent frames: its acknowledgements advance between sweeps.
    @Test func aClientThatReadsIsNeverClosedAsSlow() throws {
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
        #expect(waitUntil { client.isOpen(cid) && server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)
        let srv = server.server
        let sent = Box(0)
        let timer = srv.loop.scheduleRepeating(every: .milliseconds(20)) {
            guard sent.value < 200 else { return }
            srv.sendLatest(SharedFrame(kind: .binary, count: 4096) { $0.initializeMemory(as: UInt8.self, repeating: 7) }, to: sid)
            sent.value += 1
        }
        defer { timer.cancel() }
        // 200 frames over ≥ 4 s: four sweeps or more, each seeing acknowledgements advance.
        #expect(waitUntil(.seconds(20)) { client.messages(cid).count == 200 }, "every frame read")
        #expect(server.closeCode(of: sid) == nil && srv.slowCloses == SlowCloses())
    }

    /// What a client that stopped reading can pin of kernel memory is bounded
    /// by `socketSendBuffer` (which the kernel doubles) even without
    /// TCP_NOTSENT_LOWAT: once the kernel refuses, the rest waits as the one
    /// newest frame in the server.
    @Test func aClientThatStopsReadingPinsNoMoreThanTheSocketSendBuffer() throws {
        let server = try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/feed")]
            $0.slowClientTimeout = 0
            $0.notSentLowWatermark = 0
            $0.socketSendBuffer = 64 * 1024
        }
        defer { server.server.shutdown() }
        let stuck = try NonReadingSocket(port: server.port, path: "/feed")
        #expect(waitUntil { server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)

        let srv = server.server
        let frameSize = 16 * 1024
        let written = Box<Int?>(nil)  // frames the kernel took before it refused one
        let sent = Box(0)
        let timer = srv.loop.scheduleRepeating(every: .milliseconds(2)) {
            guard written.value == nil, sent.value < 1_000 else { return }  // bounded: 16 MB at most
            srv.sendLatest(SharedFrame(kind: .binary, count: frameSize) { $0.initializeMemory(as: UInt8.self, repeating: 7) }, to: sid)
            sent.value += 1
            if let stats = srv.stats(sid), stats.hasPendingFrame { written.value = stats.messagesWritten }
        }
        defer { timer.cancel() }
        #expect(waitUntil(.seconds(15)) { written.value != nil }, "the kernel stops taking frames")
        // 128 KiB of send buffer, the peer's few KiB of window and lws's rest of a partly taken frame.
        let bytes = (written.value ?? .max) * frameSize
        #expect(bytes <= 192 * 1024, "\(bytes) bytes went to a client that reads nothing")
        withExtendedLifetime(stuck) {}
    }
}
