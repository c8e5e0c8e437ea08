import CamHubProtocol
import Testing

@testable import HubCore

/// A client that has not joined moves from one hub to another (a server runs
/// a hub per loop): its hello timeout and rate limit go with it.
@Suite struct HubHandoverTests {
    @Test func aHelloOfAClientThatHasNotJoinedNamesTheRoomItAsksFor() {
        let bench = HubBench()
        let key = bench.connect()
        #expect(bench.hub.roomAsked(in: Array(#"{"type":"hello","room":"north","role":"follower"}"#.utf8), by: key)?.value == "north")
        #expect(bench.hub.roomAsked(in: Array(#"{"type":"ping","t":1}"#.utf8), by: key) == nil, "not a hello")
        #expect(bench.hub.roomAsked(in: Array(#"{"type":"hello","room":""}"#.utf8), by: key) == nil, "not a well-formed hello")
        let joined = bench.join("north", role: "follower").key
        #expect(bench.hub.roomAsked(in: Array(#"{"type":"hello","room":"south","role":"follower"}"#.utf8), by: joined) == nil, "joined already")
    }

    @Test func aJoinedClientStaysWhereItIs() throws {
        let bench = HubBench()
        let joined = bench.join("north", role: "driver").key
        #expect(bench.hub.handOver(joined) == nil)
        #expect(bench.answersPing(joined), "its session is untouched")
    }

    @Test func aHandedOverClientJoinsOnTheOtherHub() throws {
        let from = HubBench()
        let to = HubBench()
        let key = from.connect()
        let handed = from.hub.handOver(key)
        let arrival = try #require(handed)
        #expect(from.hub.counts.connections == 0, "gone from the first hub")
        to.hub.arrive(key, arrival)
        to.send(#"{"type":"hello","room":"north","role":"driver"}"#, from: key)
        #expect(to.welcome(key) != nil)
        #expect(to.hub.counts.clients == 1)
    }

    @Test func theHelloTimeoutCountsFromWhenTheConnectionOpenedOnTheFirstHub() throws {
        let from = HubBench()
        let to = HubBench()
        let key = from.connect()
        let timeout = from.hub.configuration.helloTimeout
        from.wait(timeout - 1)
        let handed = from.hub.handOver(key)
        let arrival = try #require(handed)
        to.now = from.now
        to.hub.arrive(key, arrival)
        to.runTicks(Int(to.tick * 0.5))
        #expect(!to.isClosed(key), "half a second before its time")
        to.runTicks(Int(to.tick * 0.6))
        #expect(to.closes(key).first?.reason == "no hello", "closed when its time on the first hub ran out")
    }

    @Test func theRateLimitGoesAlongWithTheClient() throws {
        let from = HubBench()
        let to = HubBench()
        let key = from.connect()
        for t in 0..<Int(HubProtocol.commandBurst) { from.send(#"{"type":"ping","t":\#(t)}"#, from: key) }
        let handed = from.hub.handOver(key)
        let arrival = try #require(handed)
        to.hub.arrive(key, arrival)
        to.send(#"{"type":"hello","room":"north","role":"driver"}"#, from: key)
        #expect(to.welcome(key) == nil, "the spent bucket came along: the hello is dropped")
        #expect(to.lastError(key)?["code"]?.stringValue == "rate_limited")
    }

    @Test func hubsSharingARoomCountCapTheirRoomsTogether() {
        let count = RoomCount()
        let a = HubBench {
            $0.maxRooms = 2
            $0.roomTTL = 5
        }
        let b = HubBench { $0.maxRooms = 2 }
        a.hub = Hub(configuration: a.hub.configuration, roomCount: count)
        b.hub = Hub(configuration: b.hub.configuration, roomCount: count)
        let first = a.join("north", role: "follower").key
        #expect(b.join("south", role: "follower").client != nil)
        let refused = b.join("east", role: "follower")
        #expect(refused.client == nil && b.lastError(refused.key)?["code"]?.stringValue == "full", "two rooms over both hubs")
        #expect(b.join("south", role: "follower").client != nil, "an existing room still takes clients")
        a.disconnect(first)
        a.run(seconds: a.hub.configuration.roomTTL + 1)
        #expect(count.current == 1, "the empty room went at its TTL")
        #expect(b.join("east", role: "follower").client != nil, "and its place is free on the other hub")
    }
}
