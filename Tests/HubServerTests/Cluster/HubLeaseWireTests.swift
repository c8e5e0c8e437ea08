import CamHubClient
import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Testing

extension HubServerTests {
    /// `LeaseScripts.lease` sent inline (it has no double quotes; Lua needs no line breaks).
    func leaseScript(_ redis: RedisServer, hub: String, rooms: [(String, epoch: Int)]) throws -> [String] {
        let script = LeaseScripts.lease.replacingOccurrences(of: "\n", with: " ")
        let keys = rooms.map { "{\($0.0)}:owner {\($0.0)}:epoch {\($0.0)}:frame {\($0.0)}:route" }.joined(separator: " ")
        let epochs = rooms.map { "\($0.epoch)" }.joined(separator: " ")
        return try redis.lines("EVAL \"\(script)\" \(4 * rooms.count) \(keys) \(hub) 60000 \(epochs)")
    }

    func renewHubLease(_ redis: RedisServer, hub: String) throws -> String {
        let script = LeaseScripts.alive.replacingOccurrences(of: "\n", with: " ")
        return try redis.command("EVAL \"\(script)\" 1 \(LeaseScripts.aliveKey(of: hub)) 60000")
    }

    /// The epoch (or minus it) and owner of a lease answer for one room.
    func answer(_ lines: [String]) -> (epoch: Int, owner: String)? {
        guard lines.count == 4, lines[0] == "*2", let epoch = Int(lines[1].dropFirst()) else { return nil }
        return (epoch, lines[3])
    }

    @Test func aRoomStaysItsOwnersWhileTheOwnerHubsLeaseLivesAndGoesWithANewEpochOnceItExpires() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        #expect(try renewHubLease(redis, hub: "a") == ":0", "a hub's first renewal finds no lease")
        #expect(try renewHubLease(redis, hub: "b") == ":0")
        let before = Int(Date().timeIntervalSince1970 * 1_000_000) - 1_000_000
        let taken = try #require(answer(try leaseScript(redis, hub: "a", rooms: [("r", 0)])))
        #expect(taken.owner == "a" && taken.epoch >= before, "a new room's first epoch is Redis's clock in µs: \(taken.epoch)")
        let refused = try #require(answer(try leaseScript(redis, hub: "b", rooms: [("r", 0)])))
        #expect(refused.epoch == -taken.epoch && refused.owner == "a", "a live hub's room: its epoch and owner")
        #expect(try renewHubLease(redis, hub: "a") == ":1", "a renewal in time finds the lease")
        #expect(try redis.command("DEL \(LeaseScripts.aliveKey(of: "a"))") == ":1")  // as if it had expired
        let takeover = try #require(answer(try leaseScript(redis, hub: "b", rooms: [("r", taken.epoch)])))
        #expect(takeover.owner == "b" && takeover.epoch == taken.epoch + 1, "taken over with the next epoch")
        #expect(try renewHubLease(redis, hub: "a") == ":0", "the old owner learns its lease had expired")
        let lost = try #require(answer(try leaseScript(redis, hub: "a", rooms: [("r", taken.epoch)])))
        #expect(lost.epoch == -takeover.epoch && lost.owner == "b", "and that the room is b's now")
    }

    @Test func aRedisThatLostItsDataNeverHandsOutAnEpochAgainEvenToAHubThatSawNone() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        _ = try renewHubLease(redis, hub: "a")
        let first = try #require(answer(try leaseScript(redis, hub: "a", rooms: [("r", 0)]))).epoch
        #expect(try redis.command("FLUSHALL") == "+OK")  // a restart without persistence
        _ = try renewHubLease(redis, hub: "b")
        let again = try #require(answer(try leaseScript(redis, hub: "b", rooms: [("r", 0)]))).epoch
        #expect(again > first, "\(again) after \(first)")
    }

    @Test func aHubWhoseOwnLeaseExpiredCanClaimNothingUntilItRenewsIt() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        #expect(try leaseScript(redis, hub: "a", rooms: [("r", 0), ("s", 0)]) == ["*0"])
        #expect(try redis.command("EXISTS {r}:owner {s}:owner") == ":0")
        _ = try renewHubLease(redis, hub: "a")
        #expect(try redis.command("SET {s}:epoch 4") == "+OK")
        let both = try leaseScript(redis, hub: "a", rooms: [("r", 0), ("s", 9)])
        #expect(both.count == 7 && both[4] == ":10", "above any epoch it knows: \(both)")
    }

    @Test func idleRoomsCostRedisTheSameWorkPerRenewalWhateverTheirNumber() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let endpoint = try RedisEndpoint(url: redis.url)
        // A 3 s lease (renewed every second): only a stall of over 2 s could lapse it and make the
        // hub confirm its rooms again, which is work per room, rightly.
        let hub = try RunningHub {
            $0.redis = endpoint
            $0.leaseMilliseconds = 3000
        }
        defer { hub.shutdown() }
        #expect(waitUntil { (try? hub.health()["redis"]?["state"]?.stringValue) == "up" })
        let clients = try HubClients(port: hub.port)
        let rooms = 40
        let members = (0..<rooms).map { clients.join("idle-\($0)", role: "presenter") }
        #expect(members.allSatisfy { $0.client != nil })
        // SETs Redis ran, those inside scripts included: the hub lease's renewal makes one; one lease
        // per room made two for each room at each renewal; a room's first checkpoint makes one.
        let setCalls =
            "EVAL \"local s = redis.call('INFO', 'commandstats') return tonumber(string.match(s, 'cmdstat_set:calls=(%d+)') or '0')\" 0"
        func sets() throws -> Int { Int(try redis.command(setCalls).dropFirst()) ?? 0 }
        func renewals() -> Int { (try? hub.health()["redis"]?["leaseRenewals"]?.numberValue).map { Int($0) } ?? 0 }
        // Settled: two renewals after the joins, the rooms' first frames (and checkpoints) are long written.
        let joined = renewals()
        #expect(waitUntil(.seconds(30)) { renewals() >= joined + 2 })
        let renewedBefore = renewals()
        let before = try sets()
        #expect(waitUntil(.seconds(30)) { renewals() >= renewedBefore + 4 })
        let spent = try sets() - before
        let renewed = renewals() - renewedBefore
        #expect(spent <= renewed + 2, "\(spent) SETs over \(renewed) renewals with \(rooms) idle rooms")
    }
}
