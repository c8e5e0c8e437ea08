import CamHubProtocol
import Dispatch
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

@testable import HubServer

extension HubServerTests {
    /// While a room's loop is held up, another loop queues at most `hubQueue`
    /// of its clients' messages for it: the client whose message finds the
    /// queue full is closed 1013, and the hub answers everything it queued
    /// once it goes on. A client of the room's own loop just waits.
    @Test func aClientWhoseMessageFindsTheHubsQueueFullIsClosed1013() throws {
        let hub = try RunningHub {
            $0.loops = 2
            $0.hubQueue = 4
        }
        let clients = try HubClients(port: hub.port)
        let a = clients.join("queue", role: "follower")
        let b = clients.join("queue", role: "follower")  // one of them is on each loop (AcceptSpread takes turns)
        let before = try hub.scrape()[#"camhub_closes_total{code="1013"}"#]
        let gate = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        let roomLoop = hub.server.hubs.placement.loop(of: try RoomName(validating: "queue"))
        hub.server.loops.servers[roomLoop].execute {
            held.signal()
            gate.wait()
        }
        held.wait()
        for n in 0..<10 {
            a.send(#"{"type":"ping","t":\#(n)}"#)
            b.send(#"{"type":"ping","t":\#(n)}"#)
        }
        // The other loop's client: 4 messages queued, the 5th closes it.
        #expect(waitUntil { a.closeEvent != nil || b.closeEvent != nil }, "the client on the other loop is closed")
        gate.signal()
        let (closed, open) = a.closeEvent != nil ? (a, b) : (b, a)
        #expect(waitUntil { open.messages("pong").count == 10 }, "the room's own loop's client gets every answer")
        #expect(open.closeEvent == nil)
        #expect(waitUntil { ((try? hub.scrape()[#"camhub_closes_total{code="1013"}"#]) ?? 0) - before == 1 }, "closed with 1013")
        #expect(closed.messages("pong").count <= 4, "what was queued before the close, at most")
        #expect(try hub.scrape()[#"camhub_queue_depth{queue="hub_mailbox"}"#] == 0)
    }
}
