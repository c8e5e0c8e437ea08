import Testing

@testable import HubCore

@Suite("Hub: room and per-room caps")
struct HubCapTests {
    @Test func aHelloCreatingOneRoomTooManyGetsFullThenClose1013() {
        let bench = HubBench { $0.maxRooms = 2 }
        let a = bench.join("a", role: "driver")
        let b = bench.join("b", role: "follower")
        let c = bench.join("c", role: "follower")
        #expect(a.client != nil && b.client != nil && c.client == nil)
        #expect(bench.lastError(c.key)?["code"]?.stringValue == "full")
        #expect(bench.lastError(c.key)?["message"]?.stringValue == "room: the hub holds its maximum of 2 rooms; try again later or join an existing room")
        #expect(bench.closes(c.key).map(\.code) == [1013])
        // An existing room still takes clients, and those inside are not affected.
        #expect(bench.join("a", role: "follower").client != nil)
        #expect(!bench.isClosed(a.key) && !bench.isClosed(b.key))
    }

    @Test func aFullRoomRefusesTheNextClientAndTakesOneAgainWhenSomeoneLeaves() {
        let bench = HubBench { $0.maxClientsPerRoom = 2 }
        let first = bench.join(role: "presenter")
        let second = bench.join(role: "follower")
        let third = bench.join(role: "follower")
        #expect(third.client == nil)
        #expect(bench.lastError(third.key)?["message"]?.stringValue == "room: demo is full (2 clients); try again later")
        #expect(bench.closes(third.key).map(\.code) == [1013])
        #expect(bench.join("other", role: "follower").client != nil, "other rooms are not affected")
        bench.disconnect(second.key)
        #expect(bench.join(role: "follower").client != nil)
        #expect(!bench.isClosed(first.key))
    }
}
