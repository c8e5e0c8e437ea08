import Foundation
import HubCore
import SocketTestSupport
import Testing

/// A room's tracking mode across hubs: the same on every hub, and carried
/// through a failover by the hub that takes the room over.
extension HubServerTests {
    @Test func aTrackingModeShowsOnEveryHubAndGoesOnAfterFailoverWithoutAModeEvent() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        _ = try HubClients(port: a.port).join(role: "follower")
        #expect(a.owns("demo") == true)
        let clientsB = try HubClients(port: b.port)
        let watcher = clientsB.join(role: "follower")
        let driver = clientsB.join(role: "driver")
        driver.send(#"{"type":"track","mode":"followNorthUp","location":{"lat":10,"lon":20}}"#)
        #expect(watcher.nextEvent("trackingModeChanged")?["mode"]?.stringValue == "followNorthUp")
        #expect(
            waitUntil(.seconds(20)) { clientsB.join(role: "follower").messages("welcome").first?.json["tracking"]?["location"]?["lat"]?.numberValue == 10 },
            "a late joiner on the mirror gets the owner's mode and fix in its welcome")

        a.shutdown()
        #expect(waitUntil(.seconds(20)) { b.owns("demo") == true }, "hub B took the room")
        let joiner = clientsB.join(role: "follower")
        #expect(joiner.messages("welcome").first?.json["tracking"]?["mode"]?.stringValue == "followNorthUp", "the mode went on")
        driver.send(#"{"type":"track","mode":"followNorthUp","location":{"lat":11,"lon":21}}"#)
        #expect(waitUntil(.seconds(20)) { watcher.frames.last?.json["camera"]?["lat"]?.numberValue == 11 }, "and follows the next fix")
        #expect(driver.roundTrip() && watcher.roundTrip())
        #expect(
            watcher.messages("event").filter { $0.json["event"]?.stringValue == "trackingModeChanged" }.count == 1,
            "no mode event: the room's mode never changed")
    }

    @Test func aTrackingModeRunByAClientOfAKilledHubEndsWhenThatHubsMembersLeave() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let owner = try ServeProcess(camhubPath, ["--redis", redis.url])
        defer { owner.stop(SIGKILL) }
        let driver = try HubClients(port: owner.port).join(role: "driver")
        let hub = try TestCluster.hub(on: redis)
        defer { hub.shutdown() }
        let watcher = try HubClients(port: hub.port).join(role: "follower")
        driver.send(#"{"type":"track","mode":"followNorthUp","location":{"lat":5,"lon":6}}"#)
        #expect(watcher.nextEvent("trackingModeChanged")?["mode"]?.stringValue == "followNorthUp")

        #expect(waitUntil(.seconds(20)) { watcher.frames.last?.json["camera"]?["lat"]?.numberValue == 5 }, "the owner's frames reached hub B")
        owner.stop(SIGKILL)
        #expect(waitUntil(.seconds(20)) { hub.owns("demo") == true }, "the surviving hub took the room")
        let ended = watcher.nextEvent("trackingModeChanged", timeout: .seconds(20))
        #expect(
            ended?["mode"]?.stringValue == "none" && ended?["by"]?.stringValue == driver.client,
            "the dead hub's driver left, and its tracking ended with it: \(String(describing: ended))")
    }
}
