import CameraCore
import Foundation
import Testing

@testable import CameraMotion

func scroll(_ x: Double?, _ y: Double?, delta: Double) -> GestureInput {
    GestureInput(.scroll, .change, x: x, y: y, delta: delta)
}

@Suite("Gestures: taps, long press and scroll")
struct GestureZoomTests {
    @Test(
        "double tap zooms in by 1 over 0.3 s, the tapped point fixed at the end (≤ 0.5 px)",
        arguments: [(0.0, 30.0), (45, 30), (45, 250)])
    func doubleTap(tilt: Double, bearing: Double) throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: tilt, bearing: bearing))
        let point = ViewPoint(x: 620, y: 180)
        let geo = try #require(rig.geo(at: point))
        let outcome = try rig.send(GestureInput(.doubleTap, .end, x: point.x, y: point.y), at: 1).get()
        #expect(outcome.effect == .animation(id: GestureEngine.doubleTapID))
        #expect(
            outcome.event?.point == point && outcome.event?.geo == geo && outcome.event?.disabled == false,
            "listeners hear the double tap with its view and geo point")
        rig.manager.advance(to: 1.29)
        #expect(rig.manager.isMoving)
        rig.manager.advance(to: 1.3)
        #expect(!rig.manager.isMoving && rig.manager.camera.zoom == 13)
        #expect(pixelDistance(rig.view(of: geo), point) <= 0.5)
    }

    @Test("two-finger tap without a point zooms out by 1 around the view centre")
    func twoFingerTapCentre() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 20, bearing: 70))
        let target = rig.manager.camera.target
        _ = try rig.send(GestureInput(.twoFingerTap), at: 0).get()
        rig.manager.advance(to: 1)
        #expect(rig.manager.camera.zoom == 11)
        #expect(abs(rig.manager.camera.latitude - target.latitude) < 1e-9 && abs(rig.manager.camera.longitude - target.longitude) < 1e-9)
    }

    @Test("two-finger tap at a point zooms out around it")
    func twoFingerTapAtPoint() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 45, bearing: 30))
        let point = ViewPoint(x: 200, y: 500)
        let geo = try #require(rig.geo(at: point))
        _ = try rig.send(GestureInput(.twoFingerTap, .end, x: point.x, y: point.y), at: 0).get()
        rig.manager.advance(to: 1)
        #expect(rig.manager.camera.zoom == 11 && pixelDistance(rig.view(of: geo), point) <= 0.5)
    }

    @Test("scroll zooms by −delta/450 around the cursor over 0.2 s (wheel down zooms out)")
    func scrollZoomsAroundCursor() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 45, bearing: 30))
        let cursor = ViewPoint(x: 650, y: 420)
        let geo = try #require(rig.geo(at: cursor))
        #expect(try rig.send(scroll(cursor.x, cursor.y, delta: 90), at: 0).get().effect == .animation(id: GestureEngine.scrollID))
        rig.manager.advance(to: 0.2)
        #expect(abs(rig.manager.camera.zoom - 11.8) < 1e-12 && !rig.manager.isMoving)
        #expect(pixelDistance(rig.view(of: geo), cursor) <= 0.5)
        _ = try rig.send(scroll(cursor.x, cursor.y, delta: -225), at: 1).get()
        rig.manager.advance(to: 1.2)
        #expect(abs(rig.manager.camera.zoom - 12.3) < 1e-12)
    }

    @Test("successive scrolls accumulate onto the pending target, not onto where the camera has got to")
    func scrollsAccumulate() throws {
        var rig = GestureRig()
        for i in 0..<3 { _ = try rig.send(scroll(400, 300, delta: -90), at: Double(i) * 0.05).get() }
        #expect(rig.manager.camera.zoom < 12.6)
        rig.manager.advance(to: 0.5)
        #expect(abs(rig.manager.camera.zoom - 12.6) < 1e-12)
    }

    @Test("a scroll whose previous zoom was taken away starts from the current zoom")
    func scrollAfterTakeover() throws {
        var rig = GestureRig()
        _ = try rig.send(scroll(400, 300, delta: -90), at: 0).get()
        _ = try rig.manager.set(CameraUpdate(zoom: 5), owner: presenter, at: 0.1).get()
        _ = try rig.send(scroll(400, 300, delta: -90), at: 0.2).get()
        rig.manager.advance(to: 1)
        #expect(abs(rig.manager.camera.zoom - 5.2) < 1e-12)
    }

    @Test("one scroll input changes the zoom by at most 1")
    func scrollCapped() throws {
        var rig = GestureRig()
        _ = try rig.send(scroll(400, 300, delta: 5000), at: 0).get()
        rig.manager.advance(to: 1)
        #expect(abs(rig.manager.camera.zoom - 11) < 1e-12)
    }

    @Test("zooming stops at the zoom limit and does not pile up beyond it")
    func zoomTargetClamped() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 21.9))
        for i in 0..<5 { _ = try rig.send(scroll(400, 300, delta: -450), at: Double(i) * 0.02).get() }
        _ = try rig.send(scroll(400, 300, delta: 90), at: 0.1).get()
        rig.manager.advance(to: 1)
        #expect(abs(rig.manager.camera.zoom - 21.8) < 1e-12)  // 22 − 0.2: out from the limit at once
    }

    @Test("successive double taps add a whole level each")
    func doubleTapsAccumulate() throws {
        var rig = GestureRig()
        _ = try rig.send(GestureInput(.doubleTap, .end, x: 400, y: 300), at: 0).get()
        _ = try rig.send(GestureInput(.doubleTap, .end, x: 400, y: 300), at: 0.15).get()
        rig.manager.advance(to: 1)
        #expect(rig.manager.camera.zoom == 14)
    }

    @Test("tap and long press report the geo point under them and move nothing", arguments: [GestureKind.tap, .longPress])
    func tapReported(kind: GestureKind) throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 40, bearing: 100))
        let camera = rig.manager.camera
        let point = ViewPoint(x: 123, y: 456)
        let expected = try #require(rig.geo(at: point))
        let phase: GesturePhase? = kind == .longPress ? nil : .end
        let outcome = try rig.send(GestureInput(kind, phase, x: point.x, y: point.y, t: 99), at: 0).get()
        #expect(outcome.effect == .reported)
        #expect(
            outcome.event
                == GestureEvent(
                    client: "d1", input: GestureInput(kind, phase, x: point.x, y: point.y, t: 99), geo: expected,
                    point: point))
        #expect(rig.manager.camera == camera && !rig.manager.isMoving)
    }

    @Test("a long press above the horizon reports no geo point")
    func longPressInSky() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 80), limits: try CameraLimits(maxTilt: 85))
        let outcome = try rig.send(GestureInput(.longPress, x: 400, y: 20), at: 0).get()
        #expect(outcome.effect == .reported && outcome.event != nil && outcome.event?.geo == nil)
    }

    @Test("a tap claims nothing: it is reported while a higher rank moves the camera")
    func tapNeverConflicts() throws {
        var rig = GestureRig()
        _ = try rig.manager.ease(EaseRequest(update: CameraUpdate(latitude: 40, longitude: 3, zoom: 8)), owner: presenter, at: 0).get()
        #expect(try rig.send(GestureInput(.tap, .end, x: 10, y: 10), at: 0.5).get().effect == .reported)
        #expect(rig.manager.animationIDs(of: "p1").count == 1)
    }
}
