import CameraCore
import Foundation
import Testing

@testable import CameraMotion

@Suite("Gestures: limits")
struct GestureLimitsTests {
    @Test("limits hold at every tick through pan, momentum, pinch, tilt, rotate, taps and scroll (zoom, per-zoom tilt, bounds)")
    func limitsAtEveryTick() throws {
        let limits = try CameraLimits(
            minZoom: 3, maxZoom: 14, maxTilt: 60,
            maxTiltByZoom: [.init(zoom: 10, tilt: 60), .init(zoom: 13, tilt: 30)],
            bounds: GeoBounds(south: 40, west: -5, north: 52, east: 10))
        var rig = GestureRig(camera: Camera(latitude: 48, longitude: 2, zoom: 12, tilt: 20, bearing: 15), limits: limits)
        var script: [(Double, GestureInput)] = []
        // A hard fling toward the north-west edge at zoom 6 (the bounds stop it).
        script.append((0, GestureInput(.twoFingerTap, x: 400, y: 300)))
        script += stride(from: 0, to: 6, by: 1).map { (0.4 + Double($0) * 0.1, GestureInput(.scroll, .change, x: 400, y: 300, delta: 450)) }
        script += Flick(from: ViewPoint(x: 200, y: 150), velocity: (6000, 5000), duration: 0.08, clientStart: 0, hubStart: 1.2)
            .script(sampledAt: Flick.regular(120, until: 0.08))
        // Pinch far past max zoom, turning.
        script.append((4, pinch(.begin, 400, 300, t: 4000)))
        for i in 1...20 {
            script.append(
                (4 + Double(i) * 0.02, pinch(.change, 400 - 5 * Double(i), 300, scale: 1 + Double(i), rotation: 6 * Double(i), t: 4000 + Double(i) * 20)))
        }
        script.append((4.5, pinch(.end, t: 4500)))
        // Tilt up past the per-zoom table, then rotate around a point, then zoom in and out.
        script.append((5, GestureInput(.tilt, .begin, t: 5000)))
        for i in 1...20 { script.append((5 + Double(i) * 0.02, GestureInput(.tilt, .change, t: 5000 + Double(i) * 20, dy: -20 * Double(i)))) }
        script.append((5.5, GestureInput(.tilt, .end, t: 5500)))
        script.append((6, GestureInput(.rotate, .begin, x: 700, y: 550, t: 6000)))
        for i in 1...10 {
            script.append((6 + Double(i) * 0.02, GestureInput(.rotate, .change, x: 700, y: 550, t: 6000 + Double(i) * 20, rotation: 15 * Double(i))))
        }
        script.append((6.3, GestureInput(.rotate, .end, t: 6300)))
        for i in 0..<8 { script.append((7 + Double(i) * 0.05, GestureInput(.doubleTap, x: 100, y: 100))) }
        for i in 0..<30 { script.append((8 + Double(i) * 0.03, GestureInput(.scroll, .change, x: 790, y: 590, delta: 300))) }
        script += Flick(from: ViewPoint(x: 700, y: 500), velocity: (-7000, -3000), duration: 0.06, clientStart: 9000, hubStart: 9.5)
            .script(sampledAt: Flick.regular(60, until: 0.06))

        var ticks = 0
        var sawTiltLimit = false
        var sawZoomLimit = false
        var sawBounds = false
        rig.run(script, tickRate: 60, until: 13) { m in
            expectWithin(limits, m.camera)
            ticks += 1
            if m.camera.zoom == 14 { sawZoomLimit = true }
            if m.camera.zoom > 13, m.camera.tilt == limits.maxTilt(atZoom: m.camera.zoom), m.camera.tilt > 0 { sawTiltLimit = true }
            if m.camera.latitude == 52 || m.camera.longitude == -5 || m.camera.latitude == 40 || m.camera.longitude == 10 { sawBounds = true }
        }
        #expect(ticks > 700)
        #expect(sawZoomLimit && sawTiltLimit && sawBounds)  // the script really pushed against each limit
    }
}
