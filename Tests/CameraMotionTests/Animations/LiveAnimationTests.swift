import CameraCore
import Testing

@testable import CameraMotion

/// What a late joiner learns — the live animations (running
/// and queued) and the tracking state, as pure functions of the commands and
/// their times.
@Suite("Animator manager: live animations and tracking for late joiners")
struct LiveAnimationTests {
    @Test("running and queued animations are listed with kind, owner, state, properties and chain")
    func listsRunningAndQueued() throws {
        var m = AnimatorManager(camera: Camera(latitude: 0, longitude: 0, zoom: 4))
        _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 30, longitude: 40, zoom: 6)), id: "f", owner: presenter, at: 10)
        _ = m.animate(EaseRequest(update: CameraUpdate(bearing: 90), duration: 2), id: "spin", owner: driver, at: 10.5)
        _ = m.animate(EaseRequest(update: CameraUpdate(tilt: 30), duration: 1, delay: 3), id: "later", owner: driver, at: 10.5)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 2), duration: 1.5, after: "spin"), id: "next", owner: driver, at: 10.5)
        m.advance(to: 11)
        let live = m.liveAnimations
        #expect(live.map(\.id) == ["f", "spin", "later", "next"])

        let fly = try #require(live.first)
        #expect(fly.kind == .fly && fly.owner == presenter && fly.properties == [.center, .zoom])
        guard case .running(let start, let duration) = fly.state else {
            Issue.record("fly not running")
            return
        }
        #expect(start == 10 && duration > 0, "a flight's duration is known once it runs (from its path)")
        #expect(fly.requestedDuration == nil)

        #expect(live[1].kind == .animate && live[1].state == .running(start: 10.5, duration: 2) && live[1].properties == .bearing)
        #expect(live[2].state == .delayed(until: 13.5) && live[2].properties == .tilt && live[2].after == nil)
        #expect(live[3].state == .waiting && live[3].after == "spin" && live[3].requestedDuration == 1.5)
    }

    @Test("a running animation lists what it still holds after losing a property")
    func propertiesShrinkWhenTaken() {
        var m = AnimatorManager()
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 6, bearing: 90), duration: 3), id: "e", owner: driver, at: 0)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 3), duration: 1), id: "z", owner: driver2, at: 1)
        #expect(m.liveAnimations.first { $0.id == "e" }?.properties == .bearing)
        #expect(m.liveAnimations.first { $0.id == "e" }?.kind == .ease)
    }

    @Test("finished, cancelled and superseded animations leave the list at their exact times")
    func endedAnimationsLeave() {
        var m = AnimatorManager()
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 6), duration: 2), id: "a", owner: driver, at: 0)
        _ = m.animate(EaseRequest(update: CameraUpdate(tilt: 10), duration: 5), id: "b", owner: driver, at: 0)
        m.advance(to: 1.999)
        #expect(m.liveAnimations.map(\.id) == ["a", "b"])
        m.advance(to: 2)
        #expect(m.liveAnimations.map(\.id) == ["b"])
        _ = m.cancel(id: "b", owner: driver, at: 2.5)
        #expect(m.liveAnimations.isEmpty)
    }

    @Test("tracking: the mode and the fix it follows; none after tracking stops")
    func trackingState() {
        var m = AnimatorManager()
        #expect(m.trackingMode == .none && m.trackedLocation == nil)
        let fix = TrackedLocation(latitude: 52.52, longitude: 13.405, heading: 87)
        _ = m.track(.followDirection, location: fix, owner: driver, at: 0)
        #expect(m.trackingMode == .followDirection && m.trackedLocation == fix)
        let next = TrackedLocation(latitude: 52.53, longitude: 13.41, heading: 90)
        _ = m.track(.followDirection, location: next, owner: driver, at: 1)
        #expect(m.trackedLocation == next)
        #expect(m.liveAnimations.isEmpty, "tracking is not an animation")
        _ = m.track(.none, location: nil, owner: driver, at: 2)
        #expect(m.trackingMode == .none && m.trackedLocation == nil)
    }
}
