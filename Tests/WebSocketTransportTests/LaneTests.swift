import Foundation
import SharedBytes
import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    static func sequenceNumbers(_ messages: [WebSocketMessage]) -> [UInt32] {
        messages.compactMap { message in
            guard case .binary(let b) = message, b.count >= 4 else { return nil }
            return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
        }
    }

    @Test func latestFrameLaneKeepsOnlyTheNewestFrameForASlowReader() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let cid = client.client.connect(ConnectRequest(port: server.port, path: "/feed"))
        client.client.setReadingPaused(true, for: cid)
        #expect(waitUntil { client.isOpen(cid) && server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)

        let total = 300
        let frameSize = 32 * 1024
        let sent = Box(0)
        let pendingSeen = Box(0)  // most frames ever pending in the latest slot
        let srv = server.server
        let timer = srv.loop.scheduleRepeating(every: .milliseconds(1)) {
            let n = sent.value
            guard n < total else { return }
            let frame = SharedFrame(kind: .binary, count: frameSize) { buffer in
                buffer.initializeMemory(as: UInt8.self, repeating: 0)
                buffer.storeBytes(of: UInt32(n).bigEndian, as: UInt32.self)
            }
            srv.sendLatest(frame, to: sid)
            if let stats = srv.stats(sid) {
                pendingSeen.mutate { $0 = max($0, stats.hasPendingFrame ? 1 : 0) }
                #expect(stats.queuedControlMessages == 0)
            }
            sent.value = n + 1
        }
        defer { timer.cancel() }
        #expect(waitUntil(.seconds(10)) { sent.value == total })

        let whilePaused = Box<ConnectionStats?>(nil)
        srv.execute { whilePaused.value = srv.stats(sid) }
        #expect(waitUntil { whilePaused.value != nil })
        let paused = try #require(whilePaused.value)
        #expect(paused.framesReplaced > 0, "the paused reader never backed the server up")
        #expect(paused.messagesWritten < total)

        client.client.setReadingPaused(false, for: cid)
        #expect(waitUntil(.seconds(10)) { Self.sequenceNumbers(client.messages(cid)).last == UInt32(total - 1) })
        let received = Self.sequenceNumbers(client.messages(cid))
        #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 }, "frames out of order or repeated")
        #expect(received.count < total)

        let after = Box<ConnectionStats?>(nil)
        srv.execute { after.value = srv.stats(sid) }
        #expect(waitUntil { after.value != nil })
        let final = try #require(after.value)
        #expect(!final.hasPendingFrame)
        #expect(final.messagesWritten + final.framesReplaced == total)  // each frame written or replaced, once
        #expect(final.messagesWritten == received.count)
        #expect(pendingSeen.value <= 1)
    }

    @Test func controlLaneOverflowClosesWith1008() throws {
        // Sends made inside a callback (here: the message handler) queue, as
        // nothing can drain before the callback returns.
        let server = try ServerHarness(
            {
                $0.endpoints = [WebSocketEndpoint(path: "/feed")]
                $0.sendQueueLimits = SendQueueLimits(maxMessages: 8, maxBytes: 1 << 20)
            },
            onMessage: { srv, id, _ in
                for i in 0..<100 { srv.send(.text("event \(i)"), to: id) }
            })
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let cid = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)
        client.client.send(.text("go"), to: cid)
        #expect(waitUntil { client.closeEvent(cid) != nil })
        #expect(client.closeEvent(cid)?.code == .policyViolation)
        #expect(waitUntil { server.closeCode(of: sid) != nil })
        #expect(server.closeCode(of: sid) == .some(.policyViolation))
    }

    @Test func sendFromAnotherThreadGoesThroughTheMailbox() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let cid = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)
        let srv = server.server
        let senderWasLoop = Box<Bool?>(nil)
        let executedOnLoop = Box<Bool?>(nil)
        let done = Box(false)
        Thread.detachNewThread {
            senderWasLoop.value = srv.loop.isCurrentThread
            for i in 0..<50 { srv.send(.text("from thread \(i)"), to: sid) }
            srv.execute { executedOnLoop.value = srv.loop.isCurrentThread }
            done.value = true
        }
        #expect(waitUntil { done.value && client.messages(cid).count == 50 })
        #expect(client.messages(cid) == (0..<50).map { .text("from thread \($0)") })
        #expect(senderWasLoop.value == false)
        #expect(waitUntil { executedOnLoop.value != nil })
        #expect(executedOnLoop.value == true)
    }

    /// A loop that fell behind finds several batches in its mailbox: each
    /// connection gets only its newest frame of them, events stay in order.
    @Test func batchesWaitingForABusyLoopSendEachConnectionItsNewestFrameOnly() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let both = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { server.opened.count == 1 })
        let onlyFirst = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { server.opened.count == 2 })
        let (a, b) = (server.opened[0].id, server.opened[1].id)
        let srv = server.server
        let busy = DispatchSemaphore(value: 0)
        let blocked = Box(false)
        _ = srv.loop.execute {
            blocked.value = true
            busy.wait()  // the loop is busy while three batches arrive
        }
        #expect(waitUntil { blocked.value })
        var first = OutboundBatch()
        first.sendLatest(SharedFrame(text: "frame 1"), to: a)
        first.sendLatest(SharedFrame(text: "frame 1"), to: b)
        first.send(SharedFrame(text: "event after 1"), to: a)
        var second = OutboundBatch()
        second.sendLatest(SharedFrame(text: "frame 2"), to: a)
        var third = OutboundBatch()
        third.send(SharedFrame(text: "event after 2"), to: a)
        srv.apply(first)
        srv.apply(second)
        srv.apply(third)
        busy.signal()
        #expect(waitUntil { client.messages(both).count == 3 && client.messages(onlyFirst).count == 1 })
        let stats = Box<ConnectionStats?>(nil)
        _ = srv.loop.execute { stats.value = srv.stats(a) }
        #expect(waitUntil { stats.value != nil })
        #expect(stats.value?.messagesWritten == 3)
        #expect(srv.framesReplaced == 1)
        // Nothing else follows: the next message each gets is a marker sent now, after all of it.
        var marker = OutboundBatch()
        marker.send(SharedFrame(text: "marker"), to: a)
        marker.send(SharedFrame(text: "marker"), to: b)
        srv.apply(marker)
        #expect(waitUntil { client.messages(both).last == .text("marker") && client.messages(onlyFirst).last == .text("marker") })
        #expect(client.messages(both) == [.text("event after 1"), .text("frame 2"), .text("event after 2"), .text("marker")])
        #expect(client.messages(onlyFirst) == [.text("frame 1"), .text("marker")])
    }

    @Test func serverCloseFlushesQueuedMessagesThenSendsCodeAndReason() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let cid = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)
        server.server.send(.text("last words"), to: sid)
        server.server.close(sid, code: CloseCode(4000), reason: "room closed")
        #expect(waitUntil { client.closeEvent(cid) != nil })
        #expect(client.messages(cid) == [.text("last words")])
        #expect(client.closeEvent(cid)?.code == CloseCode(4000))
        #expect(waitUntil { server.closeCode(of: sid) != nil })
        #expect(server.closeCode(of: sid) == .some(CloseCode(4000)))
    }

    @Test func clientCloseCodeReachesTheServer() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let cid = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)
        client.client.close(cid, code: .normal, reason: "bye")
        #expect(waitUntil { server.closeCode(of: sid) != nil && client.closeEvent(cid) != nil })
        #expect(server.closeCode(of: sid) == .some(.normal))
        #expect(client.closeEvent(cid)?.code == .normal)
    }
}

extension TransportTests {
    /// The shim the server applies to every accepted WebSocket.
    @Test func notSentLowWatermarkShimSetsTheSocketOption() throws {
        let listener = try SilentListener()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        #expect(WebSocketTransportSettings.setNotSentLowWatermark(fd: fd, bytes: 16 * 1024))
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        let tcpNotSentLowWatermark: Int32 = 25  // TCP_NOTSENT_LOWAT
        #expect(getsockopt(fd, Int32(IPPROTO_TCP), tcpNotSentLowWatermark, &value, &length) == 0)
        #expect(value == 16 * 1024)
        _ = listener
    }
}

@Suite("Shared frames")
struct SharedFrameTests {
    @Test func aPayloadWithEnoughHeadroomIsSharedNotCopied() {
        let payload = SharedBytes(Array("{\"type\":\"frame\"}".utf8), headroom: SharedFrame.headroom)
        let a = SharedFrame(kind: .text, payload: payload)
        let b = SharedFrame(kind: .text, payload: payload)
        #expect(a.payload === payload && b.payload === payload, "every connection writes the same bytes")
        #expect(a.count == 16)
    }

    @Test func aPayloadWithTooLittleHeadroomIsCopiedOnceWithEnough() {
        let payload = SharedBytes(Array("hello".utf8), headroom: 0)
        let frame = SharedFrame(kind: .text, payload: payload)
        #expect(frame.payload !== payload)
        #expect(frame.payload.headroom >= SharedFrame.headroom)
        #expect(frame.payload.array == Array("hello".utf8))
    }

    @Test func aPayloadHoldsTheSameBytesFromContiguousAndNonContiguousSources() {
        let bytes: [UInt8] = [0x7B, 0x00, 0xFF, 0x22, 0x7D]
        #expect(SharedBytes(bytes, headroom: 4).array == bytes)
        #expect(SharedBytes(bytes[1...3], headroom: 0).array == [0x00, 0xFF, 0x22])
        #expect(SharedBytes(bytes.reversed(), headroom: 2).array == [0x7D, 0x22, 0xFF, 0x00, 0x7B])
        #expect(SharedBytes(repeatElement(UInt8(9), count: 3), headroom: 0).array == [9, 9, 9])
        #expect(SharedBytes([UInt8](), headroom: 8).count == 0)
    }
}
