import CameraCore
import Testing

@testable import CameraMotion

/// `AnimatorManager.velocity(at:)`: the planned path's slope that moving frames carry.
@Suite("Camera velocity along the planned path")
struct VelocityTests {
    /// The camera the manager shows at `t` (a copy advanced there).
    func camera(of m: AnimatorManager, at t: Double) -> Camera {
        var copy = m
        copy.advance(to: t)
        return copy.camera
    }

    /// `velocity(at: t)` predicts the camera `h` seconds later to second order.
    func expectSlopeMatchesPath(_ m: AnimatorManager, at t: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var here = m
        here.advance(to: t)
        let v = try #require(here.velocity(at: t), sourceLocation: sourceLocation)
        let h = 0.004
        let a = camera(of: m, at: t - h)
        let b = camera(of: m, at: t + h)
        let central = CameraVelocity(from: a, to: b, over: 2 * h)
        let scale = max(1, abs(central.latitude), abs(central.longitude), abs(central.zoom), abs(central.bearing), abs(central.tilt))
        for (got, want) in [
            (v.latitude, central.latitude), (v.longitude, central.longitude), (v.zoom, central.zoom), (v.bearing, central.bearing),
            (v.tilt, central.tilt),
        ] {
            #expect(abs(got - want) <= 2e-3 * scale, "\(got) vs \(want) at \(t)", sourceLocation: sourceLocation)
        }
    }

    @Test func aLinearAnimationMovesAtItsConstantRate() throws {
        var m = AnimatorManager(camera: Camera(latitude: 10, longitude: 170, zoom: 3))
        _ = try m.animate(EaseRequest(update: CameraUpdate(longitude: -170, bearing: 90), duration: 2, curve: .linear), owner: driver, at: 0).get()
        m.advance(to: 0.5)
        let v = try #require(m.velocity(at: 0.5))
        #expect(abs(v.longitude - 10) < 1e-6, "20° east across the antimeridian in 2 s: \(v.longitude)")
        #expect(abs(v.bearing - 45) < 1e-6)
        #expect(v.latitude == 0 && v.zoom == 0 && v.tilt == 0)
    }

    @Test(arguments: [0.1, 0.75, 1.3])
    func anEasesVelocityIsTheSlopeOfItsPath(t: Double) throws {
        var m = AnimatorManager(camera: Camera(latitude: 10, longitude: 20, zoom: 3))
        _ = try m.ease(EaseRequest(update: CameraUpdate(latitude: 40, longitude: -10, zoom: 6, tilt: 40, bearing: 300), duration: 1.5), owner: driver, at: 0)
            .get()
        try expectSlopeMatchesPath(m, at: t)
    }

    @Test(arguments: [0.2, 1.0, 2.6])
    func aFlightsVelocityIsTheSlopeOfItsPath(t: Double) throws {
        var m = AnimatorManager(camera: Camera(latitude: 45, longitude: 6, zoom: 5))
        _ = try m.fly(FlyRequest(update: CameraUpdate(latitude: 48.8566, longitude: 2.3522, zoom: 9), duration: 3), owner: driver, at: 0).get()
        try expectSlopeMatchesPath(m, at: t)
    }

    @Test func aCameraAtRestHasNoVelocity() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        #expect(m.velocity(at: 0) == nil)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 4), duration: 1), owner: driver, at: 0)
        m.advance(to: 2)
        #expect(m.velocity(at: 2) == nil, "after the animation ended")
    }

    @Test func aLiveGestureHasNoPlannedVelocity() throws {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        let handle = try m.beginInteraction("pan", claims: [.center], owner: driver, at: 0).get()
        _ = m.moveInteraction(handle, to: Camera(latitude: 1, zoom: 3), at: 0.1)
        #expect(m.velocity(at: 0.1) == nil, "its path depends on input still to come")
    }
}
