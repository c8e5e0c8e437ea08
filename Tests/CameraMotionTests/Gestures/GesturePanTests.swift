import CameraCore
import Foundation
import Testing

@testable import CameraMotion

@Suite("Gestures: pan")
struct GesturePanTests {
    @Test(
        "the grabbed point stays under the finger through a pan (≤ 0.5 px)",
        arguments: [(0.0, 30.0), (45, 30), (45, 250)])
    func grabbedPointFollowsFinger(tilt: Double, bearing: Double) throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: tilt, bearing: bearing))
        let start = ViewPoint(x: 300, y: 450)
        let geo = try #require(rig.geo(at: start))
        _ = try rig.send(pan(.begin, start.x, start.y, t: 0), at: 0).get()
        for i in 1...40 {
            let p = ViewPoint(x: 300 + 9 * Double(i), y: 450 - 7 * Double(i) + 20 * sin(Double(i) / 5))
            #expect(try rig.send(pan(.change, p.x, p.y, t: Double(i) * 16), at: Double(i) * 0.016).get().effect == .following)
            #expect(pixelDistance(rig.view(of: geo), p) <= 0.5)
        }
        let last = ViewPoint(x: 660, y: 450 - 280 + 20 * sin(8.0))
        _ = try rig.send(pan(.end, last.x, last.y, t: 41 * 16), at: 41 * 0.016).get()
        #expect(pixelDistance(rig.view(of: geo), last) <= 0.5)
    }

    @Test(
        "rolled, elevated and steep, the grabbed point stays under the finger and the roll stays (≤ 0.5 px)",
        arguments: [(80.0, 25.0, 0.0), (70, -140, 1500), (30, 90, 400)])
    func grabbedPointFollowsFingerInThreeDimensions(tilt: Double, roll: Double, elevation: Double) throws {
        let camera = Camera(latitude: 46.5, longitude: 7.9, zoom: 13, tilt: tilt, bearing: 60, roll: roll, elevation: elevation, fov: 45)
        var rig = GestureRig(camera: camera, limits: try CameraLimits(maxTilt: 85))
        // Below the centre in the level picture: on the ground whatever the roll.
        let level = rig.transform
        let start = level.rolled(ViewPoint(x: 640, y: 560))
        let geo = try #require(rig.geo(at: start))
        _ = try rig.send(pan(.begin, start.x, start.y, t: 0), at: 0).get()
        for i in 1...20 {
            let p = level.rolled(ViewPoint(x: 640 - 6 * Double(i), y: 560 - 4 * Double(i)))
            _ = try rig.send(pan(.change, p.x, p.y, t: Double(i) * 16), at: Double(i) * 0.016).get()
            #expect(pixelDistance(rig.view(of: geo), p) <= 0.5)
        }
        #expect(rig.manager.camera.differences(from: camera) == .center, "roll, tilt, elevation and fov are untouched")
    }

    @Test("panning moves only the center")
    func panMovesOnlyCenter() throws {
        let camera = Camera(latitude: 10, longitude: 20, zoom: 9, tilt: 30, bearing: 40)
        var rig = GestureRig(camera: camera)
        _ = try rig.send(pan(.begin, 400, 300, t: 0), at: 0).get()
        _ = try rig.send(pan(.change, 250, 420, t: 100), at: 0.1).get()
        #expect(rig.manager.camera.differences(from: camera) == .center)
    }

    @Test("a pan across the antimeridian keeps the longitude continuous")
    func antimeridian() throws {
        var rig = GestureRig(camera: Camera(latitude: 0, longitude: 179.99, zoom: 12))
        _ = try rig.send(pan(.begin, 600, 300, t: 0), at: 0).get()
        _ = try rig.send(pan(.change, 100, 300, t: 100), at: 0.1).get()  // 500 px east at zoom 12 ≈ 0.086°
        #expect(rig.manager.camera.continuousLongitude > 180)
        #expect(abs(rig.manager.camera.continuousLongitude - (179.99 + 500 / (512 * exp2(12)) * 360)) < 1e-9)
    }

    @Test("a pan that begins in the sky grabs the ground once the finger reaches it")
    func beginsAboveHorizon() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 80), limits: try CameraLimits(maxTilt: 85))
        let horizon = try #require(rig.transform.horizonY)
        #expect(horizon > 100 && horizon < 200)
        let before = rig.manager.camera
        _ = try rig.send(pan(.begin, 400, 100, t: 0), at: 0).get()
        _ = try rig.send(pan(.change, 400, 80, t: 16), at: 0.016).get()
        #expect(rig.manager.camera == before)  // nothing under the finger yet
        let ground = ViewPoint(x: 400, y: 400)
        let geo = try #require(rig.geo(at: ground))
        _ = try rig.send(pan(.change, ground.x, ground.y, t: 32), at: 0.032).get()
        let moved = ViewPoint(x: 380, y: 470)
        _ = try rig.send(pan(.change, moved.x, moved.y, t: 48), at: 0.048).get()
        #expect(pixelDistance(rig.view(of: geo), moved) <= 0.5)
    }

    @Test("a pan cancel leaves the camera where it is, without momentum")
    func cancelStopsWithoutMomentum() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300, t: 0), at: 0).get()
        for i in 1...10 { _ = try rig.send(pan(.change, 400 + 20 * Double(i), 300, t: Double(i) * 10), at: Double(i) * 0.01).get() }
        let camera = rig.manager.camera
        let outcome = try rig.send(pan(.cancel, t: 105), at: 0.105).get()
        #expect(outcome.effect == .ended(momentum: nil))
        rig.manager.advance(to: 3)
        #expect(rig.manager.camera == camera && rig.engine.activeGestures(of: "d1").isEmpty)
    }
}

@Suite("Gestures: pan momentum")
struct GestureMomentumTests {
    /// Momentum reports, the camera at release and at rest.
    func fling(
        _ flick: Flick, sampledAt times: [Double], camera: Camera = Camera(latitude: 48.85, longitude: 2.35, zoom: 12),
        limits: CameraLimits = CameraLimits(), tickRate: Double = 60
    ) -> (started: AnimationReport?, finished: AnimationReport?) {
        var rig = GestureRig(camera: camera, limits: limits)
        rig.manager.advance(to: flick.hubStart - 1)
        let reports = rig.run(flick.script(sampledAt: times), tickRate: tickRate, until: flick.hubStart + flick.duration + 4)
        let momentum = reports.filter { $0.id == GestureEngine.momentumID }
        return (momentum.first { $0.status == .started }, momentum.first { $0.status == .finished })
    }

    @Test("momentum carries on in the release direction, decelerating smoothly to a stop, MapLibre's distance and duration")
    func decelerates() throws {
        var rig = GestureRig()
        let flick = Flick(velocity: (2000, 0), duration: 0.2)
        let script = flick.script(sampledAt: Flick.regular(60, until: flick.duration))
        for (when, input) in script.dropLast() { _ = try rig.send(input, at: when).get() }
        let release = flick.position(flick.duration)
        let outcome = try rig.send(script.last!.1, at: script.last!.0).get()
        #expect(outcome.momentum == GestureEngine.momentumID)
        let geo = try #require(rig.geo(at: release))  // momentum starts from here
        // speed 2000 · 0.3 = 600 px/s → 600 / 750 = 0.8 s, 600 · 0.8 / 2 = 240 px.
        var previous = release.x
        var previousStep = Double.infinity
        for i in 1...80 {
            rig.manager.advance(to: script.last!.0 + Double(i) * 0.01)
            let p = try #require(rig.view(of: geo))
            let step = p.x - previous
            #expect(step >= 0 && step <= previousStep + 1e-9)  // forward, never faster
            #expect(abs(p.y - release.y) < 1e-6)
            previous = p.x
            previousStep = step
        }
        #expect(abs(previous - (release.x + 240)) < 1e-6)
        let reports = rig.manager.takeReports().filter { $0.id == GestureEngine.momentumID }
        #expect(reports.map(\.status) == [.started, .finished])
        #expect(abs(reports[1].time - reports[0].time - 0.8) < 1e-9)
    }

    @Test("momentum is the same at 10 Hz and 240 Hz ticks")
    func tickRateIndependent() throws {
        let flick = Flick(velocity: (900, 1100), deceleration: 800, duration: 0.35)
        let times = Flick.regular(90, until: flick.duration)
        let slow = fling(flick, sampledAt: times, tickRate: 10)
        let fast = fling(flick, sampledAt: times, tickRate: 240)
        let odd = fling(flick, sampledAt: times, tickRate: 37.3)
        let (s, f, o) = (try #require(slow.finished), try #require(fast.finished), try #require(odd.finished))
        #expect(s.time == f.time && o.time == f.time)
        expectClose(s.camera, f.camera, 1e-12)
        expectClose(o.camera, f.camera, 1e-12)
        #expect(slow.started?.camera == fast.started?.camera)
    }

    @Test("momentum distance and duration do not depend on the input sample rate (60 Hz, 120 Hz, irregular)")
    func sampleRateIndependent() throws {
        let flick = Flick(velocity: (1500, -900), deceleration: 1000, duration: 0.337)
        var rng = SplitMix(seed: 7)
        var irregular: [Double] = []
        var tau = 0.0
        while true {
            tau += rng.next(in: 0.004...0.025)
            if tau >= flick.duration { break }
            irregular.append(tau)
        }
        var results: [(distance: Double, duration: Double)] = []
        for times in [Flick.regular(60, until: flick.duration), Flick.regular(120, until: flick.duration), irregular] {
            let run = fling(flick, sampledAt: times)
            let (started, finished) = (try #require(run.started), try #require(run.finished))
            results.append((worldDistance(started.camera, finished.camera), finished.time - started.time))
        }
        let reference = results[1]
        #expect(reference.distance > 100 && reference.duration > 0.5)
        for r in results {
            #expect(abs(r.distance / reference.distance - 1) < 0.001, "\(r) vs \(reference)")
            #expect(abs(r.duration / reference.duration - 1) < 0.0005, "\(r) vs \(reference)")
        }
    }

    @Test("a steady finger gives exactly its own velocity, however it was sampled")
    func steadyFingerExact() throws {
        let flick = Flick(velocity: (700, 400), duration: 0.3)
        var rng = SplitMix(seed: 3)
        var irregular: [Double] = []
        var tau = 0.0
        while true {
            tau += rng.next(in: 0.003...0.04)
            if tau >= flick.duration { break }
            irregular.append(tau)
        }
        let a = fling(flick, sampledAt: Flick.regular(60, until: flick.duration))
        let b = fling(flick, sampledAt: irregular)
        let (fa, fb) = (try #require(a.finished), try #require(b.finished))
        expectClose(fa.camera, fb.camera, 1e-9)
        // |v| = 806.2 px/s → speed 241.9 px/s → 0.3225 s.
        #expect(abs(fa.time - a.started!.time - hypot(700, 400) * 0.3 / 750) < 1e-9)
    }

    @Test("no momentum when the finger stopped more than 50 ms before lifting")
    func pauseBeforeLiftStopsMomentum() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 300, 300, t: 1000), at: 1).get()
        for i in 1...18 { _ = try rig.send(pan(.change, 300 + 15 * Double(i), 300, t: 1000 + Double(i) * 16), at: 1 + Double(i) * 0.016).get() }
        // The finger rests at x = 570 from t = 1288 and lifts at 1340 (52 ms later).
        let outcome = try rig.send(pan(.end, 570, 300, t: 1340), at: 1.34).get()
        #expect(outcome.effect == .ended(momentum: nil))
        let camera = rig.manager.camera
        rig.manager.advance(to: 4)
        #expect(rig.manager.camera == camera)
    }

    @Test("momentum starts when the finger last moved under 50 ms before lifting")
    func shortPauseKeepsMomentum() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 300, 300, t: 1000), at: 1).get()
        for i in 1...18 { _ = try rig.send(pan(.change, 300 + 15 * Double(i), 300, t: 1000 + Double(i) * 16), at: 1 + Double(i) * 0.016).get() }
        #expect(try rig.send(pan(.end, 570, 300, t: 1330), at: 1.33).get().momentum == GestureEngine.momentumID)
    }

    @Test("momentum speed is capped at 1400 px/s: at most 1307 px over 1.87 s")
    func speedCapped() throws {
        let flick = Flick(velocity: (0, 20000), duration: 0.05)
        let run = fling(flick, sampledAt: Flick.regular(120, until: flick.duration))
        let (started, finished) = (try #require(run.started), try #require(run.finished))
        #expect(abs(finished.time - started.time - 1400.0 / 750) < 1e-9)
        #expect(abs(worldDistance(started.camera, finished.camera) - 1400 * 1400 / 1500) < 1e-6)
    }

    @Test("when tilted, momentum never carries the grabbed point to or beyond the horizon")
    func horizonLimit() throws {
        let limits = try CameraLimits(maxTilt: 85)
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 75), limits: limits)
        let horizon = try #require(rig.transform.horizonY)
        let line = 300 - (300 - horizon) * 0.85
        let flick = Flick(from: ViewPoint(x: 400, y: 500), velocity: (300, -6000), duration: 0.04)
        let script = flick.script(sampledAt: Flick.regular(120, until: flick.duration))
        for (when, input) in script.dropLast() { _ = try rig.send(input, at: when).get() }
        let release = flick.position(flick.duration)
        #expect(try rig.send(script.last!.1, at: script.last!.0).get().momentum != nil)
        let geo = try #require(rig.geo(at: release))
        var y = release.y
        for i in 1...300 {
            rig.manager.advance(to: script.last!.0 + Double(i) / 100)
            let p = try #require(rig.view(of: geo))
            #expect(p.y > horizon && p.y >= line - 1e-6 && p.y <= y + 1e-9)
            y = p.y
        }
        #expect(abs(y - line) < 1e-6)  // it glides up to the limit, not past it
        #expect(!rig.manager.isMoving)
    }

    @Test("at low zoom momentum travels less than half the world, the way it was thrown")
    func travelCappedAtLowZoom() throws {
        var rig = GestureRig(camera: Camera(latitude: 0, longitude: 0, zoom: 0.5))
        let flick = Flick(from: ViewPoint(x: 100, y: 300), velocity: (8000, 0), duration: 0.05)
        var longitude = 0.0
        rig.run(flick.script(sampledAt: Flick.regular(120, until: flick.duration)), tickRate: 60, until: 14) { m in
            #expect(m.camera.continuousLongitude <= longitude + 1e-9)  // dragging right moves the view west, only west
            longitude = m.camera.continuousLongitude
        }
        let dragged = 0.05 * 8000 / (512 * exp2(0.5)) * 360
        let glided = -longitude - dragged
        #expect(glided > 150 && glided < 0.45 * 360)
    }

    @Test("a new touch-down stops momentum where it is (cancelled, reason gesture)")
    func touchDownStopsMomentum() throws {
        var rig = GestureRig()
        let flick = Flick(velocity: (1500, 0), duration: 0.2)
        let script = flick.script(sampledAt: Flick.regular(60, until: flick.duration))
        for (when, input) in script { _ = try rig.send(input, at: when).get() }
        rig.manager.advance(to: 10.3)
        _ = rig.manager.takeEvents()
        let camera = rig.manager.camera
        _ = try rig.send(pan(.begin, 500, 300, t: 5400), at: 10.35).get()
        let report = rig.manager.takeReports().first { $0.id == GestureEngine.momentumID }
        #expect(report?.status == .cancelled && report?.reason == "gesture" && report?.by == "d1")
        #expect(rig.manager.camera != camera)  // it had moved on until the touch
        let stopped = rig.manager.camera
        rig.manager.advance(to: 12)
        #expect(rig.manager.camera == stopped)
    }

    @Test("momentum is an ordinary animation: a higher rank's command supersedes it")
    func momentumObeysConflicts() throws {
        var rig = GestureRig()
        let flick = Flick(velocity: (1500, 0), duration: 0.2)
        for (when, input) in flick.script(sampledAt: Flick.regular(60, until: flick.duration)) { _ = try rig.send(input, at: when).get() }
        #expect(rig.manager.animationIDs(of: "d1") == [GestureEngine.momentumID])
        _ = try rig.manager.set(CameraUpdate(latitude: 1, longitude: 1), owner: presenter, at: 10.3).get()
        #expect(rig.manager.takeReports().contains { $0.id == GestureEngine.momentumID && $0.status == .superseded && $0.by == "p1" })
        rig.manager.advance(to: 12)
        #expect(rig.manager.camera.latitude == 1 && rig.manager.camera.longitude == 1)
    }
}
