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
        #expect(started["status"]?.string == "started")
        // 300 ms of the flight on the hub's clock before the follower joins.
        let startedTime = try #require(started["time"]?.number)
        #expect(waitUntil { p.frames.contains { ($0.json["time"]?.number ?? 0) >= startedTime + 300 } })
        let f = clients.open()
        f.send(#"{"type":"hello","room":"demo","role":"follower","events":["roomAnimations"]}"#)
        let welcome = try #require(f.next("welcome"))
        let fly = try #require(welcome["animations"]?.array?.first)
        #expect(welcome["animations"]?.array?.count == 1)
        #expect(fly["id"]?.string == "f1" && fly["by"]?.string == p.client && fly["kind"]?.string == "fly" && fly["status"]?.string == "running")
        #expect(fly["duration"]?.number == 5 && fly["properties"]?.array == [.string("center"), .string("zoom")])
        let startedAt = try #require(fly["started"]?.number)
        let welcomeAt = try #require(welcome["time"]?.number)
        #expect(welcomeAt - startedAt >= 250 && welcomeAt - startedAt < 5000, "started \(welcomeAt - startedAt) ms before the welcome")
        #expect(welcome["tracking"]?["mode"]?.string == "none")
        // The watcher then hears how the flight ends, although it is not its own.
        let finished = try #require(f.next("animation"))
        #expect(finished["id"]?.string == "f1" && finished["status"]?.string == "finished" && finished["owner"]?.string == p.client)
        #expect(p.next("animation")?["status"]?.string == "finished", "the owner gets its report as before")
    }
}
