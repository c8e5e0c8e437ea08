import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Testing

extension HubServerTests {
    @Test func aJoinerOnAMirrorIsWelcomedWithTheRunningAnimationsAsOnTheOwner() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        let onA = try HubClients(port: a.port)
        let presenter = onA.join(role: "presenter")
        presenter.send(#"{"type":"animate","id":"long","to":{"zoom":12},"duration":20}"#)
        #expect(presenter.next("animation")?["status"]?.stringValue == "started")
        let onOwner = onA.join(role: "follower").messages("welcome").first?.json["animations"]?.arrayValue ?? []
        // The owner stores the room's frame, with its animations, at its next tick after the start: a
        // mirror welcomes from that frame, so the joiner below waits for it (one tick could pass first).
        let stored = waitUntil { ((try? cluster.redis.lines("GET {demo}:frame")) ?? []).joined().contains("long") }
        #expect(stored, "the owner stored a frame listing the animation")

        let onMirror = try HubClients(port: b.port).join(role: "follower")
        #expect(b.owns("demo") == false)
        let listed = onMirror.messages("welcome").first?.json["animations"]?.arrayValue ?? []
        #expect(listed.map { $0["id"]?.stringValue } == ["long"], "\(listed)")
        #expect(listed.first?["by"]?.stringValue == presenter.client)
        for field in ["kind", "status", "properties", "duration"] {
            #expect(listed.first?[field] == onOwner.first?[field], "\(field) as on the owner")
        }
        // Each hub turns the room's clock into wall-clock ms as it reads both clocks: within a millisecond.
        let started = (listed.first?["started"]?.numberValue ?? 0) - (onOwner.first?["started"]?.numberValue ?? 1)
        #expect(abs(started) < 1, "started as on the owner")
    }
}

extension HubServerTests {
    @Test func theRouteReachesAJoinerOnAMirrorAndGoesOnWithTheNewOwnerAfterAFailover() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let owner = try ServeProcess(camhubPath, ["--redis", redis.url])
        defer { owner.stop(SIGKILL) }
        let presenter = try HubClients(port: owner.port).join(role: "presenter")
        let route = #"[{"lat":48.85,"lon":2.35},{"lat":48.86,"lon":2.36},{"lat":48.87,"lon":2.35}]"#
        presenter.send(#"{"type":"route","points":\#(route)}"#)
        #expect(presenter.nextEvent("routeChanged")?["total"]?.numberValue == 3)
        let other = try TestCluster.hub(on: redis)
        defer { other.shutdown() }
        let clients = try HubClients(port: other.port)
        let joiner = clients.join(role: "driver")
        #expect(other.owns("demo") == false)
        let points = { (c: Connection) in c.messages("welcome").first?.json["route"]?.arrayValue?.count }
        #expect(points(joiner) == 3, "the mirror welcomes with the owner's route")
        presenter.send(#"{"type":"route","points":[{"lat":48.88,"lon":2.36}],"append":true}"#)
        #expect(joiner.nextEvent("routeChanged")?["total"]?.numberValue == 4)
        #expect(points(clients.join(role: "follower")) == 4, "and with each change of it")

        owner.stop(SIGKILL)
        #expect(waitUntil(.seconds(20)) { other.owns("demo") == true }, "the other hub takes the room")
        #expect(points(clients.join(role: "follower")) == 4, "the new owner has the route")
        joiner.send(#"{"type":"track","mode":"followRouteNorthUp","location":{"lat":48.855,"lon":2.355}}"#)
        #expect(waitUntil { joiner.messages("frame").last?.json["camera"]?["lat"]?.numberValue.map { abs($0 - 48.855) < 0.01 } == true }, "and follows it")
        #expect(joiner.messages("error").isEmpty, "\(joiner.messages("error").map(\.text))")
        _ = presenter
    }
}

extension HubServerTests {
    @Test func theFirstJoinerOnAHubThatStartsMirroringARoomIsWelcomedWithTheOtherHubsMembers() throws {
        let cluster = try TestCluster(hubs: 2)
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        let onA = try HubClients(port: a.port)
        let presenter = onA.join(role: "presenter")
        _ = onA.join(role: "follower")
        // Hub A writes its members to Redis within a renewal interval of their joining.
        #expect(waitUntil { (try? cluster.redis.command("HLEN {demo}:presence")) == ":1" })

        let joiner = try HubClients(port: b.port).join(role: "driver")
        let welcome = try #require(joiner.messages("welcome").first?.json)
        #expect(welcome["presenter"]?.stringValue == presenter.client, "the presenter on hub A, at once")
        #expect(welcome["roster"]?.arrayValue?.contains { $0["client"]?.stringValue == presenter.client } == true)
        #expect(welcome["clients"]?.numberValue == 3, "both hubs' clients counted")
    }
}
