import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// Live animations through the real server with WebSocket clients: a
/// follower joining mid-fly sees the flight in `welcome`, and a client
/// subscribed to `roomAnimations` gets everyone's animation reports.
extension HubServerTests {
    @Test func aFollowerJoiningMidFlySeesTheFlightInWelcomeOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let p = clients.join(role: "presenter")
        p.send(#"{"type":"fly","id":"f1","camera":{"lat":40.7128,"lon":-74.006,"zoom":11},"duration":5}"#)
        let started = try #require(p.next("animation"))
        #expect(started["status"]?.stringValue == "started")
        // 300 ms of the flight on the hub's clock before the follower joins.
        let startedTime = try #require(started["time"]?.numberValue)
        #expect(waitUntil { p.frames.contains { ($0.json["time"]?.numberValue ?? 0) >= startedTime + 300 } })
        let f = clients.open()
        f.send(#"{"type":"hello","room":"demo","role":"follower","events":["roomAnimations"]}"#)
        let welcome = try #require(f.next("welcome"))
        let fly = try #require(welcome["animations"]?.arrayValue?.first)
        #expect(welcome["animations"]?.arrayValue?.count == 1)
        #expect(
            fly["id"]?.stringValue == "f1" && fly["by"]?.stringValue == p.client && fly["kind"]?.stringValue == "fly" && fly["status"]?.stringValue == "running"
        )
        #expect(fly["duration"]?.numberValue == 5 && fly["properties"]?.arrayValue == [.string("center"), .string("zoom")])
        let startedAt = try #require(fly["started"]?.numberValue)
        let welcomeAt = try #require(welcome["time"]?.numberValue)
        #expect(welcomeAt - startedAt >= 250 && welcomeAt - startedAt < 5000, "started \(welcomeAt - startedAt) ms before the welcome")
        #expect(welcome["tracking"]?["mode"]?.stringValue == "none")
        // The watcher then hears how the flight ends, although it is not its own.
        let finished = try #require(f.next("animation"))
        #expect(finished["id"]?.stringValue == "f1" && finished["status"]?.stringValue == "finished" && finished["owner"]?.stringValue == p.client)
        #expect(p.next("animation")?["status"]?.stringValue == "finished", "the owner gets its report as before")
    }
}
