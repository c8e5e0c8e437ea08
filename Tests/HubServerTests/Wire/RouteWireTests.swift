import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// The room's route through the real server with WebSocket clients: a route
/// sent in two pieces, a follower joining later sees it in `welcome.route`,
/// and followRouteDirection turns the camera along the route at the matched location.
extension HubServerTests {
    @Test func routeTrackingFollowsTheRouteOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let d = clients.join(role: "driver")
        let f = clients.join(role: "follower")
        d.send(#"{"type":"route","points":[{"lat":52.52,"lon":13.40},{"lat":52.52,"lon":13.41}]}"#)
        d.send(#"{"type":"route","points":[{"lat":52.53,"lon":13.41}],"append":true}"#)
        #expect(waitUntil { f.messages("event").filter { $0.json["event"]?.stringValue == "routeChanged" }.count == 2 })
        #expect(f.messages("event").last { $0.json["event"]?.stringValue == "routeChanged" }?.json["total"]?.numberValue == 3)
        // Just short of the corner, 20 m off the road: matched onto it, looking around the corner (north-east).
        d.send(#"{"type":"track","mode":"followRouteDirection","location":{"lat":52.52018,"lon":13.4095}}"#)
        #expect(waitUntil { f.frames.last?.json["moving"]?.boolValue == false && f.frames.last?.json["camera"]?["tilt"]?.numberValue == 45 })
        let camera = try #require(try hub.camera(of: "demo"))
        #expect(abs((camera["lat"]?.numberValue ?? 0) - 52.52) < 1e-9 && abs((camera["lon"]?.numberValue ?? 0) - 13.4095) < 1e-9)
        let bearing = try #require(camera["bearing"]?.numberValue)
        #expect(bearing > 10 && bearing < 80, "\(bearing)")
        let late = clients.join(role: "follower")
        let welcome = try #require(late.messages("welcome").first?.json)
        #expect(welcome["route"]?.arrayValue?.count == 3 && welcome["tracking"]?["mode"]?.stringValue == "followRouteDirection")
        #expect(d.messages("error").isEmpty)
    }
}
