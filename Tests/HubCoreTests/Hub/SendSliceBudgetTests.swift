import Testing

@testable import HubCore

/// The server sizes each tick's and slice's sends so a slice takes about a
/// quarter of the tick interval, whatever a frame costs.
@Suite("SendSliceBudget: slices sized from what frames cost")
struct SendSliceBudgetTests {
    @Test func beforeAnyMeasurementASliceMayWriteTheCeiling() {
        let budget = SendSliceBudget(tick: 60, ceiling: 1_000)
        #expect(budget.frames == 1_000)
        #expect(abs(budget.targetSeconds - 0.25 / 60) < 1e-12, "a quarter of the 60 Hz interval")
    }

    @Test func aSliceWritesWhatFitsInItsTargetAtTheMeasuredCost() {
        var budget = SendSliceBudget(targetSeconds: 0.004, ceiling: 1_000)
        budget.record(frames: 1_000, seconds: 0.010)  // 10 µs a frame
        #expect(budget.frames == 400)
    }

    @Test func cheapFramesAreCappedAtTheCeilingAndDearOnesHeldAtTheFloor() {
        var cheap = SendSliceBudget(targetSeconds: 0.004, ceiling: 1_000)
        cheap.record(frames: 500, seconds: 0.0005)  // 1 µs a frame: 4,000 would fit
        #expect(cheap.frames == 1_000)
        var dear = SendSliceBudget(targetSeconds: 0.004, ceiling: 1_000, floor: 50)
        dear.record(frames: 100, seconds: 0.1)  // 1 ms a frame: 4 would fit
        #expect(dear.frames == 50, "a pass always moves on")
    }

    @Test func theBudgetFollowsAChangeOfCostWithinAFewSlices() {
        var budget = SendSliceBudget(targetSeconds: 0.004, ceiling: 1_000)
        budget.record(frames: 800, seconds: 0.004)  // 5 µs: 800 fit
        #expect(budget.frames == 800)
        // The core is now shared: each frame takes 20 µs of wall time.
        var slices = 0
        while budget.frames > 220 && slices < 20 {
            budget.record(frames: budget.frames, seconds: Double(budget.frames) * 20e-6)
            slices += 1
        }
        #expect(slices <= 8, "\(slices) slices to come down near 200 frames")
        #expect(budget.frames >= 200, "never below what the new cost allows (\(budget.frames))")
    }

    @Test func slicesTooSmallToMeasureLeaveTheEstimateAlone() {
        var budget = SendSliceBudget(targetSeconds: 0.004, ceiling: 1_000)
        budget.record(frames: 400, seconds: 0.004)
        budget.record(frames: 3, seconds: 0.003)  // a tick that only advanced a room
        #expect(budget.frames == 400)
    }
}
