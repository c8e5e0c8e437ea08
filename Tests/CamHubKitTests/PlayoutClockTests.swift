import CamHubKit
import Testing

/// The playout clock's key cases, ported from clients/js/test/playout.test.mjs:
/// deterministic, no sockets, every time passed in (ms).
@Suite("Playout clock")
struct PlayoutClockTests {
    static func near(_ a: Double?, _ b: Double, _ eps: Double = 1e-9) -> Bool { a.map { abs($0 - b) <= eps } ?? false }

    /// A clock at rate 10, offset 5000, no lateness, goal 100 ms, advanced to display time 10000 (on its goal).
    static func settledClock(_ change: (inout PlayoutOptions) -> Void = { _ in }) -> PlayoutClock {
        var o = PlayoutOptions()
        (o.rate, o.marginMs, o.minSamples, o.initialJitterMs, o.growBandMs, o.growBand) = (10, 0, 1, 0, 0, 0)
        change(&o)
        var c = PlayoutClock(options: o)
        c.observe(time: 0, receivedAt: 5000)
        c.observeSample(paintAt: 5000, newest: 0)
        _ = c.advance(displayAt: 10000)
        return c
    }

    /// A sample that saw the frame after the newest (hub 100, due at 200) `ms` late.
    static func late(_ c: inout PlayoutClock, _ ms: Double) { c.observeSample(paintAt: 5000 + 200 + ms, newest: 100) }

    /// Advances every `step` ms from `from` to `to`; returns (display time, hub time shown, speed).
    static func run(_ c: inout PlayoutClock, _ from: Double, _ to: Double, step: Double = 16) -> [(at: Double, rt: Double, speed: Double)] {
        var out: [(Double, Double, Double)] = []
        var at = from
        while at <= to {
            out.append((at, c.advance(displayAt: at)!, c.speed))
            at += step
        }
        return out
    }

    /// The largest |hub ms shown per display ms − 1| between consecutive steps.
    static func maxOff(_ steps: [(at: Double, rt: Double, speed: Double)]) -> Double {
        zip(steps, steps.dropFirst()).map { abs(($1.rt - $0.rt) / ($1.at - $0.at) - 1) }.max() ?? 0
    }

    @Test func theClockStartsOnItsGoal() {
        var c = Self.settledClock()
        #expect(Self.near(c.delay, 100))
        let shown = c.advance(displayAt: 10016)
        #expect(Self.near(shown, 10016 - 5000 - 100))
    }

    @Test func aLongerDelayIsPlayedInAtMostThreePercentSlow() {
        var c = Self.settledClock()
        for _ in 0..<3 { Self.late(&c, 200) }  // target 300
        let steps = Self.run(&c, 10016, 30000)
        #expect(Self.maxOff(steps) <= 0.03 + 1e-9)
        #expect(steps.contains { abs($0.speed - 0.97) < 1e-12 }, "at the bound while far")
        #expect(Self.near(c.delay, 300, c.options.deadbandMs))
        #expect(c.resyncs == 0)
    }

    @Test func aShorterDelayIsPlayedInAtMostThreePercentFast() {
        var c = Self.settledClock { ($0.percentile, $0.latenessWindow, $0.shrinkHoldMs) = (1, 3, 0) }
        for _ in 0..<3 { Self.late(&c, 200) }
        _ = Self.run(&c, 10016, 30000)
        for _ in 0..<3 { Self.late(&c, 0) }  // the target back to 100
        let steps = Self.run(&c, 30016, 50000)
        #expect(Self.maxOff(steps) <= 0.03 + 1e-9)
        #expect(steps.contains { abs($0.speed - 1.03) < 1e-12 })
        #expect(Self.near(c.delay, 100, c.options.deadbandMs))
    }

    @Test func aClockStepIsAResyncThatSkipsToTheShorterDelayAtOnce() {
        var c = Self.settledClock()
        let rt0 = c.advance(displayAt: 10016)!
        c.observe(time: 1000, receivedAt: 5400)  // the hub's clock 600 ms ahead: the offset is 4400 now
        let rt1 = c.advance(displayAt: 10032)!
        #expect(c.resyncs == 1 && c.resyncLog.first?.reason == .far)
        #expect(Self.near(rt1, 10032 - 4400 - 100) && rt1 > rt0, "forward in hub time")
        #expect(Self.near(c.delay, 100))
    }

    @Test func aMuchLongerDelayIsAResyncWhoseRenderTimeStandsStillNeverBack() {
        var c = Self.settledClock { ($0.percentile, $0.latenessWindow) = (1, 1) }
        let rt0 = c.advance(displayAt: 10016)!
        Self.late(&c, 400)  // target 500
        let steps = Self.run(&c, 10032, 11000)
        #expect(c.resyncs == 1 && c.resyncLog.first?.reason == .far)
        #expect(steps.allSatisfy { $0.rt >= rt0 - 1e-9 }, "never back")
        #expect(steps[1..<20].allSatisfy { Self.near($0.rt, steps[0].rt) }, "stands still")
        #expect(Self.near(c.delay, 500))
    }

    @Test func displayFramesASecondApartAreAResyncOntoTheGoal() {
        var c = Self.settledClock()
        _ = c.advance(displayAt: 10016)
        _ = c.advance(displayAt: 14016)
        #expect(c.resyncs == 1 && c.resyncLog.first?.reason == .slept)
        #expect(Self.near(c.delay, 100))
    }

    @Test func anUnderrunRaisesTheGoalByAtMostOneIntervalAndTheRenderTimeWaitsForIt() {
        var c = Self.settledClock()
        _ = Self.run(&c, 10016, 10496)
        Self.late(&c, 300)
        c.underrun()
        #expect(Self.near(c.goal, 200), "100 + one interval")
        #expect(c.resyncs == 1 && c.resyncLog.first?.reason == .underrun)
        let steps = Self.run(&c, 10512, 10700)
        #expect(steps.filter { $0.at <= 10596 }.allSatisfy { Self.near($0.rt, steps[0].rt) }, "stands still for 100 ms")
        #expect(steps.last!.rt > steps[0].rt, "then runs on")
        #expect(Self.near(c.delay, 200))
    }

    @Test func aStallPastTheAllowanceOnASecondFrameHoldsTheRenderTimeUpToMaxStall() {
        var c = Self.settledClock { $0.maxStallMs = 100 }
        let limit = 5050.0
        let shown = [10100.0, 10200, 10216, 10232, 10248].map { c.advance(displayAt: $0, limit: limit) }
        // one frame past the limit is the caller's own stall; a second is held there
        #expect(shown == [5000, 5100, limit, limit, limit])
        #expect(c.resyncs == 1 && c.resyncLog.first?.reason == .underrun)
        let after = c.advance(displayAt: 10264, limit: limit)
        #expect(after == 5066, "held 98 ms; 116 would be more than maxStallMs")
        #expect(Self.near(c.goal, 198), "the goal is the delay the stall made")
    }
}
