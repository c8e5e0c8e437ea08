import Foundation
import HubCore
import SocketTestSupport
import Testing

/// One room's roster and head counts across hubs.
extension HubServerTests {
    @Test func aDriverOnOneHubSeesAJoinOnAnotherHubAndTheAudienceCountsBoth() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let first = try HubClients(port: cluster.hubs[0].port).join(role: "driver")
        let second = try HubClients(port: cluster.hubs[1].port).join(role: "driver")
        let joined = first.nextEvent("joined", timeout: .seconds(20))
        #expect(joined?["client"]?.stringValue == second.client, "\(String(describing: joined))")
        #expect(
            waitUntil(.seconds(20)) { second.messages("event").last { $0.json["event"]?.stringValue == "audience" }?.json["clients"]?.numberValue == 2 },
            "the audience counts both hubs' clients")
        let third = try HubClients(port: cluster.hubs[1].port).join(role: "follower")
        let roster = third.messages("welcome").first?.json["roster"]?.arrayValue?.compactMap { $0["client"]?.stringValue } ?? []
        #expect(roster.contains(first.client ?? "?") && roster.contains(second.client ?? "?"), "welcome lists both hubs' clients: \(roster)")
    }

    @Test func aPresenterJoiningOnAnotherHubTakesOverAndTheOldOneBecomesADriver() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let old = try HubClients(port: cluster.hubs[0].port).join(role: "presenter")
        let new = try HubClients(port: cluster.hubs[1].port).join(role: "presenter")
        #expect(
            waitUntil(.seconds(20)) {
                old.messages("event").contains {
                    $0.json["event"]?.stringValue == "presenterChanged" && $0.json["client"]?.stringValue == new.client
                        && $0.json["demoted"]?.stringValue == old.client
                }
            }, "\(old.messages("event").map(\.text))")
        old.send(#"{"type":"limits","maxZoom":9}"#)
        old.nextError("forbidden")  // the old presenter is a driver now
    }
}
