import CameraCore
import Testing
@testable import HubCore

/// A room at rest costs nothing per tick: the hub visits only rooms with
/// something due, and wakes the others for a command, a join or leave, or a
/// time they asked for.
@Suite("Hub: rooms at rest are not ticked")
struct HubIdleRoomTests {
    static let set = #"{"type":"set","camera":{"zoom":5}}"#

    /// A room with a presenter and a follower, run until everything settled.
    func restingRoom(_ configure: (inout HubConfiguration) -> Void = { _ in }) -> (bench: HubBench, presenter: ConnectionKey, follower: ConnectionKey) {
        let bench = HubBench(configure)
        let p = bench.join(role: "presenter")
        let f = bench.join(role: "follower", rate: 30)
        bench.run(seconds: 3)
        return (bench, p.key, f.key)
    }

    func visits(_ bench: HubBench, _ room: String = "demo") -> Int {
        bench.hub.roomTicksPerSecond(at: bench.now)[room] ?? -1
    }

    @Test func roomAtRestIsNotVisited() {
        let (bench, _, _) = restingRoom()
        #expect(bench.hub.awakeRooms == 0)
        #expect(visits(bench) == 0)
        #expect(bench.hub.ticksPerSecond(at: bench.now) == 60, "the hub itself keeps ticking")
    }

    @Test func thousandsOfRoomsAtRestLeaveNothingAwake() {
        let bench = HubBench()
        for i in 0..<2_000 { bench.join("room\(i)", role: "follower") }
        bench.run(seconds: 2)
        #expect(bench.hub.counts.rooms == 2_000)
        #expect(bench.hub.awakeRooms == 0)
        #expect(bench.hub.wakeQueue.count <= 2_000 * 2, "each room queued at most once per change")
    }

    @Test func movingRoomIsVisitedEveryTick() {
        let (bench, p, _) = restingRoom()
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":3}"#, from: p)
        bench.run(seconds: 2)
        #expect(visits(bench) == 60)
    }

    @Test func framesResumeWithinOneTickOfACommand() throws {
        let (bench, p, f) = restingRoom()
        bench.wait(5)
        bench.clear()
        let sentAt = bench.now
        bench.send(Self.set, from: p)
        bench.runTicks(1)
        let frame = try #require(bench.frames(f).first)
        #expect(frame.at - sentAt <= 1 / bench.tick + 1e-9)
        #expect(frame.camera["zoom"]?.number == 5)
    }

    @Test func delayedAnimationWakesTheRoomAtItsStart() throws {
        let (bench, p, f) = restingRoom()
        bench.send(#"{"type":"animate","id":"d","to":{"bearing":45},"duration":0.5,"delay":3}"#, from: p)
        bench.run(seconds: 2.5)
        #expect(bench.hub.awakeRooms == 0, "asleep during the delay")
        #expect(visits(bench) == 0)
        bench.clear()
        bench.run(seconds: 1.5)
        let frames = bench.frames(f)
        #expect(frames.count >= 10, "frames flow once the delay is over")
        #expect(frames.last?.camera["bearing"]?.number == 45)
        #expect(frames.last?.moving == false)
    }

    @Test func afterChainWithDelayWakesForTheSecondAnimation() throws {
        let (bench, p, f) = restingRoom()
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":10},"duration":0.2}"#, from: p)
        bench.send(#"{"type":"animate","id":"b","to":{"bearing":20},"duration":0.2,"after":"a","delay":1.5}"#, from: p)
        bench.run(seconds: 1.2)
        #expect(bench.hub.awakeRooms == 0, "asleep between a and b")
        bench.run(seconds: 1.5)
        #expect(bench.frames(f).last?.camera["bearing"]?.number == 20)
        #expect(bench.animations(p).contains { $0["id"]?.string == "b" && $0["status"]?.string == "finished" })
    }

    @Test func steadyIsReportedAfterTheLastChange() {
        let (bench, p, f) = restingRoom()
        bench.clear()
        bench.send(Self.set, from: p)
        bench.run(seconds: 1)
        #expect(bench.events(f, "steady").count == 1)
        #expect(bench.hub.awakeRooms == 0)
    }

    @Test func trackingLocationWakesTheRoom() {
        let (bench, p, f) = restingRoom()
        bench.send(#"{"type":"track","mode":"followDirection","location":{"lat":10,"lon":20}}"#, from: p)
        bench.run(seconds: 3)
        #expect(bench.frames(f).last?.camera["lat"]?.number == 10)
        #expect(bench.hub.awakeRooms == 0)
        bench.clear()
        bench.send(#"{"type":"track","location":{"lat":11,"lon":20}}"#, from: p)
        bench.run(seconds: 3)
        #expect(bench.frames(f).last?.camera["lat"]?.number == 11)
    }

    @Test func limitsChangeWakesTheRoom() {
        let (bench, p, f) = restingRoom()
        bench.clear()
        bench.send(#"{"type":"limits","maxZoom":1}"#, from: p)
        bench.runTicks(1)
        #expect(bench.events(f, "limitsChanged").count == 1)
        #expect(bench.frames(f).last?.camera["zoom"]?.number ?? 99 <= 1)
    }

    @Test func laterAudienceEventWakesTheRoomWhenDue() {
        let (bench, _, f) = restingRoom()
        bench.clear()
        bench.join(role: "follower")
        bench.runTicks(1)
        bench.join(role: "follower")
        bench.run(seconds: 2)
        let audiences = bench.events(f, "audience")
        #expect(audiences.count == 2, "one at once, one a second later for the second join")
        #expect(audiences.last?["followers"]?.number == 3)
        #expect(bench.hub.awakeRooms == 0)
    }

    @Test func emptyRoomIsDroppedAfterItsTTLWithoutBeingTicked() {
        let bench = HubBench { $0.roomTTL = 5 }
        let f = bench.join(role: "follower")
        bench.runTicks(2)
        bench.disconnect(f.key)
        bench.run(seconds: 2)
        #expect(bench.hub.awakeRooms == 0 && bench.hub.counts.rooms == 1)
        bench.run(seconds: 3.1)
        #expect(bench.hub.counts.rooms == 0)
    }

    @Test func slowFollowerStillGetsTheRestingFrameAfterTheRoomStops() throws {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let f = bench.join(role: "follower", rate: 1)
        bench.run(seconds: 2)
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":30},"duration":0.05}"#, from: p.key)
        bench.run(seconds: 2)
        let last = try #require(bench.frames(f.key).last)
        #expect(!last.moving && last.camera["bearing"]?.number == 30)
        #expect(bench.hub.awakeRooms == 0)
    }

    @Test func restingRoomDropsItsEncodedFrame() {
        let (bench, p, _) = restingRoom()
        bench.send(Self.set, from: p)
        bench.run(seconds: 1)
        #expect(bench.hub.rooms[try! RoomName(validating: "demo")]?.frame == nil)
    }
}

@Suite("Tick rate counter")
struct TickRateTests {
    @Test func countsTheLastWholeSecond() {
        var rate = TickRate()
        for i in 0..<60 { rate.record(at: 10 + Double(i) / 60) }
        #expect(rate.perSecond(at: 10.5) == 0, "the second is not over")
        #expect(rate.perSecond(at: 11.2) == 60)
        #expect(rate.perSecond(at: 12.5) == 0, "nothing in the second before")
        rate.record(at: 11.0)
        #expect(rate.perSecond(at: 11.5) == 60)
    }
}
