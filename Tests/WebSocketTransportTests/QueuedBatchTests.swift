import Dispatch
import Foundation
import SharedBytes
import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    /// A server whose loop is held up (a job waiting on `gate`), a client
    /// reading it, and that client's id on the server.
    private func heldLoop(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws
        -> (ServerHarness, ClientHarness, client: ConnectionID, server: ConnectionID, gate: DispatchSemaphore)
    {
        let server = try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/feed")]
            configure(&$0)
        }
        let client = try ClientHarness()
        let cid = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { server.opened.count == 1 })
        let sid = try #require(server.opened.first?.id)
        let gate = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        server.server.execute {
            held.signal()
            gate.wait()
        }
        held.wait()
        return (server, client, cid, sid, gate)
    }

    /// Batches for a loop that fell behind wait at most `maxQueuedBatches`
    /// deep: beyond it they are merged, each follower keeping its newest frame
    /// and every ordered message, in order.
    @Test func batchesForALoopThatFellBehindAreMergedKeepingTheNewestFrameAndEveryMessage() throws {
        let (server, client, cid, sid, gate) = try heldLoop { $0.maxQueuedBatches = 4 }
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        var deepest = 0
        for n in 0..<40 {
            var batch = OutboundBatch()
            if n % 10 == 0 { batch.send(SharedFrame(text: "event \(n)"), to: sid) }
            batch.sendLatest(SharedFrame(text: "frame \(n)"), to: sid)
            server.server.apply(batch)
            deepest = max(deepest, server.server.queuedBatchCount)
        }
        #expect(deepest <= 4, "never more than maxQueuedBatches waiting (saw \(deepest))")
        gate.signal()
        #expect(waitUntil { client.messages(cid).last == .text("frame 39") })
        let texts = client.messages(cid).compactMap { if case .text(let t) = $0 { return t } else { return nil } }
        #expect(texts.filter { $0.hasPrefix("event") } == ["event 0", "event 10", "event 20", "event 30"], "every message, in order")
        #expect(texts.filter { $0.hasPrefix("frame") } == ["frame 39"], "only the newest frame")
        #expect(server.server.framesReplaced == 39)
    }

    /// A connection owed more ordered messages than its control lane holds,
    /// by a loop that fell behind, is closed 1013 (try again later): those
    /// messages cannot be dropped, and the loop cannot keep up with it.
    @Test func aConnectionOwedMoreMessagesThanItsLaneHoldsByALoopBehindIsClosed1013() throws {
        let (server, client, _, sid, gate) = try heldLoop {
            $0.maxQueuedBatches = 4
            $0.sendQueueLimits = SendQueueLimits(maxMessages: 50, maxBytes: 1 << 20)
        }
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        for n in 0..<10 {
            var batch = OutboundBatch()
            for m in 0..<10 { batch.send(SharedFrame(text: "event \(n).\(m)"), to: sid) }
            server.server.apply(batch)
        }
        #expect(server.server.queuedBatchCount <= 4)
        gate.signal()
        #expect(waitUntil { server.closeCode(of: sid) != nil })
        #expect(server.closeCode(of: sid) == .some(.tryAgainLater))
    }
}
