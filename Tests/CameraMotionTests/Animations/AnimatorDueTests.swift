import CameraCore
import Testing

@testable import CameraMotion

/// `AnimatorManager.due`: what its owner's clock must do when no command comes.
@Suite("Animator manager: due work")
struct AnimatorDueTests {
    let start = Camera(latitude: 10, longitude: 20, zoom: 5)

    @Test func aNewManagerHasNothingDue() {
        #expect(AnimatorManager(camera: start, time: 3).due == .never)
    }

    @Test func aRunningAnimationIsMovingUntilItsEnd() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 1), owner: driver, at: 0)
        _ = m.animate(EaseRequest(update: CameraUpdate(bearing: 30), duration: 3, delay: 0.5), id: "later", owner: driver, at: 0)
        #expect(m.due == .moving(next: 0.5), "the delayed start comes first")
        m.advance(to: 0.6)
        #expect(m.due == .moving(next: 1))
    }

    @Test func aDelayedAnimationIsDueAtItsStart() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 1, delay: 2.5), owner: driver, at: 1)
        #expect(m.due == .at(3.5))
    }

    @Test func aChangeIsFollowedBySteadyAfterTheSteadyDelay() {
        var m = AnimatorManager(camera: start)
        _ = m.set(CameraUpdate(zoom: 7), owner: driver, at: 2)
        #expect(m.due == .at(2 + m.steadyDelay))
        m.advance(to: 2 + m.steadyDelay)
        #expect(m.takeEvents().contains { if case .steady = $0 { true } else { false } })
        #expect(m.due == .never, "nothing left once steady was reported")
    }

    @Test func anAnimationThatEndedLeavesOnlySteadyDue() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 1), owner: driver, at: 0)
        m.advance(to: 1.05)
        #expect(m.due == .at(1 + m.steadyDelay))
    }
}
