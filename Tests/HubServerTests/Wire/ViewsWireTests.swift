import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// The audience's view through the real server with WebSocket clients: an
/// explorer's `looking` reaches the presenter as a `viewports` event with its
/// region, a fellow follower hears nothing of it, and a `summon` of that one
/// client brings it back.
extension HubServerTests {
    @Test func anExplorersViewReachesThePresenterAndNotOtherFollowersOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let presenter = clients.join(role: "presenter")
        let other = clients.join(role: "follower")
        let ann = clients.join(role: "follower")
        ann.send(#"{"type":"follow","state":"exploring"}"#)
        ann.send(#"{"type":"looking","region":[[2.3,48.9],[2.4,48.9],[2.4,48.8],[2.3,48.8]]}"#)
        let event = try #require(presenter.nextEvent("viewports"))
        let view = try #require(event["clients"]?.arrayValue?.first)
        #expect(view["region"]?.arrayValue?.count == 4 && view["region"]?[1]?[0]?.numberValue == 2.4)
        #expect(event["others"]?.numberValue == 0)
        presenter.send(#"{"type":"summon","id":"back-ann","client":"\#(view["client"]?.stringValue ?? "")"}"#)
        #expect(ann.nextEvent("summoned") != nil)
        #expect(presenter.next("result")?["summoned"]?.numberValue == 1)
        #expect(other.roundTrip())
        #expect(other.messages("event").allSatisfy { $0.json["event"]?.stringValue != "viewports" })
        #expect(ann.messages("error").isEmpty)
    }
}
