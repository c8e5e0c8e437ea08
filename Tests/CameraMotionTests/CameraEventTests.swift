import CameraCore
import Foundation
import Testing

@testable import CameraMotion

@Suite("Camera events")
struct CameraEventTests {
    func changes(_ events: [MotionEvent]) -> [(String?, Double)] {
        events.compactMap { if case .changed(_, let by, let t) = $0 { (by, t) } else { nil } }
    }

    @Test("changed is reported on every tick that moved the camera, naming the cause")
    func changedPerTick() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 4), duration: 1), owner: driver, at: 0)
        for t in [0.25, 0.5, 0.75, 1.0, 1.25] { m.advance(to: t) }
        let changed = changes(m.takeEvents())
        #expect(changed.map(\.1) == [0.25, 0.5, 0.75, 1.0])
        #expect(changed.allSatisfy { $0.0 == "d1" })
    }

    @Test("an owner that has no use for changes gets nothing while only changes happened, and everything once more did")
    func eventsBesidesChanges() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 3.1), duration: 1), owner: driver, at: 0)
        _ = m.takeEvents()  // the animation's start
        m.advance(to: 0.25)
        #expect(m.takeEventsBesidesChanges().isEmpty, "a tick of a plain flight: changes only")
        #expect(m.takeEvents().isEmpty, "the changes were taken too")
        m.advance(to: 1.5)
        let events = m.takeEventsBesidesChanges()
        #expect(events.contains { if case .animation(let report) = $0 { report.status == .finished } else { false } })
        #expect(events.contains { if case .changed = $0 { true } else { false } }, "taken whole, in order, changes included")
    }

    @Test("steady is reported once per rest, after the steady delay")
    func steadyOncePerRest() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 4), duration: 1), owner: driver, at: 0)
        for t in stride(from: 0.0, through: 2, by: 1.0 / 60) { m.advance(to: t) }
        let steady = m.takeEvents().filter { if case .steady = $0 { true } else { false } }
        #expect(steady == [.steady(camera: m.camera, time: 1.1)])
        m.advance(to: 5)
        #expect(m.takeEvents().isEmpty)
        _ = m.set(CameraUpdate(zoom: 5), owner: driver, at: 6)
        m.advance(to: 6.2)
        #expect(m.takeEvents().filter { if case .steady = $0 { true } else { false } }.count == 1)
    }

    @Test("significantChange fires past the thresholds, not before")
    func significantChange() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        func significant() -> Int { m.takeEvents().filter { if case .significantChange = $0 { true } else { false } }.count }
        _ = m.set(CameraUpdate(zoom: 3.4), owner: driver, at: 0)
        #expect(significant() == 0)
        _ = m.set(CameraUpdate(zoom: 3.6), owner: driver, at: 1)
        #expect(significant() == 1)
        _ = m.set(CameraUpdate(bearing: 9), owner: driver, at: 2)
        #expect(significant() == 0)
        _ = m.set(CameraUpdate(bearing: 351), owner: driver, at: 3)  // 9° the other way from 0: still under 10
        #expect(significant() == 0)
        _ = m.set(CameraUpdate(tilt: 10), owner: driver, at: 4)
        #expect(significant() == 1)
        // 180 px (a quarter of 720) at zoom 3.6: 180 / (512 · 2^3.6) of the world.
        let degrees = 180 / (512 * exp2(3.6)) * 360
        _ = m.set(CameraUpdate(longitude: degrees * 0.99), owner: driver, at: 5)
        #expect(significant() == 0)
        _ = m.set(CameraUpdate(longitude: degrees * 1.01), owner: driver, at: 6)
        #expect(significant() == 1)
    }
}

@Suite("Tracking modes")
struct TrackingTests {
    @Test("followNorthUp glides to each fix without jumps and turns north")
    func followNorthUp() {
        var m = AnimatorManager(camera: Camera(latitude: 0, longitude: 0, zoom: 14, bearing: 90))
        _ = m.track(.followNorthUp, location: TrackedLocation(latitude: 0.001, longitude: 0.001), owner: driver, at: 0)
        #expect(m.trackingMode == .followNorthUp)
        var previous = m.camera
        var lastFix = 0.001
        for tick in 1...300 {  // 5 s at 60 Hz, with a 2 Hz feed
            let t = Double(tick) / 60
            if tick % 30 == 0 {
                lastFix = 0.001 + Double(tick / 30) * 0.0001
                _ = m.track(.followNorthUp, location: TrackedLocation(latitude: lastFix, longitude: 0.001), owner: driver, at: t)
            }
            m.advance(to: t)
            // The fastest legitimate glide is the first: 0.001° in 1 s, 1.7e-5° per tick.
            #expect(abs(m.camera.latitude - previous.latitude) < 0.00003)  // never a jump
            previous = m.camera
        }
        m.advance(to: 7)
        #expect(m.camera.bearing == 0)
        #expect(abs(m.camera.latitude - lastFix) < 1e-12)
    }

    @Test("followDirection follows the heading with tilt 0")
    func followDirection() {
        var m = AnimatorManager(camera: Camera(zoom: 14, tilt: 40))
        _ = m.track(.followDirection, location: TrackedLocation(latitude: 1, longitude: 1, heading: 135), owner: driver, at: 0)
        m.advance(to: 1)
        #expect(m.camera.bearing == 135 && m.camera.tilt == 0 && m.camera.latitude == 1)
    }

    @Test("a command claiming a tracked property ends tracking with trackingModeChanged")
    func claimEndsTracking() {
        var m = AnimatorManager(camera: Camera(zoom: 14))
        _ = m.track(.followNorthUp, location: TrackedLocation(latitude: 1, longitude: 1), owner: driver, at: 0)
        _ = m.takeEvents()
        _ = m.ease(EaseRequest(update: CameraUpdate(latitude: 5, longitude: 5)), owner: driver2, at: 0.5)
        #expect(m.trackingMode == .none)
        #expect(m.takeEvents().contains(.trackingModeChanged(mode: .none, by: "d2", time: 0.5)))
    }

    @Test("a command on an untracked property leaves tracking on")
    func untrackedPropertyKeepsTracking() {
        var m = AnimatorManager(camera: Camera(zoom: 14))
        _ = m.track(.followNorthUp, location: TrackedLocation(latitude: 1, longitude: 1), owner: driver, at: 0)
        _ = m.set(CameraUpdate(zoom: 12), owner: driver2, at: 0.5)
        #expect(m.trackingMode == .followNorthUp)
    }

    @Test("a lower rank cannot turn off a higher rank's tracking")
    func trackingRank() {
        var m = AnimatorManager(camera: Camera(zoom: 14))
        _ = m.track(.followNorthUp, location: nil, owner: presenter, at: 0)
        #expect(m.track(.none, location: nil, owner: driver, at: 1).failureValue?.code == .conflict)
        #expect(m.set(CameraUpdate(latitude: 3), owner: driver, at: 1).failureValue?.code == .conflict)
        #expect(m.trackingMode == .followNorthUp)
        #expect(m.track(.none, location: nil, owner: presenter, at: 2).isSuccess)
        #expect(m.trackingMode == .none)
    }
}
