import CamHubProtocol
import Testing

@testable import HubServer

extension HubServerTests {
    @Suite struct Placement {
        @Test func theHashIsFNV1aSoEveryProcessPlacesARoomAlike() {
            #expect(RoomPlacement.fnv1a("") == 0xcbf2_9ce4_8422_2325)
            #expect(RoomPlacement.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
            #expect(RoomPlacement.fnv1a("foobar") == 0x8594_4171_f739_67e8)
        }

        @Test func roomsSpreadOverEveryLoop() throws {
            let placement = RoomPlacement(loops: 4)
            var perLoop = [0, 0, 0, 0]
            for n in 0..<4_000 { perLoop[placement.loop(of: try RoomName(validating: "class-\(n)"))] += 1 }
            #expect(perLoop.allSatisfy { (850...1_150).contains($0) }, "4,000 rooms over 4 loops: \(perLoop)")
        }

        @Test func aRequestTargetNamesItsRoomWithTheRoomQueryParameter() {
            #expect(AcceptSpread.room(in: "/hub?room=demo")?.value == "demo")
            #expect(AcceptSpread.room(in: "/hub?lag=100&room=class-7")?.value == "class-7")
            #expect(AcceptSpread.room(in: "/hub") == nil)
            #expect(AcceptSpread.room(in: "/hub?rooms=demo") == nil)
            #expect(AcceptSpread.room(in: "/hub?room=not%20a%20name") == nil, "not a room name: placed in turn")
            #expect(AcceptSpread.room(in: "/hub?room=") == nil)
        }
    }
}
