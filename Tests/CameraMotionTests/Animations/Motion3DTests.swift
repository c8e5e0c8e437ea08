import CameraCore
import Testing

@testable import CameraMotion

/// Roll, elevation and field of view in the animator manager: animated like
/// the other properties, roll the short way round as bearing is.
@Suite("Animator manager: roll, elevation and field of view")
struct Motion3DTests {
    @Test("an ease turns the roll the short way through ±180 and ends exactly on the target")
    func easeRollsTheShortWay() throws {
        var m = AnimatorManager(camera: Camera(latitude: 10, longitude: 10, zoom: 5, roll: 170))
        _ = try m.ease(EaseRequest(update: CameraUpdate(roll: -170), duration: 2, curve: .linear), owner: driver, at: 0).get()
        m.advance(to: 0.5)
        #expect(abs(m.camera.roll - 175) < 1e-9)
        m.advance(to: 1.5)
        #expect(abs(m.camera.roll - (-175)) < 1e-9, "past 180 the roll reads as its -180…180 value")
        m.advance(to: 2)
        #expect(m.camera.roll == -170)
    }

    @Test("a fly with roll, elevation and fov moves them along the flight and ends exactly on them")
    func flyEndsOnTheThreeDimensionalTarget() throws {
        var m = AnimatorManager(camera: Camera(latitude: 38.72, longitude: -9.14, zoom: 5), limits: try CameraLimits(maxTilt: 85))
        let target = CameraUpdate(latitude: 35.68, longitude: 139.77, zoom: 12, tilt: 80, roll: 20, elevation: 1500, fov: 30)
        _ = try m.fly(FlyRequest(update: target, duration: 4), owner: driver, at: 0).get()
        m.advance(to: 2)
        #expect(m.camera.roll > 0 && m.camera.roll < 20)
        #expect(m.camera.elevation > 0 && m.camera.elevation < 1500)
        #expect(m.camera.fov < Camera.defaultFov && m.camera.fov > 30)
        m.advance(to: 4)
        #expect(m.camera.roll == 20 && m.camera.elevation == 1500 && m.camera.fov == 30 && m.camera.tilt == 80)
        #expect(m.camera.latitude == 35.68 && abs(m.camera.longitude - 139.77) < 1e-9 && m.camera.zoom == 12)
    }

    @Test("an animator of the roll alone takes the orientation an ease turns as one (roll, tilt, bearing) and leaves it the rest")
    func rollTakesTheEasesOrientation() throws {
        var m = AnimatorManager(camera: Camera(latitude: 0, longitude: 0, zoom: 5, tilt: 30))
        _ = try m.ease(EaseRequest(update: CameraUpdate(zoom: 7, roll: 40), duration: 2, curve: .linear), id: "e", owner: driver, at: 0).get()
        m.advance(to: 1)
        _ = m.takeEvents()
        _ = try m.animate(EaseRequest(update: CameraUpdate(roll: -10), duration: 1, curve: .linear), id: "r", owner: driver2, at: 1).get()
        let cut = m.takeReports().first { $0.id == "e" }
        #expect(cut?.status == .interrupted && cut?.lost == [.roll, .tilt, .bearing])
        m.advance(to: 2)
        #expect(m.camera.zoom == 7 && m.camera.roll == -10)
    }

    @Test("an ease of the roll with the tilt turns the orientation along one rotation, as MapLibre's easeTo")
    func easeOfRollAndTiltSlerps() throws {
        var m = AnimatorManager(camera: Camera(latitude: 0, longitude: 0, zoom: 5), limits: try CameraLimits(maxTilt: 85))
        _ = try m.ease(EaseRequest(update: CameraUpdate(tilt: 60, roll: 120), duration: 2, curve: .linear), owner: driver, at: 0).get()
        m.advance(to: 1)
        // Halfway along the slerp of MapLibre's quaternions (computed apart, in Python, from
        // gl-matrix's fromEuler, slerp and MapLibre's getRollPitchBearing), not 60 / 30 / 0.
        #expect(abs(m.camera.roll - 87.62634087296126) < 1e-9)
        #expect(abs(m.camera.tilt - 34.356482117705546) < 1e-9)
        #expect(abs(shortestTurn(from: m.camera.bearing, to: -32.37365912703868)) < 1e-9, "the bearing swings though neither end has one")
        m.advance(to: 2)
        #expect(m.camera.tilt == 60 && m.camera.roll == 120 && m.camera.bearing == 0)
    }

    @Test("a frame's velocity carries the roll's, elevation's and fov's rates")
    func velocityHasTheThreeDimensionalRates() throws {
        var m = AnimatorManager(camera: Camera(latitude: 0, longitude: 0, zoom: 5))
        _ = try m.ease(EaseRequest(update: CameraUpdate(roll: -30, elevation: 600, fov: 46.86989764584402), duration: 3, curve: .linear), owner: driver, at: 0)
            .get()
        m.advance(to: 1)
        let v = try #require(m.velocity(at: 1))
        #expect(abs(v.roll - (-10)) < 1e-6 && abs(v.elevation - 200) < 1e-4 && abs(v.fov - 10.0 / 3) < 1e-6)
    }

    @Test("a tracking mode moves the centre and bearing of a rolled camera and keeps its roll")
    func trackingKeepsTheRoll() throws {
        var m = AnimatorManager(camera: Camera(latitude: 52.52, longitude: 13.4, zoom: 15, roll: 12))
        _ = try m.track(.followDirection, location: TrackedLocation(latitude: 52.53, longitude: 13.41, heading: 90), owner: driver, at: 0).get()
        m.advance(to: 3)
        #expect(m.camera.bearing == 90)
        #expect(m.camera.roll == 12)
        #expect(abs(m.camera.latitude - 52.53) < 1e-6)
    }
}
