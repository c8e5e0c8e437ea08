import CameraCore
import Testing

@testable import CamHubProtocol
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

    /// Ticks that visited the room so far.
    func visitCount(_ bench: HubBench, _ room: String = "demo") -> UInt64 {
        bench.hub.rooms[try! RoomName(validating: room)]?.visitCount ?? 0
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

    @Test func movingRoomIsVisitedWhenItsMembersAreDueFrames() {
        let (bench, p, _) = restingRoom()  // presenter and follower at 30 frames per second
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":6}"#, from: p)
        bench.run(seconds: 2)
        #expect(visits(bench) == 30, "not on the ticks between their frames")
        _ = bench.join(role: "follower", rate: 60)
        bench.run(seconds: 2)
        #expect(visits(bench) == 60, "a 60 Hz follower is due a frame on every tick")
    }

    @Test func lateTimersAndOffGridJoinsDoNotMakeAMovingRoomTickEveryTick() {
        let bench = HubBench()
        bench.wait(0.0041)  // joins between two ticks
        let p = bench.join(role: "presenter", rate: 30)
        bench.join(role: "follower", rate: 30)
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":10}"#, from: p.key)
        let grid = (bench.now * bench.tick).rounded(.up)
        for k in 1...180 {  // three seconds of ticks, each timer 1.3 ms late
            bench.now = (grid + Double(k)) / bench.tick + 0.0013
            bench.tickOnce()
        }
        #expect(visits(bench) == 30, "visited when a 30 Hz member is due, not on every tick")
        #expect(bench.frames(p.key).count >= 89)
    }

    @Test func skippedTicksChangeNoCameraAFollowerSees() throws {
        // The same animation watched at 10 frames per second, alone and beside a 60 Hz watcher.
        func frames(withWatcher: Bool) -> [JSONValue] {
            let bench = HubBench()
            let p = bench.join(role: "presenter", rate: 10)
            let f = bench.join(role: "follower", rate: 10)
            if withWatcher { bench.join(role: "follower", rate: 60) }
            bench.runTicks(1)
            bench.send(#"{"type":"fly","id":"f","camera":{"lat":40,"lon":-74,"zoom":9},"duration":2}"#, from: p.key)
            bench.run(seconds: 3)
            return bench.frames(f.key).map(\.camera)
        }
        let alone = frames(withWatcher: false)
        let watched = frames(withWatcher: true)
        #expect(alone.count >= 20)
        #expect(alone == watched, "a room visited less often sends its followers the same cameras")
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
        #expect(frame.camera["zoom"]?.numberValue == 5)
    }

    @Test func delayedAnimationWakesTheRoomAtItsStart() throws {
        let (bench, p, f) = restingRoom()
        bench.send(#"{"type":"animate","id":"d","to":{"bearing":45},"duration":0.5,"delay":3}"#, from: p)
        bench.runTicks(1)
        let before = visitCount(bench)
        bench.run(seconds: 2.5)
        #expect(visitCount(bench) == before, "asleep during the delay")
        bench.clear()
        bench.run(seconds: 1.5)
        let frames = bench.frames(f)
        #expect(frames.count >= 10, "frames flow once the delay is over")
        #expect(frames.last?.camera["bearing"]?.numberValue == 45)
        #expect(frames.last?.moving == false)
    }

    @Test func afterChainWithDelayWakesForTheSecondAnimation() throws {
        let (bench, p, f) = restingRoom()
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":10},"duration":0.2}"#, from: p)
        bench.send(#"{"type":"animate","id":"b","to":{"bearing":20},"duration":0.2,"after":"a","delay":1.5}"#, from: p)
        bench.run(seconds: 0.5)  // a finished, steady reported
        let before = visitCount(bench)
        bench.run(seconds: 1.0)
        #expect(visitCount(bench) == before, "asleep between a and b")
        bench.run(seconds: 0.2)
        bench.run(seconds: 1.5)
        #expect(bench.frames(f).last?.camera["bearing"]?.numberValue == 20)
        #expect(bench.animations(p).contains { $0["id"]?.stringValue == "b" && $0["status"]?.stringValue == "finished" })
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
        #expect(bench.frames(f).last?.camera["lat"]?.numberValue == 10)
        #expect(bench.hub.awakeRooms == 0)
        bench.clear()
        bench.send(#"{"type":"track","location":{"lat":11,"lon":20}}"#, from: p)
        bench.run(seconds: 3)
        #expect(bench.frames(f).last?.camera["lat"]?.numberValue == 11)
    }

    @Test func limitsChangeWakesTheRoom() {
        let (bench, p, f) = restingRoom()
        bench.clear()
        bench.send(#"{"type":"limits","maxZoom":1}"#, from: p)
        bench.runTicks(1)
        #expect(bench.events(f, "limitsChanged").count == 1)
        #expect(bench.frames(f).last?.camera["zoom"]?.numberValue ?? 99 <= 1)
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
        #expect(audiences.last?["followers"]?.numberValue == 3)
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

    @Test func animationReportsComeWhenTheAnimationEndsNotAtTheNextFrame() throws {
        let bench = HubBench()
        let p = bench.join(role: "presenter", rate: 1)
        bench.run(seconds: 2)
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":30},"duration":0.25}"#, from: p.key)
        let sentAt = bench.now
        bench.run(seconds: 1)
        let finished = try #require(bench.animations(p.key).first { $0["status"]?.stringValue == "finished" })
        let at = try #require(finished["time"]?.numberValue)
        #expect((at - HubBench.epochOffset) / 1000 - sentAt <= 0.25 + 1 / bench.tick + 1e-9)
    }

    @Test func slowFollowerStillGetsTheRestingFrameAfterTheRoomStops() throws {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let f = bench.join(role: "follower", rate: 1)
        bench.run(seconds: 2)
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":30},"duration":0.05}"#, from: p.key)
        bench.run(seconds: 2)
        let last = try #require(bench.frames(f.key).last)
        #expect(!last.moving && last.camera["bearing"]?.numberValue == 30)
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
