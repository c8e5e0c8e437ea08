import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// Follow mode across hubs on one real `redis-server`: states travel with
/// presence, a summon and a lock reach every hub's clients, and each hub tells
/// the views of its own explorers.
extension HubServerTests {
    @Test func aFollowersStateOnAnotherHubReachesThePresenterAsEventAndCounts() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let presenter = try HubClients(port: cluster.hubs[0].port).join(role: "presenter")
        let follower = try HubClients(port: cluster.hubs[1].port).join(role: "follower")
        #expect(presenter.nextEvent("joined")?["client"]?.stringValue == follower.client, "presence brought the follower")
        follower.send(#"{"type":"follow","state":"exploring"}"#)
        let changed = presenter.nextEvent("followChanged", timeout: .seconds(20))
        #expect(changed?["client"]?.stringValue == follower.client && changed?["state"]?.stringValue == "exploring")
        #expect(
            waitUntil(.seconds(20)) {
                presenter.messages.last { $0.json["event"]?.stringValue == "audience" }?.json["exploring"]?.numberValue == 1
            }, "the audience counts take the other hub's explorer")
    }

    @Test func aSummonReachesTheExplorersOfEveryHubAndALockTravelsToo() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let presenter = try HubClients(port: cluster.hubs[0].port).join(role: "presenter")
        let clientsB = try HubClients(port: cluster.hubs[1].port)
        let explorer = clientsB.join(role: "follower")
        explorer.send(#"{"type":"follow","state":"exploring"}"#)
        #expect(presenter.nextEvent("followChanged", timeout: .seconds(20))?["state"]?.stringValue == "exploring")

        presenter.send(#"{"type":"summon","id":"back"}"#)
        #expect(explorer.nextEvent("summoned")?["by"]?["client"]?.stringValue == presenter.client)
        let result = presenter.next("result")
        #expect(result?["id"]?.stringValue == "back" && result?["summoned"]?.numberValue == 1, "\(String(describing: result))")

        presenter.send(#"{"type":"followPolicy","explore":false}"#)
        #expect(explorer.nextEvent("followPolicyChanged", timeout: .seconds(20))?["explore"]?.boolValue == false)
        #expect(explorer.nextEvent("summoned")?["by"]?["client"]?.stringValue == presenter.client, "the lock calls the explorer back")
        explorer.send(#"{"type":"follow","state":"following"}"#)
        explorer.send(#"{"type":"follow","state":"exploring"}"#)
        #expect(explorer.nextError("policy")?["ref"]?.stringValue == "follow", "the other hub enforces the lock")
        let late = clientsB.join(role: "follower")
        #expect(late.messages("welcome").first?.json["followPolicy"]?["explore"]?.boolValue == false)
    }

    @Test func everyHubTellsTheViewsOfEveryHubsExplorersOwnerAndMirrorAlike() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let clientsA = try HubClients(port: cluster.hubs[0].port)
        let clientsB = try HubClients(port: cluster.hubs[1].port)
        let presenter = clientsA.join(role: "presenter")
        let driverB = clientsB.join(role: "driver")
        let far = clientsB.join(role: "follower")
        let near = clientsA.join(role: "follower")
        let madrid: [[Double]] = [[-3.8, 40.5], [-3.6, 40.5], [-3.6, 40.3], [-3.8, 40.3]]
        far.send(#"{"type":"follow","state":"exploring"}"#)
        far.send(#"{"type":"looking","region":[[-3.8,40.5],[-3.6,40.5],[-3.6,40.3],[-3.8,40.3]]}"#)
        near.send(#"{"type":"follow","state":"exploring"}"#)
        near.send(#"{"type":"looking","region":[[2.3,48.9],[2.4,48.9],[2.4,48.8],[2.3,48.8]]}"#)
        for (name, watcher, order) in [("owner", presenter, [near.client, far.client]), ("mirror", driverB, [far.client, near.client])] {
            #expect(
                waitUntil(.seconds(20)) { Self.lastViewports(of: watcher).map(\.client) == order },
                "the \(name)'s hub lists its own explorer first, then the other hub's")
        }
        #expect(Self.lastViewports(of: presenter).last?.region == madrid, "the other hub's explorer's region, corner for corner")
        far.send(#"{"type":"follow","state":"following"}"#)
        #expect(
            waitUntil(.seconds(20)) { Self.lastViewports(of: presenter).map(\.client) == [near.client] },
            "following again takes its outline off the other hub's presenter too")
        #expect(far.messages("error").isEmpty && near.messages("error").isEmpty)
    }

    /// The clients and regions of the last `viewports` event `watcher` got.
    static func lastViewports(of watcher: Connection) -> [(client: String?, region: [[Double]])] {
        let event = watcher.messages.last { $0.json["event"]?.stringValue == "viewports" }
        return (event?.json["clients"]?.arrayValue ?? []).map { entry in
            (entry["client"]?.stringValue, (entry["region"]?.arrayValue ?? []).map { $0.arrayValue?.compactMap(\.numberValue) ?? [] })
        }
    }
}
