import Foundation
import SharedBytes
import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    /// Sends `count` binary frames, each starting with its sequence number,
    /// to every connection in `ids` from a loop timer (as the hub's tick
    /// does), one round per millisecond; returns when all were handed over.
    private static func sendRounds(
        _ count: Int, frameSize: Int, to ids: [ConnectionID], on server: WebSocketServer
    ) -> Bool {
        let sent = Box(0)
        let timer = server.loop.scheduleRepeating(every: .milliseconds(1)) {
            let n = sent.value
            guard n < count else { return }
            let frame = SharedFrame(kind: .binary, count: frameSize) { buffer in
                buffer.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: n))
                buffer.storeBytes(of: UInt32(n).bigEndian, as: UInt32.self)
            }
            for id in ids { server.sendLatest(frame, to: id) }
            sent.value = n + 1
        }
        defer { timer.cancel() }
        return waitUntil(.seconds(10)) { sent.value == count }
    }

    static func openFollowers(
        _ count: Int, server: ServerHarness, client: ClientHarness
    ) -> [ConnectionID] {
        let clientIDs = (0..<count).map { _ in client.client.connect(ConnectRequest(port: server.port, path: "/feed")) }
        _ = waitUntil { clientIDs.allSatisfy(client.isOpen) && server.opened.count == count }
        return clientIDs
    }

    /// Frames sent from the loop to many followers go out in io_uring batches
    /// wherever the kernel allows it, and every follower still gets its frames
    /// whole and in order, ending with the last one.
    @Test func framesSentFromTheLoopGoOutInBatchesWholeAndInOrder() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        #expect(server.server.batchesSends == BatchedSends.kernelAllows)
        let clientIDs = Self.openFollowers(40, server: server, client: client)
        let serverIDs = server.opened.map(\.id)
        #expect(Self.sendRounds(60, frameSize: 64, to: serverIDs, on: server.server))
        #expect(waitUntil(.seconds(10)) { clientIDs.allSatisfy { Self.sequenceNumbers(client.messages($0)).last == 59 } })
        for id in clientIDs {
            let messages = client.messages(id)
            let received = Self.sequenceNumbers(messages)
            #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 }, "frames out of order or repeated")
            for case .binary(let bytes) in messages {
                #expect(bytes.count == 64 && bytes.dropFirst(4).allSatisfy { $0 == bytes[3] }, "a frame arrived damaged")
            }
        }
        if server.server.batchesSends {
            #expect(server.server.batchedSendStats.sent > 0, "no frame went out in a batch")
        }
    }

    /// A frame larger than the socket can take at once is sent in part by the
    /// batch; lws sends the rest before anything else on that socket, so the
    /// follower gets it whole and then the frames after it.
    @Test func aBatchedFrameTheSocketTakesInPartIsFinishedBeforeTheNext() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        try #require(server.server.batchesSends, "io_uring is not available here: nothing to check")
        let clientIDs = Self.openFollowers(3, server: server, client: client)
        let serverIDs = server.opened.map(\.id)
        let frameSize = 4 << 20  // larger than a loopback socket's send buffer
        #expect(Self.sendRounds(4, frameSize: frameSize, to: serverIDs, on: server.server))
        #expect(waitUntil(.seconds(20)) { clientIDs.allSatisfy { Self.sequenceNumbers(client.messages($0)).last == 3 } })
        for id in clientIDs {
            for case .binary(let bytes) in client.messages(id) {
                #expect(bytes.count == frameSize && bytes.dropFirst(4).allSatisfy { $0 == bytes[3] }, "a frame arrived damaged")
            }
        }
        #expect(server.server.batchedSendStats.partlySent > 0, "no batched frame was taken in part")
    }

    /// With `batchedSends` off every frame is written on its own, as before.
    @Test func withBatchedSendsOffNoFrameGoesThroughABatch() throws {
        let server = try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/feed")]
            $0.batchedSends = false
        }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        #expect(!server.server.batchesSends)
        let clientIDs = Self.openFollowers(5, server: server, client: client)
        #expect(Self.sendRounds(20, frameSize: 64, to: server.opened.map(\.id), on: server.server))
        #expect(waitUntil(.seconds(10)) { clientIDs.allSatisfy { Self.sequenceNumbers(client.messages($0)).last == 19 } })
        #expect(server.server.batchedSendStats == BatchedSendStats())
    }
}
