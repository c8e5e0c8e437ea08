import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

@Suite("Hub: the server API's rooms, commands and removals")
struct HubServerAPITests {
    let demo = try! RoomName(validating: "demo")

    func command(_ bench: HubBench, _ text: String, in room: String = "demo") throws(APIFailure) -> ConnectionKey {
        let name = try! RoomName(validating: room)
        return try bench.hub.apiCommand(Array(text.utf8), in: name, at: bench.time, sink: bench.sink).key
    }

    func json(_ bytes: [UInt8]?) -> JSONValue? { bytes.flatMap { try? JSONParser.parse($0) } }

    @Test func theRoomListGivesEachRoomsHeadCountsPresenterAndWhetherItMoves() throws {
        let bench = HubBench()
        let ana = bench.join(role: "presenter", name: "ana")
        bench.join(role: "follower")
        bench.join("other", role: "follower")
        bench.send(#"{"type":"ease","camera":{"zoom":8},"duration":2}"#, from: ana.key)
        bench.runTicks(2)
        let rooms = try #require(json(bench.hub.apiRoomList())?["rooms"]?.arrayValue)
        #expect(rooms.map { $0["name"]?.stringValue } == ["demo", "other"])
        #expect(rooms[0]["clients"]?.numberValue == 2 && rooms[0]["followers"]?.numberValue == 1)
        #expect(rooms[0]["presenter"]?.stringValue == ana.client)
        #expect(rooms[0]["moving"]?.boolValue == true && rooms[1]["moving"]?.boolValue == false)
    }

    @Test func aRoomShowsItsCameraRosterWithFollowStatesAndRunningAnimations() throws {
        let bench = HubBench()
        let ana = bench.join(role: "presenter", name: "ana")
        let bo = bench.join(role: "driver", name: "bo")
        bench.send(#"{"type":"follow","state":"exploring"}"#, from: bo.key)
        bench.send(#"{"type":"fly","id":"trip","camera":{"lat":40,"lon":-74,"zoom":9},"duration":5}"#, from: ana.key)
        bench.runTicks(3)
        let room = try #require(json(bench.hub.apiRoom(demo, at: bench.time)))
        #expect(room["name"]?.stringValue == "demo" && room["moving"]?.boolValue == true)
        #expect(room["camera"]?["zoom"]?.numberValue != nil && room["limits"] != nil)
        let roster = room["roster"]?.arrayValue ?? []
        #expect(roster.first { $0["name"]?.stringValue == "bo" }?["follow"]?.stringValue == "exploring")
        #expect(room["animations"]?.arrayValue?.first?["id"]?.stringValue == "trip")
        #expect(room["client"] == nil && room["type"] == nil, "nothing of a joiner's own")
        let nowhere = try RoomName(validating: "nowhere")
        #expect(bench.hub.apiRoom(nowhere, at: bench.time) == nil)
    }

    @Test func aCommandRunsAsTheRoomsServerWithAPresentersRankAndAnswersAsAPresentersWould() throws {
        let bench = HubBench()
        let bo = bench.join(role: "driver", name: "bo")
        let follower = bench.join(role: "follower").key
        bench.send(#"{"type":"ease","id":"mine","camera":{"zoom":4},"duration":5}"#, from: bo.key)
        bench.runTicks(1)
        let key = try command(bench, #"{"type":"fly","id":"tour","camera":{"lat":48.85,"lon":2.35,"zoom":11},"duration":1}"#)
        bench.run(seconds: 1.5)
        #expect(bench.animations(bo.key).contains { $0["id"]?.stringValue == "mine" && $0["status"]?.stringValue == "superseded" }, "a presenter's rank")
        let reports = bench.animations(key).filter { $0["id"]?.stringValue == "tour" }.compactMap { $0["status"]?.stringValue }
        #expect(reports.last == "finished")
        #expect(abs((bench.frames(follower).last?.json["camera"]?["zoom"]?.numberValue ?? 0) - 11) < 1e-9)
        let limited = try command(bench, #"{"type":"limits","maxZoom":12}"#)
        let clamp = try command(bench, #"{"type":"set","camera":{"zoom":15}}"#)
        #expect(bench.events(clamp, "clamped").count == 1, "the same answers a presenter gets")
        #expect(clamp == key && limited == key, "one server session per room")
    }

    @Test func whatTheAPIDoesNotRunIsRefusedWithTheFieldNamed() {
        let bench = HubBench()
        bench.join(role: "follower")
        #expect(throws: APIFailure.self) { try command(bench, #"{"type":"set","camera":{"zoom":3}}"#, in: "nowhere") }
        do {
            _ = try command(bench, #"{"type":"query","id":"q","what":"bounds"}"#)
            Issue.record("a query is not a command")
        } catch {
            #expect(error.status == 400 && error.message.hasPrefix("type: the server API runs "))
        }
        do {
            _ = try command(bench, #"{"type":"ease","camera":{"zoom":"high"}}"#)
            Issue.record("a bad zoom")
        } catch {
            #expect(error.status == 400 && error.message.hasPrefix("camera.zoom: "))
        }
    }

    @Test func removingAClientClosesItWith4000AndItsRoomSeesItLeave() throws {
        let bench = HubBench()
        let ana = bench.join(role: "presenter", name: "ana")
        let bo = bench.join(role: "follower", name: "bo")
        let removed = bench.hub.apiRemove(client: try #require(bo.client), from: demo, at: bench.time, sink: bench.sink)
        #expect(removed)
        #expect(bench.closes(bo.key).map(\.code) == [4000])
        #expect(bench.closes(bo.key).first?.reason == "removed by the server API")
        bench.runTicks(1)
        #expect(bench.events(ana.key, "left").contains { $0["client"]?.stringValue == bo.client })
        let unknown = bench.hub.apiRemove(client: "c404", from: demo, at: bench.time, sink: bench.sink)
        #expect(!unknown)
    }

    @Test func theServersSessionGoesWithItsRoom() throws {
        let bench = HubBench { $0.roomTTL = 1 }
        let member = bench.join(role: "follower").key
        _ = try command(bench, #"{"type":"set","camera":{"zoom":3}}"#)
        #expect(bench.hub.counts.clients == 2)
        bench.disconnect(member)
        bench.run(seconds: 2)
        #expect(bench.hub.counts.rooms == 0 && bench.hub.counts.clients == 0, "no session left behind")
    }
}
