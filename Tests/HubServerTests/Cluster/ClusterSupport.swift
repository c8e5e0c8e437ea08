import Foundation
import HubCluster
import HubServer
import SocketTestSupport
import Testing

/// The `camhub` binary built beside this test bundle (a hub to kill with signal 9).
let camhubPath = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("camhub").path

/// A cluster for a test: one real `redis-server` and hubs joined to it.
final class TestCluster {
    let redis: RedisServer
    var hubs: [RunningHub] = []

    /// `loops`: event loops per hub (`--loops`; two by default, as `camhub serve` runs on a
    /// two-core machine: each loop a member of the cluster); `apiKeys`: the server API's keys (none: off).
    init(hubs count: Int, lease: Int = 600, loops: Int = 2, apiKeys: [String] = []) throws {
        redis = try RedisServer()
        for _ in 0..<count { try addHub(lease: lease, loops: loops, apiKeys: apiKeys) }
        #expect(
            waitUntil { self.hubs.allSatisfy { (try? $0.health()["redis"]?["state"]?.stringValue) == "up" } },
            "every hub links to Redis")
    }

    /// One more hub on the same Redis (lease in ms).
    /// `record`: the hub's `--record` folder (nil: it records nothing).
    /// `maxClientsPerRoom`: the hub's cap on a room's clients (counted across the cluster).
    @discardableResult
    func addHub(
        lease: Int = 600, loops: Int = 2, record: String? = nil, maxClientsPerRoom: Int? = nil, apiKeys: [String] = []
    ) throws -> RunningHub {
        let endpoint = try RedisEndpoint(url: redis.url)
        let hub = try RunningHub {
            $0.redis = endpoint
            $0.leaseMilliseconds = lease
            $0.loops = loops
            $0.recordDirectory = record
            $0.apiKeys = apiKeys
            if let maxClientsPerRoom { $0.hub.maxClientsPerRoom = maxClientsPerRoom }
        }
        hubs.append(hub)
        return hub
    }

    func shutdown() {
        for hub in hubs { hub.shutdown() }
        redis.stop()
    }
}

extension RunningHub {
    /// Whether `/healthz` says this hub runs `room`'s camera.
    func owns(_ room: String) -> Bool? {
        (try? health()["rooms"]?.arrayValue?.first { $0["name"]?.stringValue == room }?["owned"])??.boolValue
    }
}
