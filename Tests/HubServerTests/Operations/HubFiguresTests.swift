import CamHubProtocol
import HubCore
import Testing

@testable import HubServer

/// What `/healthz` and the metrics read off a hub, and the same added up over
/// hubs that each hold some of the rooms.
@Suite("HubFigures and HealthSnapshot: a hub's figures, added up")
struct HubFiguresTests {
    struct Discard: HubSink {
        func send(_ bytes: [UInt8], to connection: ConnectionKey) {}
        func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey) {}
        func close(_ connection: ConnectionKey, code: UInt16, reason: String) {}
    }

    /// A hub with `rooms` (each joined by one presenter and `followers`
    /// followers) and one connection that has not said hello; ticked for 2 s.
    func hub(rooms: [String], followers: Int, firstKey: ConnectionKey) -> Hub {
        var hub = Hub(configuration: HubConfiguration())
        var key = firstKey
        let time = HubTime(seconds: 0, epochMilliseconds: 1_000_000)
        func join(_ room: String, _ role: String) {
            hub.open(key, at: time)
            hub.receive(Array(#"{"type":"hello","room":"\#(room)","role":"\#(role)"}"#.utf8), from: key, at: time, sink: Discard())
            key += 1
        }
        for room in rooms {
            join(room, "presenter")
            for _ in 0..<followers { join(room, "follower") }
        }
        hub.open(key, at: time)
        for tick in 1...120 { hub.tick(at: HubTime(seconds: Double(tick) / 60, epochMilliseconds: 1_000_000), sink: Discard()) }
        return hub
    }

    @Test func figuresOfTwoHubsAddUpTheirRoomsAndConnectionsAndTakeTheSlowerClock() {
        let a = hub(rooms: ["a1", "a2"], followers: 2, firstKey: 1)
        let b = hub(rooms: ["b1"], followers: 3, firstKey: 100)
        let now = 2.0
        let one = HubFigures(a, now: now)
        #expect(one.rooms == 2 && one.members == 6)
        #expect(one.connectionsByRole[.presenter] == 2 && one.connectionsByRole[.follower] == 4 && one.connectionsByRole[nil] == 1)
        var slower = HubFigures(b, now: now)
        slower.ticksPerSecond = 45
        let sum = one + slower
        #expect(sum.rooms == 3 && sum.members == 10)
        #expect(sum.connectionsByRole[.presenter] == 3 && sum.connectionsByRole[.follower] == 7 && sum.connectionsByRole[nil] == 2)
        #expect(sum.ticksPerSecond == 45)
    }

    @Test func healthOfTwoHubsListsEveryRoomByNameOnce() {
        let a = hub(rooms: ["m", "z"], followers: 1, firstKey: 1)
        let b = hub(rooms: ["a", "q"], followers: 0, firstKey: 100)
        let sum = HealthSnapshot(a, now: 2) + HealthSnapshot(b, now: 2)
        #expect(sum.rooms.map(\.name) == ["a", "m", "q", "z"])
        #expect(sum.rooms.map(\.clients) == [1, 2, 1, 2])
        #expect(sum.connections == 8 && sum.clients == 6)
        #expect(sum.rooms.allSatisfy { $0.owned == nil && $0.fenced == nil }, "no cluster: no ownership")
    }

    @Test func theReportOfOneHubIsWhatHealthzAlwaysSaid() {
        let a = hub(rooms: ["r"], followers: 1, firstKey: 1)
        let json = HealthReport.json(HealthSnapshot(a, now: 2), connectionsPerLoop: [3, 1])
        #expect(json.hasPrefix(#"{"status":"ok","engine":"memory","connections":3,"clients":2,"loops":2,"connectionsPerLoop":[3,1],"ticksPerSecond":60,"#))
        #expect(json.contains(#""rooms":[{"name":"r","clients":2,"seq":"#))
    }
}
