import CamHubClient
import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing

@testable import HubServer

extension HubServerTests {
    /// The server API against a real hub on a loopback port: its answers, and
    /// the clients of the room seeing what it did.
    @Suite struct ServerAPIWire {
        static let key = "api-key-for-the-loopback-tests"

        func hub() throws -> RunningHub { try RunningHub { $0.apiKeys = [Self.key] } }

        /// `record`: the exchange is checked against docs/openapi.yaml (not for a hub without the API).
        func call(_ hub: RunningHub, _ method: String, _ path: String, body: String = "", key: String? = Self.key, record: Bool = true) throws -> (
            status: Int, json: JSONValue?
        ) {
            let headers = key.map { ["Authorization: Bearer \($0)"] } ?? []
            let response = try RawHTTP.request(
                port: hub.port, path: path, method: method, extraHeaders: headers + (body.isEmpty ? [] : ["Content-Type: application/json"]),
                body: Array(body.utf8), timeoutSeconds: 20)
            let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
            if record {
                WireCapture.recordAPI(
                    method: method, path: parts[0], query: parts.count > 1 ? parts[1] : "", status: response.status, request: body,
                    response: String(decoding: response.body, as: UTF8.self))
            }
            return (response.status, try? JSONParser.parse(response.body))
        }

        @Test func withoutTheRightKeyTheAPIAnswers401AndWithoutKeysItIsNotThere() throws {
            let hub = try hub()
            defer { hub.shutdown() }
            #expect(try call(hub, "GET", "/api/v1/rooms", key: nil).status == 401)
            let wrong = try call(hub, "GET", "/api/v1/rooms", key: "not-the-key")
            #expect(wrong.status == 401 && wrong.json?["code"]?.stringValue == "unauthorized")
            #expect(try call(hub, "GET", "/api/v1/rooms").status == 200)
            let off = try RunningHub()
            defer { off.shutdown() }
            #expect(try call(off, "GET", "/api/v1/rooms", record: false).status == 404)
        }

        @Test func theRoomsAndOneRoomsStateAsTheHubHasThem() throws {
            let hub = try hub()
            defer { hub.shutdown() }
            let clients = try HubClients(port: hub.port)
            let ana = clients.join("lobby", role: "presenter")
            _ = clients.join("lobby", role: "follower")
            let rooms = try call(hub, "GET", "/api/v1/rooms")
            #expect(rooms.status == 200)
            let lobby = rooms.json?["rooms"]?.arrayValue?.first
            #expect(lobby?["name"]?.stringValue == "lobby" && lobby?["clients"]?.numberValue == 2 && lobby?["presenter"]?.stringValue == ana.client)
            let room = try call(hub, "GET", "/api/v1/rooms/lobby")
            #expect(room.status == 200 && room.json?["camera"]?["zoom"]?.numberValue != nil)
            #expect(room.json?["roster"]?.arrayValue?.contains { $0["client"]?.stringValue == ana.client && $0["role"]?.stringValue == "presenter" } == true)
            let missing = try call(hub, "GET", "/api/v1/rooms/nowhere")
            #expect(missing.status == 404 && missing.json?["code"]?.stringValue == "not_found")
            #expect(try call(hub, "POST", "/api/v1/rooms").status == 405)
            #expect(try call(hub, "GET", "/api/v1/nothing").status == 404)
        }

        @Test func aFlyWaitedForAnswersWhenItHasFinishedAndFollowersEndOnItsCamera() throws {
            let hub = try hub()
            defer { hub.shutdown() }
            let follower = try HubClients(port: hub.port).join("tour", role: "follower")
            let fly = #"{"type":"fly","camera":{"lat":48.8566,"lon":2.3522,"zoom":11},"duration":0.5}"#
            let answer = try call(hub, "POST", "/api/v1/rooms/tour/commands?wait=finished", body: fly)
            #expect(answer.status == 200)
            #expect(answer.json?["type"]?.stringValue == "animation" && answer.json?["status"]?.stringValue == "finished")
            #expect(answer.json?["camera"]?["zoom"]?.numberValue == 11)
            #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 11 })
            let started = try call(hub, "POST", "/api/v1/rooms/tour/commands", body: #"{"type":"ease","id":"e1","camera":{"zoom":9},"duration":5}"#)
            #expect(started.json?["status"]?.stringValue == "started" && started.json?["id"]?.stringValue == "e1", "without wait: the first report")
            let set = try call(hub, "POST", "/api/v1/rooms/tour/commands", body: #"{"type":"set","camera":{"zoom":3}}"#)
            #expect(set.status == 200 && set.json?["type"]?.stringValue == "done")
        }

        @Test func aBadCommandIs400NamingTheFieldAndTheRoomGoesOn() throws {
            let hub = try hub()
            defer { hub.shutdown() }
            _ = try HubClients(port: hub.port).join("tour", role: "follower")
            let bad = try call(hub, "POST", "/api/v1/rooms/tour/commands", body: #"{"type":"ease","camera":{"zoom":"far"}}"#)
            #expect(bad.status == 400 && bad.json?["message"]?.stringValue?.hasPrefix("camera.zoom: ") == true)
            let query = try call(hub, "POST", "/api/v1/rooms/tour/commands", body: #"{"type":"query","id":"q","what":"bounds"}"#)
            #expect(query.status == 400 && query.json?["message"]?.stringValue?.hasPrefix("type: the server API runs") == true)
            let notJSON = try call(hub, "POST", "/api/v1/rooms/tour/commands", body: "zoom please")
            #expect(notJSON.status == 400 && notJSON.json?["code"]?.stringValue == "bad_message")
            let wait = try call(hub, "POST", "/api/v1/rooms/tour/commands?wait=soon", body: #"{"type":"set","camera":{"zoom":3}}"#)
            #expect(wait.status == 400 && wait.json?["message"]?.stringValue?.hasPrefix("wait: ") == true)
            #expect(try call(hub, "POST", "/api/v1/rooms/nowhere/commands", body: #"{"type":"set","camera":{"zoom":3}}"#).status == 404)
            #expect(try call(hub, "POST", "/api/v1/rooms/tour/commands", body: #"{"type":"set","camera":{"zoom":4}}"#).status == 200)
        }

        @Test func deletingAClientClosesItWith4000() throws {
            let hub = try hub()
            defer { hub.shutdown() }
            let clients = try HubClients(port: hub.port)
            let driver = clients.join("tour", role: "driver")
            let watcher = clients.join("tour", role: "presenter")
            let removed = try call(hub, "DELETE", "/api/v1/rooms/tour/clients/\(try #require(driver.client))")
            #expect(removed.status == 204)
            #expect(driver.waitForClose()?.code?.rawValue == 4000)
            #expect(watcher.nextEvent("left")?["client"]?.stringValue == driver.client)
            #expect(try call(hub, "DELETE", "/api/v1/rooms/tour/clients/c999").status == 404)
        }
    }
}

@Suite("Server API: keys and rate limits")
struct APIAccessTests {
    @Test func eachKeyMakesABurstOfRequestsThenAsManyAsItsRateRefills() {
        let access = APIAccess(keys: ["k1", "k2"])
        let start = ContinuousClock.now
        let admitted = (0..<150).filter { _ in access.admit("k1", now: start) }.count
        #expect(admitted == Int(APIAccess.burst))
        #expect(access.admit("k2", now: start), "keys are limited one by one")
        let later = start + .milliseconds(100)
        #expect((0..<10).filter { _ in access.admit("k1", now: later) }.count == Int(APIAccess.requestsPerSecond / 10))
    }

    @Test func onlyAListedKeyInABearerHeaderIsOne() {
        let access = APIAccess(keys: APIKeyFile.keys(in: "# keys\nk1\n\n  k2  \n"))
        #expect(access.keys == ["k1", "k2"])
        #expect(access.key(from: "Bearer k2") == "k2")
        #expect(access.key(from: "Bearer k3") == nil && access.key(from: "k1") == nil && access.key(from: nil) == nil)
    }
}
