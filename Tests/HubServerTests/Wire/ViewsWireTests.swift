import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// The audience's view through the real server with WebSocket clients: an
/// explorer's `looking` reaches the presenter as a `views` event with its
/// corners, a fellow follower hears nothing of it, and a `summon` of that one
/// client brings it back.
extension HubServerTests {
    @Test func anExplorersViewReachesThePresenterAndNotOtherFollowersOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let presenter = clients.join(role: "presenter")
        let other = clients.join(role: "follower")
        let ann = clients.join(role: "follower")
        ann.send(#"{"type":"follow","state":"exploring"}"#)
        ann.send(#"{"type":"looking","camera":{"lat":48.85,"lon":2.35,"zoom":13,"bearing":20,"tilt":30}}"#)
        let event = try #require(presenter.nextEvent("views"))
        let view = try #require(event["views"]?.arrayValue?.first)
        #expect(view["camera"]?["bearing"]?.numberValue == 20 && view["corners"]?.arrayValue?.count == 4)
        presenter.send(#"{"type":"summon","id":"back-ann","client":"\#(view["client"]?.stringValue ?? "")"}"#)
        #expect(ann.nextEvent("summoned") != nil)
        #expect(presenter.next("result")?["summoned"]?.numberValue == 1)
        #expect(other.roundTrip())
        #expect(other.messages("event").allSatisfy { $0.json["event"]?.stringValue != "views" })
        #expect(ann.messages("error").isEmpty)
    }
}
