import Testing

@testable import CamHubProtocol
@testable import HubCore

@Suite("Hub: the server API's room list merged across hubs")
struct APIRoomEntriesTests {
    func entry(_ name: String, owned: Bool, clients: Int) -> APIRoomEntry {
        let json = #"{"name":"\#(name)","clients":\#(clients),"followers":0,"presenter":null,"moving":false}"#
        return APIRoomEntry(name: try! RoomName(validating: name), owned: owned, json: Array(json.utf8))
    }

    @Test func theListOfOneHubsEntriesIsTheListAsItWasWritten() {
        let bench = HubBench()
        bench.join(role: "follower")
        bench.join("other", role: "follower")
        #expect(Hub.apiRoomList(bench.hub.apiRoomEntries()) == bench.hub.apiRoomList())
        #expect(bench.hub.apiRoomEntries().allSatisfy { $0.owned }, "one hub owns every room")
    }

    @Test func aRoomSeveralHubsHaveIsListedOnceAsItsOwnerTellsItAndUnansweredHubsAreCounted() throws {
        let lists = [
            [entry("b", owned: false, clients: 1), entry("c", owned: false, clients: 2)],
            [entry("a", owned: true, clients: 5), entry("b", owned: true, clients: 3)],
        ]
        let merged = Hub.mergedRoomEntries(lists)
        #expect(merged.map(\.name.value) == ["a", "b", "c"])
        #expect(merged[1].owned && merged[1].json == entry("b", owned: true, clients: 3).json, "the owner's entry")
        let json = try JSONParser.parse(Hub.apiRoomList(merged, unanswered: 1))
        #expect(json["unanswered"]?.numberValue == 1 && json["rooms"]?.arrayValue?.count == 3)
        #expect(try JSONParser.parse(Hub.apiRoomList(merged))["unanswered"] == nil, "absent when every hub answered")
    }
}
