import CameraCore
import Foundation
import Testing

@testable import CameraMotion

func pinch(_ phase: GesturePhase, _ x: Double? = nil, _ y: Double? = nil, scale: Double? = nil, rotation: Double? = nil, t: Double? = nil) -> GestureInput {
    GestureInput(.pinch, phase, x: x, y: y, t: t, scale: scale, rotation: rotation)
}

@Suite("Gestures: pinch")
struct GesturePinchTests {
    @Test(
        "the geo point under the focal point at begin stays under the moving focal point (≤ 0.5 px)",
        arguments: [(0.0, 30.0), (45, 30), (45, 250)])
    func focalPointFixed(tilt: Double, bearing: Double) throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: tilt, bearing: bearing))
        let geo = try #require(rig.geo(at: ViewPoint(x: 400, y: 350)))
        _ = try rig.send(pinch(.begin, 400, 350, scale: 1, rotation: 0, t: 0), at: 0).get()
        for i in 1...30 {
            let d = Double(i)
            let focal = ViewPoint(x: 400 + 3 * d, y: 350 - 2 * d)
            _ = try rig.send(pinch(.change, focal.x, focal.y, scale: 1 + 0.05 * d, rotation: 1.5 * d, t: d * 16), at: d * 0.016).get()
            #expect(pixelDistance(rig.view(of: geo), focal) <= 0.5)
        }
        #expect(abs(rig.manager.camera.zoom - (12 + log2(2.5))) < 1e-12)
    }

    @Test("zoom is the start zoom plus log2 of the cumulative scale")
    func zoomFromScale() throws {
        var rig = GestureRig()
        _ = try rig.send(pinch(.begin, 400, 300), at: 0).get()
        _ = try rig.send(pinch(.change, 400, 300, scale: 2), at: 0.1).get()
        #expect(abs(rig.manager.camera.zoom - 13) < 1e-12)
        _ = try rig.send(pinch(.change, 400, 300, scale: 0.5), at: 0.2).get()
        #expect(abs(rig.manager.camera.zoom - 11) < 1e-12)
    }

    @Test("rotation below the threshold leaves the bearing alone: a pure zoom does not wobble")
    func rotationThreshold() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, bearing: 20))
        _ = try rig.send(pinch(.begin, 400, 300), at: 0).get()
        for (i, rotation) in [1.0, -2, 3.9, -3.5, 2].enumerated() {
            _ = try rig.send(pinch(.change, 400, 300, scale: 1 + 0.1 * Double(i), rotation: rotation), at: Double(i) * 0.02).get()
            #expect(rig.manager.camera.bearing == 20)
        }
    }

    @Test("past the threshold the map turns by the rotation beyond it, without a jump")
    func rotationWithoutJump() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, bearing: 20))
        _ = try rig.send(pinch(.begin, 400, 300), at: 0).get()
        _ = try rig.send(pinch(.change, 400, 300, scale: 1, rotation: 3.9), at: 0.02).get()
        #expect(rig.manager.camera.bearing == 20)
        _ = try rig.send(pinch(.change, 400, 300, scale: 1, rotation: 4.5), at: 0.04).get()
        #expect(abs(rig.manager.camera.bearing - 19.5) < 1e-12)  // 0.5° beyond the 4° threshold
        _ = try rig.send(pinch(.change, 400, 300, scale: 1, rotation: 10), at: 0.06).get()
        #expect(abs(rig.manager.camera.bearing - 14) < 1e-12)
        _ = try rig.send(pinch(.change, 400, 300, scale: 1, rotation: 2), at: 0.08).get()  // turning back keeps following
        #expect(abs(rig.manager.camera.bearing - 22) < 1e-12)
    }

    @Test("fingers turning clockwise turn the map clockwise on screen (bearing decreases)")
    func clockwiseSign() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12))
        let focal = ViewPoint(x: 400, y: 300)
        let east = try #require(rig.geo(at: ViewPoint(x: 500, y: 300)))  // 100 px right of the focal point
        _ = try rig.send(pinch(.begin, focal.x, focal.y), at: 0).get()
        _ = try rig.send(pinch(.change, focal.x, focal.y, scale: 1, rotation: 94), at: 0.1).get()  // 90° beyond the threshold
        // A quarter turn clockwise on screen (y down): right of the focal point goes below it.
        #expect(pixelDistance(rig.view(of: east), ViewPoint(x: 400, y: 400)) < 1e-6)
        #expect(abs(rig.manager.camera.bearing - 270) < 1e-9)
    }

    @Test("an end with values applies them before ending; pinch leaves no momentum")
    func endAppliesLastValues() throws {
        var rig = GestureRig()
        _ = try rig.send(pinch(.begin, 400, 300), at: 0).get()
        _ = try rig.send(pinch(.change, 400, 300, scale: 1.5), at: 0.1).get()
        #expect(try rig.send(pinch(.end, 400, 300, scale: 2), at: 0.12).get().effect == .ended(momentum: nil))
        #expect(abs(rig.manager.camera.zoom - 13) < 1e-12)
        rig.manager.advance(to: 2)
        #expect(abs(rig.manager.camera.zoom - 13) < 1e-12 && !rig.manager.isMoving)
    }
}

@Suite("Gestures: tilt and rotate")
struct GestureTiltRotateTests {
    @Test("tilt = start tilt − 0.5° per px of dy: fingers moving up tilt more")
    func tiltFromDy() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 10))
        let target = rig.manager.camera.target
        _ = try rig.send(GestureInput(.tilt, .begin, x: 400, y: 300, dy: 0), at: 0).get()
        _ = try rig.send(GestureInput(.tilt, .change, dy: -40), at: 0.1).get()
        #expect(rig.manager.camera.tilt == 30 && rig.manager.camera.target == target)
        _ = try rig.send(GestureInput(.tilt, .change, dy: 10), at: 0.2).get()
        #expect(rig.manager.camera.tilt == 5)
        _ = try rig.send(GestureInput(.tilt, .change, dy: 100), at: 0.3).get()
        #expect(rig.manager.camera.tilt == 0)  // clamped at min tilt
    }

    @Test("tilt is clamped by the max-tilt-per-zoom table")
    func tiltClampedByTable() throws {
        let limits = try CameraLimits(maxTilt: 60, maxTiltByZoom: [.init(zoom: 10, tilt: 60), .init(zoom: 14, tilt: 20)])
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 14), limits: limits)
        _ = try rig.send(GestureInput(.tilt, .begin), at: 0).get()
        _ = try rig.send(GestureInput(.tilt, .change, dy: -200), at: 0.1).get()
        #expect(rig.manager.camera.tilt == 20)
    }

    @Test("rotate without a point turns the bearing by rotation around the camera target")
    func rotateAroundTarget() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 30, bearing: 350))
        let target = rig.manager.camera.target
        _ = try rig.send(GestureInput(.rotate, .begin, rotation: 0), at: 0).get()
        _ = try rig.send(GestureInput(.rotate, .change, rotation: 24), at: 0.1).get()  // 30 px right-drag at 0.8°/px
        #expect(abs(rig.manager.camera.bearing - 14) < 1e-9 && rig.manager.camera.target == target)
        _ = try rig.send(GestureInput(.rotate, .end, rotation: -10), at: 0.2).get()
        #expect(abs(rig.manager.camera.bearing - 340) < 1e-9)
    }

    @Test("rotate around a point keeps the geo point under it fixed")
    func rotateAroundPoint() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 45, bearing: 30))
        let pivot = ViewPoint(x: 250, y: 420)
        let geo = try #require(rig.geo(at: pivot))
        _ = try rig.send(GestureInput(.rotate, .begin, x: pivot.x, y: pivot.y, rotation: 0), at: 0).get()
        for i in 1...10 {
            // The pointer moves on; the pivot is where the drag began.
            _ = try rig.send(GestureInput(.rotate, .change, x: pivot.x + 10 * Double(i), y: pivot.y, rotation: 8 * Double(i)), at: Double(i) * 0.02).get()
            #expect(pixelDistance(rig.view(of: geo), pivot) <= 0.5)
        }
        #expect(abs(rig.manager.camera.bearing - 110) < 1e-9)
    }

    @Test("a tilt and a pan of the same client run side by side (they claim different properties)")
    func tiltAndPanTogether() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        _ = try rig.send(GestureInput(.tilt, .begin), at: 0.01).get()
        _ = try rig.send(GestureInput(.tilt, .change, dy: -20), at: 0.02).get()
        #expect(try rig.send(pan(.change, 420, 300), at: 0.03).get().effect == .following)
        #expect(rig.manager.camera.tilt == 10)
        #expect(Set(rig.engine.activeGestures(of: "d1")) == [.pan, .tilt])
    }
}
