import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Testing

extension HubServerTests {
    @Test func aRefusedHelloLeavesNoLeaseKeyOrSubscriptionInRedis() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let endpoint = try RedisEndpoint(url: redis.url)
        let hub = try RunningHub {
            $0.redis = endpoint
            $0.hub.tokens = TokenPolicy(roleTokens: RoleTokens(presenter: "P-secret"))
        }
        defer { hub.shutdown() }
        #expect(waitUntil { (try? hub.health()["redis"]?["state"]?.stringValue) == "up" })
        let clients = try HubClients(port: hub.port)
        let intruder = clients.open()
        intruder.send(#"{"type":"hello","room":"vault","role":"presenter"}"#)
        intruder.nextError("forbidden")
        #expect(intruder.waitForClose()?.code?.rawValue == 1008)

        // A room that was admitted afterwards proves the hub's Redis work is done by now.
        _ = clients.join("lobby", role: "follower")
        #expect(try redis.command("EXISTS {lobby}:owner") == ":1", "an admitted hello takes the lease")
        #expect(try redis.command("EXISTS {vault}:owner") == ":0", "no lease for the refused room")
        #expect(try redis.command("EXISTS {vault}:epoch") == ":0")
        #expect(try redis.lines("PUBSUB SHARDNUMSUB {vault}:frames {vault}:cmd") == ["*4", "$14", "{vault}:frames", ":0", "$11", "{vault}:cmd", ":0"])
        #expect(hub.owns("vault") == nil, "and no room on the hub")
    }

    @Test func withRedisAHubStillHoldsItsMaximumOfRoomsAndRefusesTheNextOneAsFull() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let endpoint = try RedisEndpoint(url: redis.url)
        let hub = try RunningHub {
            $0.redis = endpoint
            $0.hub.maxRooms = 1
        }
        defer { hub.shutdown() }
        let clients = try HubClients(port: hub.port)
        _ = clients.join("first", role: "presenter")
        let late = clients.open()
        late.send(#"{"type":"hello","room":"second","role":"follower"}"#)
        #expect(late.nextError("full")?["message"]?.stringValue?.contains("maximum of 1 rooms") == true)
        #expect(late.waitForClose() != nil, "closed: 1013, which this libwebsockets client reports as 1002")
        #expect(try redis.command("EXISTS {second}:owner") == ":0", "no lease taken for a refused room")
    }

    @Test func aRoomIsFullWhenItsClientsOnEveryHubReachTheCap() throws {
        let cluster = try TestCluster(hubs: 0)
        defer { cluster.shutdown() }
        let a = try cluster.addHub(maxClientsPerRoom: 3)
        let b = try cluster.addHub(maxClientsPerRoom: 3)
        let onA = try HubClients(port: a.port)
        _ = onA.join(role: "presenter")
        _ = onA.join(role: "follower")
        let onB = try HubClients(port: b.port)
        let third = onB.join(role: "driver")
        #expect(
            waitUntil { third.messages("event").last { $0.json["event"]?.stringValue == "audience" }?.json["clients"]?.numberValue == 3 },
            "hub B hears of hub A's two clients")
        let fourth = onB.open()
        fourth.send(#"{"type":"hello","room":"demo","role":"follower"}"#)
        #expect(fourth.nextError("full")?["message"]?.stringValue?.contains("is full (3 clients)") == true)
        #expect(fourth.waitForClose() != nil, "closed: 1013, which this libwebsockets client reports as 1002")
    }
}
