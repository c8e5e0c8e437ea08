import CamHubClient
import CamHubProtocol
import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Synchronization
import Testing

/// The server API on any hub of a cluster: what a hub cannot answer alone it
/// asks the others over Redis. Every exchange is recorded for scripts/validate_api.py.
extension HubServerTests {
    @Test func theServerAPIOnEitherHubOfAClusterAnswersAsTheOwnerAndReachesEveryHub() throws {
        let cluster = try TestCluster(hubs: 2, apiKeys: [ServerAPIWire.key])
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        let (clientsA, clientsB) = (try HubClients(port: a.port), try HubClients(port: b.port))
        _ = clientsA.join("tour", role: "presenter")
        let followerA = clientsA.join("tour", role: "follower")
        let followerB = clientsB.join("tour", role: "follower")
        #expect(a.owns("tour") == true && b.owns("tour") == false, "hub A owns the room, hub B mirrors it")

        let ease = try Self.api(b, "POST", "/api/v1/rooms/tour/commands", body: #"{"type":"ease","id":"e1","camera":{"zoom":9},"duration":0.3}"#)
        #expect(ease.status == 200 && ease.json?["status"]?.stringValue == "started" && ease.json?["id"]?.stringValue == "e1", "the owner's first report")
        let fly = #"{"type":"fly","camera":{"lat":48.8566,"lon":2.3522,"zoom":11},"duration":0.5}"#
        let finished = try Self.api(b, "POST", "/api/v1/rooms/tour/commands?wait=finished", body: fly)
        #expect(finished.status == 200 && finished.json?["status"]?.stringValue == "finished" && finished.json?["camera"]?["zoom"]?.numberValue == 11)
        for follower in [followerA, followerB] {
            #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 11 }, "followers on both hubs see the camera move")
        }
        let bad = try Self.api(b, "POST", "/api/v1/rooms/tour/commands", body: #"{"type":"ease","camera":{"zoom":"far"}}"#)
        #expect(bad.status == 400 && bad.json?["message"]?.stringValue?.hasPrefix("camera.zoom: ") == true, "the owner's errors come back as they are")

        // A room only hub A has: hub B asks its owner.
        let driver = clientsA.join("solo", role: "driver")
        let set = try Self.api(b, "POST", "/api/v1/rooms/solo/commands", body: #"{"type":"set","camera":{"zoom":4}}"#)
        #expect(set.status == 200 && set.json?["type"]?.stringValue == "done")
        for hub in [a, b] {
            let room = try Self.api(hub, "GET", "/api/v1/rooms/solo")
            #expect(room.status == 200 && room.json?["camera"]?["zoom"]?.numberValue == 4 && room.json?["name"]?.stringValue == "solo")
            let tour = try Self.api(hub, "GET", "/api/v1/rooms/tour")
            #expect(tour.status == 200 && tour.json?["camera"]?["zoom"]?.numberValue == 11)
            let rooms = try Self.api(hub, "GET", "/api/v1/rooms")
            #expect(rooms.json?["rooms"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["solo", "tour"], "the whole cluster's rooms")
            #expect(rooms.json?["rooms"]?.arrayValue?.last?["clients"]?.numberValue == 3, "head counts across the cluster")
            #expect(try Self.api(hub, "GET", "/api/v1/rooms/nowhere").status == 404)
        }
        let nowhere = try Self.api(b, "POST", "/api/v1/rooms/nowhere/commands", body: #"{"type":"set","camera":{"zoom":3}}"#)
        #expect(nowhere.status == 404 && nowhere.json?["message"]?.stringValue?.contains("any hub") == true, "a room no hub has")

        let client = try #require(driver.client)
        #expect(try Self.api(b, "DELETE", "/api/v1/rooms/solo/clients/\(client)").status == 204)
        #expect(driver.waitForClose()?.code?.rawValue == 4000, "closed on the hub it is connected to")
        #expect(try Self.api(b, "DELETE", "/api/v1/rooms/solo/clients/\(client)").status == 404, "gone")
        #expect(try Self.api(a, "DELETE", "/api/v1/rooms/solo/clients/c1.nohub").status == 404, "no such hub")
    }

    @Test func aCommandForARoomWhoseOwnerIsStoppedAnswers503WithinTheBound() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let keys = try TempDir()
        try keys.write("keys", ServerAPIWire.key + "\n")
        let owner = try ServeProcess(camhubPath, ["--redis", redis.url, "--api-key-file", keys.path + "/keys"])
        defer { owner.stop(SIGKILL) }
        let follower = try HubClients(port: owner.port).join(role: "follower")
        let hub = try TestCluster.hub(on: redis, apiKeys: [ServerAPIWire.key])
        defer { hub.shutdown() }
        let set = #"{"type":"set","camera":{"zoom":5}}"#
        #expect(try Self.api(hub, "POST", "/api/v1/rooms/demo/commands", body: set).status == 200, "the owner answers while it runs")

        // A command waited for until its animation ends, then the owner stalls mid-animation.
        let waiting = BackgroundAPICall(
            port: hub.port, path: "/api/v1/rooms/demo/commands?wait=finished", body: #"{"type":"ease","camera":{"zoom":9},"duration":20}"#)
        #expect(waitUntil { follower.frames.last?.json["moving"]?.boolValue == true }, "the owner runs it")
        _ = owner.freeze()  // every thread stopped: it can run no command sent from here on
        defer { kill(owner.process.processIdentifier, SIGCONT) }
        let stopped = ContinuousClock.now
        let stalled = try Self.api(hub, "POST", "/api/v1/rooms/demo/commands", body: set)
        #expect(stalled.status == 503 && stalled.json?["code"]?.stringValue == "unavailable")
        #expect(stalled.json?["message"]?.stringValue?.contains("did not answer within 2 s") == true, "\(String(describing: stalled.json))")
        // 2 s, checked every engine tick (0.2 s here); a loaded machine gets some slack.
        #expect(ContinuousClock.now - stopped < .seconds(5), "answered within the bound")
        let waited = try #require(waiting.answer(within: .seconds(10)), "the waiting command is answered too")
        #expect(waited.status == 503 && waited.body.contains("went silent before its animation ended"), "\(waited.body)")
        #expect(ContinuousClock.now - stopped < .seconds(8), "once the owner has been silent for 3 s")
    }

    /// A server API call to `hub`, recorded for the check against docs/openapi.yaml.
    static func api(_ hub: RunningHub, _ method: String, _ path: String, body: String = "") throws -> (status: Int, json: JSONValue?) {
        try ServerAPIWire().call(hub, method, path, body: body)
    }
}

extension TestCluster {
    /// One in-process hub with the server API on an already running Redis (lease 600 ms).
    static func hub(on redis: RedisServer, apiKeys: [String]) throws -> RunningHub {
        let endpoint = try RedisEndpoint(url: redis.url)
        let hub = try RunningHub {
            $0.redis = endpoint
            $0.leaseMilliseconds = 600
            $0.apiKeys = apiKeys
        }
        #expect(waitUntil { (try? hub.health()["redis"]?["state"]?.stringValue) == "up" })
        return hub
    }
}

/// A server API POST made on a thread of its own (it waits long), recorded like the others.
final class BackgroundAPICall: Sendable {
    private let result = Mutex<(status: Int, body: String)?>(nil)

    init(port: Int, path: String, body: String) {
        let thread = Thread { [self] in
            let response = try? RawHTTP.request(
                port: port, path: path, method: "POST",
                extraHeaders: ["Authorization: Bearer \(HubServerTests.ServerAPIWire.key)", "Content-Type: application/json"],
                body: Array(body.utf8), timeoutSeconds: 30)
            let status = response?.status ?? 0
            let text = response.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
            WireCapture.recordAPI(method: "POST", path: parts[0], query: parts.count > 1 ? parts[1] : "", status: status, request: body, response: text)
            self.result.withLock { $0 = (status, text) }
        }
        thread.start()
    }

    /// The answer, once it came (nil: not within `timeout`).
    func answer(within timeout: Duration) -> (status: Int, body: String)? {
        waitUntil(timeout) { result.withLock { $0 != nil } }
        return result.withLock { $0 }
    }
}
