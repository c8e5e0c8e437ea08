import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// A tick sends at most `sendBudget` frames; the rest go out from
/// `continueSending`, and the next tick goes on where a pass stopped.
@Suite("Hub: send passes within a budget")
struct HubSendPassTests {
    /// A room of `followers` at the full tick rate, moving, with a budget of 10 frames per call.
    func crowdedRoom(followers: Int) -> (bench: HubBench, presenter: ConnectionKey, followers: [ConnectionKey]) {
        let bench = HubBench { $0.sendBudget = 10 }
        let p = bench.join(role: "presenter", rate: 60)
        let keys = (0..<followers).map { _ in bench.join(role: "follower", rate: 60).key }
        bench.runTicks(2)
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":5}"#, from: p.key)
        return (bench, p.key, keys)
    }

    func frameCount(_ bench: HubBench) -> Int {
        bench.sink.outputs.filter { if case .frame = $0 { true } else { false } }.count
    }

    /// Frames sent on each of the next `ticks` ticks, each tick's pass written
    /// to the end in budget-sized slices, as the server does between ticks.
    func framesPerTick(_ bench: HubBench, ticks: Int) -> [Int] {
        (0..<ticks).map { _ in
            bench.clear()
            bench.runTicks(1)
            while bench.hub.continueSending(at: bench.time, sink: bench.sink) {}
            return frameCount(bench)
        }
    }

    @Test func aPassLeftUnfinishedGoesOnWhenTheLastMembersLeaveMeanwhile() {
        let (bench, _, followers) = crowdedRoom(followers: 10)  // 11 members: a tick stops before the last
        bench.runTicks(1)
        #expect(bench.hub.rooms[try! RoomName(validating: "demo")]?.sendCursor == 10)
        bench.disconnect(followers[9])  // the last member: the pass is at the end of the list now
        bench.disconnect(followers[8])  // and the list is shorter than where it stood
        while bench.hub.continueSending(at: bench.time, sink: bench.sink) {}
        bench.clear()
        bench.runTicks(1)
        while bench.hub.continueSending(at: bench.time, sink: bench.sink) {}
        #expect(frameCount(bench) == 9, "every member left gets the next frame")
    }

    @Test func aTickSendsAtMostItsBudgetAndSaysMoreIsDue() {
        let (bench, _, followers) = crowdedRoom(followers: 25)
        bench.clear()
        let more = bench.hub.tick(at: bench.time, sink: bench.sink)
        #expect(more)
        #expect(bench.sink.outputs.filter { if case .frame = $0 { true } else { false } }.count == 10)
        #expect(bench.hub.unfinishedSendPasses == 1)
        _ = followers
    }

    @Test func continueSendingReachesEveryoneWithinTheSameTick() {
        let (bench, p, followers) = crowdedRoom(followers: 25)
        bench.clear()
        var more = bench.hub.tick(at: bench.time, sink: bench.sink)
        var calls = 0
        while more && calls < 10 {
            more = bench.hub.continueSending(at: bench.time, sink: bench.sink)
            calls += 1
        }
        #expect(!more && calls == 2, "26 frames in slices of 10")
        for key in followers + [p] { #expect(bench.frames(key).count == 1, "one frame each") }
    }

    @Test func withoutContinuationTheNextTicksGoOnWhereThePassStoppedAndNobodyStarves() throws {
        let (bench, p, followers) = crowdedRoom(followers: 25)
        bench.clear()
        bench.runTicks(9)  // 90 frames of budget for 26 members owed one each tick
        let counts = (followers + [p]).map { bench.frames($0).count }
        #expect(counts.min()! >= 3, "every member is reached in turn: \(counts)")
        #expect(counts.max()! - counts.min()! <= 1, "round robin: \(counts)")
        // Each frame a member gets is the room's newest when it is sent.
        for key in followers {
            let seqs = bench.frames(key).map(\.seq)
            #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test func anOwnersBudgetReplacesTheConfiguredOneAndWhatIsLeftSaysHowManyWereSent() {
        let (bench, _, _) = crowdedRoom(followers: 25)
        bench.clear()
        var budget = 4
        #expect(bench.hub.tick(at: bench.time, sendBudget: &budget, sink: bench.sink))
        #expect(budget == 0 && frameCount(bench) == 4, "the tick wrote the 4 frames it was given")
        budget = 30
        #expect(!bench.hub.continueSending(at: bench.time, sendBudget: &budget, sink: bench.sink))
        #expect(budget == 8 && frameCount(bench) == 26, "the slice finished the pass with 22 of its 30 frames")
    }

    @Test func aLargeAudienceAt30HzIsSpreadOverBothTicksOfItsSchedule() {
        let bench = HubBench { $0.sendBudget = 100 }  // a tick writes 400 frames: 601 members outlast it
        let p = bench.join(role: "presenter", rate: 30)
        for _ in 0..<600 { _ = bench.join(role: "follower", rate: 30) }
        bench.run(seconds: 1)  // at rest: every schedule starts afresh when the camera moves
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":5}"#, from: p.key)
        let perTick = framesPerTick(bench, ticks: 8)
        // Without staggering, all 601 members are due on every other tick and none on the ticks between.
        #expect(perTick.allSatisfy { (200...400).contains($0) }, "frames per tick: \(perTick)")
        let total: Int = perTick.reduce(0, +)
        #expect((2_350...2_450).contains(total), "every member at 30 Hz (601 × 4 frames in 8 ticks): \(perTick)")
    }

    @Test func anAudienceThatFitsInOneTicksPassIsNotStaggered() {
        let bench = HubBench { $0.sendBudget = 200 }  // a tick writes 800 frames: all 601 fit
        let p = bench.join(role: "presenter", rate: 30)
        for _ in 0..<600 { _ = bench.join(role: "follower", rate: 30) }
        bench.run(seconds: 1)
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":5}"#, from: p.key)
        let perTick = framesPerTick(bench, ticks: 8)
        // One pass of 601 frames on every other tick, none between.
        let busy = perTick.filter { $0 > 0 }
        #expect(busy.count == 4 && busy.allSatisfy { $0 >= 600 }, "frames per tick: \(perTick)")
    }

    @Test func aPassFinishingOnALaterTickLooksAgainAtTheMembersBeforeItsCursor() throws {
        let bench = HubBench()
        let p = bench.join(role: "presenter", rate: 60)
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":10}"#, from: p.key)
        bench.runTicks(2)
        let first = (0..<10).map { _ in bench.join(role: "follower", rate: 30).key }
        bench.runTicks(1)
        let second = (0..<10).map { _ in bench.join(role: "follower", rate: 30).key }  // due a tick apart from `first`
        bench.runTicks(2)
        // Go to a tick on which only `second` is due.
        var ticks = 0
        repeat {
            bench.clear()
            bench.runTicks(1)
            ticks += 1
        } while (!first.allSatisfy { bench.frames($0).isEmpty } || second.contains { bench.frames($0).isEmpty }) && ticks < 4
        bench.runTicks(1)  // `first` is due here
        bench.now = ((bench.now * 60 + 1e-6).rounded(.down) + 1) / 60  // `second` is due here, `first` not
        var budget = 5
        bench.clear()
        #expect(bench.hub.tick(at: bench.time, sendBudget: &budget, sink: bench.sink), "the pass stops in `second`")
        #expect(first.allSatisfy { bench.frames($0).isEmpty })
        // The pass goes on in a slice that runs after the next tick's time: `first` is due again.
        bench.now += 1 / 60
        budget = 100
        bench.clear()
        #expect(!bench.hub.continueSending(at: bench.time, sendBudget: &budget, sink: bench.sink))
        let counts = first.map { bench.frames($0).count }
        #expect(counts.allSatisfy { $0 == 1 }, "each member before the cursor gets this tick's frame: \(counts)")
    }

    @Test func theRestingFrameStillReachesEveryMember() throws {
        let bench = HubBench { $0.sendBudget = 7 }
        let p = bench.join(role: "presenter", rate: 30)
        let followers = (0..<30).map { _ in bench.join(role: "follower", rate: 30).key }
        bench.runTicks(2)
        bench.send(#"{"type":"animate","id":"a","to":{"bearing":30},"duration":0.2}"#, from: p.key)
        bench.run(seconds: 3)
        for key in followers + [p.key] {
            let last = try #require(bench.frames(key).last)
            #expect(!last.moving && last.camera["bearing"]?.numberValue == 30)
        }
        #expect(bench.hub.unfinishedSendPasses == 0)
    }

    @Test func aMemberLeavingMidPassDoesNotHideAnother() throws {
        let (bench, _, followers) = crowdedRoom(followers: 15)
        bench.clear()
        let more = bench.hub.tick(at: bench.time, sink: bench.sink)
        #expect(more)
        let reached = Set(followers.filter { !bench.frames($0).isEmpty })
        // One already reached leaves: the last member moves into its place.
        bench.disconnect(try #require(reached.first))
        while bench.hub.continueSending(at: bench.time, sink: bench.sink) {}
        let missing = followers.filter { $0 != reached.first && bench.frames($0).isEmpty }
        #expect(missing.isEmpty, "\(missing) got no frame in this pass")
    }
}
