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

    @Test func eachHubTellsTheViewsOfItsOwnExplorersOnlyOwnerAndMirrorAlike() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let clientsA = try HubClients(port: cluster.hubs[0].port)
        let clientsB = try HubClients(port: cluster.hubs[1].port)
        let presenter = clientsA.join(role: "presenter")
        let driverB = clientsB.join(role: "driver")
        let far = clientsB.join(role: "follower")
        let near = clientsA.join(role: "follower")
        far.send(#"{"type":"follow","state":"exploring"}"#)
        far.send(#"{"type":"looking","region":[[-3.8,40.5],[-3.6,40.5],[-3.6,40.3],[-3.8,40.3]]}"#)
        let onMirror = driverB.nextEvent("viewports", timeout: .seconds(20))
        #expect(onMirror?["clients"]?.arrayValue?.map { $0["client"]?.stringValue } == [far.client], "the mirror hub tells its explorer")
        #expect(onMirror?["clients"]?.arrayValue?.first?["region"]?.arrayValue?.count == 4)
        near.send(#"{"type":"follow","state":"exploring"}"#)
        near.send(#"{"type":"looking","region":[[2.3,48.9],[2.4,48.9],[2.4,48.8],[2.3,48.8]]}"#)
        let onOwner = presenter.nextEvent("viewports", timeout: .seconds(20))
        #expect(onOwner?["clients"]?.arrayValue?.map { $0["client"]?.stringValue } == [near.client], "only this hub's explorers")
        #expect(far.messages("error").isEmpty && near.messages("error").isEmpty)
    }
}
