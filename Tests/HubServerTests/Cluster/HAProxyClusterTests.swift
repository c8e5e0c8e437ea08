import Foundation
import SocketTestSupport
import Testing

/// Hubs of one Redis behind HAProxy with the shipped `deploy/haproxy.cfg`:
/// one URL, clients spread over the hubs, one room.
extension HubServerTests {
    @Test func hubsBehindHAProxyServeOneRoomThroughOneURL() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let proxy = try HAProxyServer(hubPorts: cluster.hubs.map(\.port))
        defer { proxy.stop() }
        let clients = try HubClients(port: proxy.port)
        let presenter = clients.join(role: "presenter")
        let followers = (0..<4).map { _ in clients.join(role: "follower", rate: 30) }
        let perHub = try cluster.hubs.map { try $0.health()["clients"]?.numberValue ?? 0 }
        #expect(perHub.count == 2 && perHub.allSatisfy { $0 >= 1 }, "leastconn spreads the clients over both hubs: \(perHub)")

        presenter.send(#"{"type":"set","camera":{"zoom":8,"lat":38.7,"lon":-9.1,"bearing":30}}"#)
        for follower in followers {
            #expect(
                waitUntil(.seconds(20)) { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 8 },
                "every follower, whichever hub it reached, gets the presenter's camera")
            #expect(follower.frames.last?.json["camera"]?["bearing"]?.numberValue == 30)
        }
        let audience = try cluster.hubs.map { hub in
            try hub.health()["rooms"]?.arrayValue?.first { $0["name"]?.stringValue == "demo" }?["clients"]?.numberValue ?? 0
        }
        #expect(audience.reduce(0, +) == 5, "the room's five members, counted over the hubs: \(audience)")
    }
}
