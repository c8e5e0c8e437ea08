import CameraCore
import Foundation
import Testing

@testable import CameraMotion

/// Sends `input` to a rig (after `setup`) and checks it is refused as bad
/// input with `message`, changing neither the camera nor the engine's state.
private func expectBad(
    _ input: GestureInput, _ message: String, setup: [GestureInput] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 20, bearing: 30))
    for (i, step) in setup.enumerated() {
        #expect(rig.send(step, at: Double(i) * 0.01).isSuccess, "setup \(step.label)", sourceLocation: sourceLocation)
    }
    let camera = rig.manager.camera
    let gestures = rig.engine.activeGestures(of: "d1")
    let error = rig.send(input, at: 1).failureValue
    #expect(error?.code == .badInput, sourceLocation: sourceLocation)
    #expect(error?.message == message, "got \(String(describing: error?.message))", sourceLocation: sourceLocation)
    rig.manager.advance(to: 3)
    #expect(rig.manager.camera == camera, sourceLocation: sourceLocation)
    #expect(rig.engine.activeGestures(of: "d1") == gestures, sourceLocation: sourceLocation)
}

@Suite("Gestures: bad input and nonsense sequences")
struct GestureInputTests {
    @Test(
        "a change without begin is refused",
        arguments: [
            GestureInput(.pan, .change, x: 1, y: 2), GestureInput(.pinch, .change, x: 1, y: 2, scale: 2),
            GestureInput(.tilt, .change, dy: 3), GestureInput(.rotate, .change, rotation: 4),
        ])
    func changeWithoutBegin(input: GestureInput) {
        expectBad(input, "\(input.kind.rawValue) change without begin")
    }

    @Test("an end without begin is refused")
    func endWithoutBegin() {
        expectBad(pan(.end, 1, 2), "pan end without begin")
    }

    @Test("a cancel without begin is refused")
    func cancelWithoutBegin() {
        expectBad(GestureInput(.pinch, .cancel), "pinch cancel without begin")
    }

    @Test("a second end is refused")
    func endTwice() {
        expectBad(pan(.end, 1, 2), "pan end without begin", setup: [pan(.begin, 1, 2), pan(.end, 1, 2)])
    }

    @Test("a second pan begin while the client's pan is active is refused; the first goes on")
    func secondBegin() throws {
        expectBad(pan(.begin, 50, 50), "pan begin while this client's pan is active", setup: [pan(.begin, 1, 2)])
        var rig = GestureRig()
        let geo = try #require(rig.geo(at: ViewPoint(x: 400, y: 300)))
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        _ = rig.send(pan(.begin, 50, 50), at: 0.1)
        _ = try rig.send(pan(.change, 300, 200), at: 0.2).get()
        #expect(pixelDistance(rig.view(of: geo), ViewPoint(x: 300, y: 200)) <= 0.5)
    }

    @Test(
        "missing required fields are refused, naming them",
        arguments: [
            (pan(.begin), "pan begin: x and y are required"),
            (pan(.change), "pan change: x and y are required"),
            (GestureInput(.pinch, .begin, scale: 1), "pinch begin: x and y are required"),
            (GestureInput(.pinch, .change, x: 1, y: 2), "pinch change: scale is required"),
            (GestureInput(.tilt, .change, x: 1, y: 2), "tilt change: dy is required"),
            (GestureInput(.rotate, .change), "rotate change: rotation is required"),
            (GestureInput(.doubleTap), "doubleTap: x and y are required"),
            (GestureInput(.tap, .end), "tap end: x and y are required"),
            (GestureInput(.longPress), "longPress: x and y are required"),
            (GestureInput(.scroll, .change, x: 1, y: 2), "scroll change: delta is required"),
        ])
    func missingFields(input: GestureInput, message: String) {
        let setup: [GestureInput] = input.phase == .change ? [GestureInput(input.kind, .begin, x: 5, y: 5)] : []
        expectBad(input, message, setup: input.kind == .scroll ? [] : setup)
    }

    @Test(
        "non-finite numbers are refused, naming the field",
        arguments: [
            (pan(.begin, .nan, 2), "pan begin: x must be a finite number (got nan)"),
            (pan(.begin, 1, .infinity), "pan begin: y must be a finite number (got inf)"),
            (pan(.begin, 1, 2, t: .nan), "pan begin: t must be a finite number (got nan)"),
            (GestureInput(.pinch, .begin, x: 1, y: 2, scale: .infinity), "pinch begin: scale must be a finite number (got inf)"),
            (GestureInput(.pinch, .begin, x: 1, y: 2, rotation: .nan), "pinch begin: rotation must be a finite number (got nan)"),
            (GestureInput(.tilt, .begin, dy: -.infinity), "tilt begin: dy must be a finite number (got -inf)"),
            (GestureInput(.scroll, x: 1, y: 2, delta: .nan), "scroll: delta must be a finite number (got nan)"),
        ])
    func nonFinite(input: GestureInput, message: String) {
        expectBad(input, message)
    }

    @Test("x without y is refused")
    func xWithoutY() {
        expectBad(GestureInput(.twoFingerTap, x: 5), "twoFingerTap: x and y must be given together")
    }

    @Test("a pinch scale of 0 or below is refused")
    func scaleNotPositive() {
        expectBad(
            GestureInput(.pinch, .change, x: 1, y: 2, scale: 0), "pinch change: scale must be above 0 (got 0.0)",
            setup: [GestureInput(.pinch, .begin, x: 1, y: 2)])
    }

    @Test("a continuous gesture without a phase is refused")
    func phaseRequired() {
        expectBad(GestureInput(.pan, x: 1, y: 2), "pan: phase is required (begin, change, end or cancel)")
    }

    @Test("an instantaneous gesture with begin or cancel is refused", arguments: [GesturePhase.begin, .cancel])
    func instantaneousPhase(phase: GesturePhase) {
        expectBad(
            GestureInput(.doubleTap, phase, x: 1, y: 2),
            "doubleTap is instantaneous and has no \(phase.rawValue) (send it without a phase or as end)")
    }

    @Test("client time going backwards within a gesture is refused")
    func timeBackwards() {
        expectBad(
            pan(.change, 30, 30, t: 990), "pan change: t must not decrease within a gesture (got 990.0 after 1000.0)",
            setup: [pan(.begin, 1, 2, t: 1000)])
    }

    @Test("an invalid viewport is refused")
    func badViewport() {
        var rig = GestureRig()
        let client = GestureClient(owner: driver, viewport: Viewport(width: 0, height: 600))
        let error = rig.engine.handle(GestureInput(.doubleTap, x: 1, y: 2), client: client, manager: &rig.manager, at: 0).failureValue
        #expect(error?.code == .badInput && error?.message.hasPrefix("viewport: width") == true)
        #expect(!rig.manager.isMoving)
    }
}

@Suite("Gestures: robustness")
struct GestureRobustnessTests {
    @Test("absurdly distant but finite points never put a non-finite number in the camera")
    func hugeCoordinates() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 30, bearing: 10))
        _ = try rig.send(pan(.begin, 400, 300, t: 0), at: 0).get()
        _ = try rig.send(pan(.change, 1e300, -1e300, t: 10), at: 0.01).get()
        _ = try rig.send(pan(.end, 1e308, 1e308, t: 20), at: 0.02).get()
        _ = try rig.send(pinch(.begin, 1e300, 1e300), at: 0.1).get()
        _ = try rig.send(pinch(.change, -1e300, 1e300, scale: 1e-300, rotation: 1e300), at: 0.2).get()
        _ = try rig.send(pinch(.end), at: 0.3).get()
        let tap = try rig.send(GestureInput(.tap, x: 1e308, y: 1e308), at: 0.4).get()
        _ = try rig.send(GestureInput(.doubleTap, x: -1e308, y: 1e308), at: 0.5).get()
        rig.manager.advance(to: 3)
        let c = rig.manager.camera
        let values = [c.latitude, c.continuousLongitude, c.zoom, c.tilt, c.bearing]
        #expect(values.allSatisfy { $0.isFinite }, "\(c)")
        #expect(tap.event?.geo.map { $0.latitude.isFinite && $0.longitude.isFinite } ?? true)
    }

    @Test("a gesture begun without t is timed by the hub clock throughout (a later t is another clock)")
    func hubClockWhenBeginHasNoT() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 300, 300), at: 20).get()
        #expect(try rig.send(pan(.change, 350, 300, t: 3), at: 20.05).get().effect == .following)
        // 100 px in 0.1 s of hub time: 1000 px/s → 300 px/s momentum, 0.4 s.
        #expect(try rig.send(pan(.end, 400, 300, t: 5), at: 20.1).get().momentum == GestureEngine.momentumID)
        rig.manager.advance(to: 25)
        #expect(rig.manager.takeReports().last.map { abs($0.time - 20.5) < 1e-9 } == true)
    }
}
