import CameraCore
import Testing

@testable import CameraMotion

/// A cluster's failover: the hub taking a room over goes on with the tracking
/// mode its old owner ran (`resumeTracking`).
@Suite("Animator manager: resuming a tracking mode")
struct ResumeTrackingTests {
    let driver = Owner(client: "d1", rank: .driver)

    @Test("resuming a mode runs it for its owner without a mode event, and the next fix is a plain update")
    func resumeWithoutModeEvent() throws {
        var m = AnimatorManager(camera: Camera(latitude: 10, longitude: 20, zoom: 8))
        let fix = TrackedLocation(latitude: 10, longitude: 20)
        _ = try m.resumeTracking(.followNorthUp, location: fix, owner: driver, at: 0).get()
        #expect(m.trackingMode == .followNorthUp)
        #expect(m.trackingOwner == driver)
        #expect(!m.takeEvents().contains { if case .trackingModeChanged = $0 { true } else { false } })

        _ = try m.track(.followNorthUp, location: TrackedLocation(latitude: 11, longitude: 21), owner: driver, at: 1).get()
        m.advance(to: 5)
        #expect(abs(m.camera.latitude - 11) < 1e-9 && abs(m.camera.longitude - 21) < 1e-9)
        #expect(!m.takeEvents().contains { if case .trackingModeChanged = $0 { true } else { false } }, "the same mode: no event")
    }

    @Test("a resumed mode ends when its owner leaves, with the mode event")
    func resumedModeEndsWithItsOwner() throws {
        var m = AnimatorManager(camera: Camera(latitude: 10, longitude: 20, zoom: 8))
        _ = try m.resumeTracking(.followNorthUp, location: nil, owner: driver, at: 0).get()
        m.ownerLeft("d1", at: 1)
        #expect(m.trackingMode == .none)
        #expect(m.takeEvents().contains { if case .trackingModeChanged(.none, "d1", _) = $0 { true } else { false } })
    }
}
