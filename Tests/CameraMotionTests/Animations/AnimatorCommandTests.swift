import CameraCore
import Foundation
import Testing

@testable import CameraMotion

@Suite("Animator manager: commands")
struct AnimatorCommandTests {
    let start = Camera(latitude: 10, longitude: 20, zoom: 5)

    @Test("set jumps at once and reports the change")
    func setJumps() throws {
        var m = AnimatorManager(camera: start)
        let result = m.set(CameraUpdate(zoom: 7, bearing: 45), owner: driver, at: 1)
        #expect(result.isSuccess)
        #expect(m.camera.zoom == 7 && m.camera.bearing == 45)
        #expect(m.revision == 1)
        let events = m.takeEvents()
        #expect(events.contains(.changed(camera: m.camera, by: "d1", time: 1)))
    }

    @Test("a set that changes nothing produces no change event")
    func setNoChange() {
        var m = AnimatorManager(camera: start)
        _ = m.set(CameraUpdate(zoom: 5), owner: driver, at: 1)
        #expect(m.revision == 0)
        #expect(!m.takeEvents().contains { if case .changed = $0 { true } else { false } })
    }

    @Test("a set reports clamped fields")
    func setReportsClamps() throws {
        var m = AnimatorManager(camera: start)
        let result = try m.set(CameraUpdate(zoom: 40), owner: driver, at: 0).get()
        #expect(result.clamped == .zoom && m.camera.zoom == 22)
    }

    @Test("bad input is refused naming the field and changes nothing")
    func badInputRefused() {
        var m = AnimatorManager(camera: start)
        let error = m.ease(EaseRequest(update: CameraUpdate(zoom: .nan)), owner: driver, at: 0).failureValue
        #expect(error?.code == .badInput && error?.message.hasPrefix("zoom:") == true)
        let negative = m.ease(EaseRequest(update: CameraUpdate(zoom: 3), duration: -1), owner: driver, at: 0).failureValue
        #expect(negative?.message.hasPrefix("duration:") == true)
        let around = m.ease(EaseRequest(update: CameraUpdate(latitude: 1, zoom: 3), around: ViewPoint(x: 1, y: 1)), owner: driver, at: 0).failureValue
        #expect(around?.message.hasPrefix("around:") == true)
        #expect(m.camera == start && !m.isMoving)
    }

    @Test("ease reaches its target exactly and reports started then finished")
    func easeFinishesExactly() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(latitude: 11.123456789, longitude: 21.5, zoom: 6.25), duration: 2), id: "e1", owner: driver, at: 0)
        for t in stride(from: 0.0, through: 2.5, by: 1.0 / 60) { m.advance(to: t) }
        #expect(m.camera.latitude == 11.123456789 && m.camera.longitude == 21.5 && m.camera.zoom == 6.25)
        let reports = m.takeReports()
        #expect(reports.map(\.status) == [.started, .finished])
        #expect(reports.last?.time == 2 && reports.last?.camera == m.camera && reports.last?.id == "e1")
    }

    @Test("an ease ends exactly on its target whatever its start time (end − start ≠ duration in floating point)")
    func easeFinishesExactlyFromAnyStartTime() {
        var inexact: [Double] = []
        for k in 0..<200 {
            let t0 = 0.001 + Double(k) * 0.0123457
            for duration in [0.5, 1, 1.5] {
                var m = AnimatorManager(camera: start, time: t0)
                let target = CameraUpdate(latitude: 48.8566, longitude: 2.3522, zoom: 12, tilt: 45, bearing: 30)
                _ = m.ease(EaseRequest(update: target, duration: duration), owner: driver, at: t0)
                m.advance(to: t0 + duration / 2)
                m.advance(to: t0 + duration + 0.02)
                let c = m.camera
                if !(c.latitude == 48.8566 && c.continuousLongitude == 2.3522 && c.zoom == 12 && c.tilt == 45 && c.bearing == 30) {
                    inexact.append(t0)
                }
                #expect(!m.isMoving)
            }
        }
        #expect(inexact.isEmpty, "\(inexact.count) eases ended off target, e.g. started at \(inexact.prefix(3))")
    }

    @Test("ease defaults to 1.5 s")
    func easeDefaultDuration() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 6)), owner: driver, at: 0)
        m.advance(to: 1.49)
        #expect(m.isMoving)
        m.advance(to: 1.5)
        #expect(!m.isMoving && m.camera.zoom == 6)
    }

    @Test("ease follows its timing curve")
    func easeFollowsCurve() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 9), duration: 1, curve: .easeIn), owner: driver, at: 0)
        m.advance(to: 0.5)
        #expect(abs(m.camera.zoom - (5 + 4 * TimingCurve.easeIn.progress(0.5))) < 1e-12)
    }

    /// Fraction of the way from `a` to `b` that `c`'s center has gone, in Mercator x.
    private func fractionX(_ a: Camera, _ b: Camera, _ c: Camera) -> Double {
        (WebMercator.unitX(longitude: c.longitude) - WebMercator.unitX(longitude: a.longitude))
            / (WebMercator.unitX(longitude: b.longitude) - WebMercator.unitX(longitude: a.longitude))
    }

    @Test("an ease that zooms in moves its center like MapLibre's easeTo: k·2^(1−k), ahead of a straight line")
    func easeZoomingInLeadsWithTheCenter() {
        let from = Camera(latitude: 0, longitude: 0, zoom: 2)
        let to = Camera(latitude: 0, longitude: 40, zoom: 6)  // final scale 16, capped at 2
        for k in [0.25, 0.5, 0.75] {
            var m = AnimatorManager(camera: from)
            _ = m.ease(EaseRequest(update: CameraUpdate(longitude: 40, zoom: 6), duration: 1, curve: .linear), owner: driver, at: 0)
            m.advance(to: k)
            #expect(abs(fractionX(from, to, m.camera) - k * pow(2, 1 - k)) < 1e-12, "k = \(k)")
            #expect(abs(m.camera.zoom - (2 + 4 * k)) < 1e-12)
        }
    }

    @Test("an ease that zooms out lags with the center (base ½), and one that keeps the zoom is a straight line")
    func easeZoomingOutLagsAndFlatIsLinear() {
        let from = Camera(latitude: 0, longitude: 0, zoom: 6)
        var out = AnimatorManager(camera: from)
        _ = out.ease(EaseRequest(update: CameraUpdate(longitude: 40, zoom: 5.5), duration: 1, curve: .linear), owner: driver, at: 0)
        out.advance(to: 0.5)
        let base = pow(2, -0.5)  // final scale 2^-0.5 is within ½…2
        #expect(abs(fractionX(from, Camera(latitude: 0, longitude: 40, zoom: 5.5), out.camera) - 0.5 * pow(base, 0.5)) < 1e-12)
        var flat = AnimatorManager(camera: from)
        _ = flat.ease(EaseRequest(update: CameraUpdate(longitude: 40), duration: 1, curve: .linear), owner: driver, at: 0)
        flat.advance(to: 0.5)
        #expect(abs(fractionX(from, Camera(latitude: 0, longitude: 40, zoom: 6), flat.camera) - 0.5) < 1e-12)
    }

    @Test("longitude goes the short way across the antimeridian")
    func shortWayLongitude() {
        var m = AnimatorManager(camera: Camera(latitude: 0, longitude: 179, zoom: 5))
        _ = m.ease(EaseRequest(update: CameraUpdate(longitude: -179), duration: 1, curve: .linear), owner: driver, at: 0)
        m.advance(to: 0.5)
        #expect(abs(m.camera.longitude - -180) < 1e-9)
        m.advance(to: 1)
        #expect(m.camera.longitude == -179)
    }

    @Test("bearing turns the short way: 350° → 10° passes through 0°")
    func shortWayBearing() {
        var m = AnimatorManager(camera: Camera(zoom: 3, bearing: 350))
        _ = m.ease(EaseRequest(update: CameraUpdate(bearing: 10), duration: 1, curve: .linear), owner: driver, at: 0)
        for step in 1..<20 {
            m.advance(to: Double(step) / 20)
            #expect(m.camera.bearing >= 350 || m.camera.bearing <= 10)
            if step == 10 { #expect(m.camera.bearing < 1e-9 || m.camera.bearing > 360 - 1e-9) }
        }
    }

    @Test("targets beyond the limits are clamped before the path is planned: no overshoot")
    func targetsClampedBeforePlanning() throws {
        var m = AnimatorManager(camera: start, limits: try CameraLimits(maxZoom: 10))
        let accepted = try m.ease(EaseRequest(update: CameraUpdate(zoom: 20), duration: 1, curve: .linear), owner: driver, at: 0).get()
        #expect(accepted.clamped == .zoom)
        m.advance(to: 0.5)
        #expect(abs(m.camera.zoom - 7.5) < 1e-12)  // halfway to 10, not to 20
        m.advance(to: 1)
        let finished = m.takeReports().last
        #expect(finished?.status == .finished && finished?.clamped == .zoom && m.camera.zoom == 10)
    }

    @Test("ease around a view point keeps the geo point under it")
    func easeAround() throws {
        let viewport = Viewport(width: 800, height: 600)
        let camera = Camera(latitude: 45, longitude: 7, zoom: 8, tilt: 30, bearing: 20)
        var m = AnimatorManager(camera: camera)
        let point = ViewPoint(x: 600, y: 200)
        let geo = try #require(ViewTransform(camera: camera, viewport: viewport).viewToGeo(point))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 10, tilt: 45, bearing: 60), duration: 1, around: point, viewport: viewport), owner: driver, at: 0)
        for t in [0.25, 0.5, 0.75, 1.0] {
            m.advance(to: t)
            let drawn = try #require(ViewTransform(camera: m.camera, viewport: viewport).geoToView(geo))
            #expect(abs(drawn.x - point.x) < 1e-6 && abs(drawn.y - point.y) < 1e-6)
        }
        #expect(m.camera.zoom == 10)
    }

    @Test("a zero duration animation jumps and finishes at once")
    func zeroDuration() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 0), id: "z", owner: driver, at: 3)
        #expect(m.camera.zoom == 8 && !m.isMoving)
        #expect(m.takeReports().map(\.status) == [.started, .finished])
    }

    @Test("an id already used by a live animation of the same owner is refused")
    func duplicateID() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8)), id: "a", owner: driver, at: 0)
        #expect(m.ease(EaseRequest(update: CameraUpdate(tilt: 8)), id: "a", owner: driver, at: 0).failureValue?.code == .badInput)
        #expect(m.ease(EaseRequest(update: CameraUpdate(tilt: 8)), id: "a", owner: driver2, at: 0).isSuccess)
    }

    @Test("cancel by id ends the animation where it is with status cancelled")
    func cancelByID() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 9), duration: 1, curve: .linear), id: "a", owner: driver, at: 0)
        _ = m.takeEvents()
        #expect(m.cancel(id: "a", owner: driver, at: 0.5).isSuccess)
        #expect(abs(m.camera.zoom - 7) < 1e-12 && !m.isMoving)
        let report = m.takeReports().first
        #expect(report?.status == .cancelled && report?.reason == "cancel" && report?.by == "d1")
        m.advance(to: 2)
        #expect(abs(m.camera.zoom - 7) < 1e-12)
    }

    @Test("cancel of an unknown or foreign id is unknown_animation")
    func cancelUnknown() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 9)), id: "a", owner: driver, at: 0)
        #expect(m.cancel(id: "nope", owner: driver, at: 0.1).failureValue?.code == .unknownAnimation)
        #expect(m.cancel(id: "a", owner: driver2, at: 0.1).failureValue?.code == .unknownAnimation)
        #expect(m.isMoving)
    }

    @Test("cancel all of an owner leaves the others running")
    func cancelOwn() {
        var m = AnimatorManager(camera: start)
        // Animators: two high-level eases could not run side by side.
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 9)), id: "a", owner: driver, at: 0)
        _ = m.animate(EaseRequest(update: CameraUpdate(tilt: 30)), id: "b", owner: driver2, at: 0)
        #expect(m.cancelAnimations(of: "d1", by: "d1", at: 0.2) == 1)
        #expect(m.animationIDs(of: "d2") == ["b"] && m.animationIDs(of: "d1").isEmpty)
        #expect(m.cancelAnimations(of: nil, by: "p1", at: 0.3) == 1)
        #expect(!m.isMoving)
    }

    @Test("changing limits re-clamps the camera at once")
    func limitsReclamp() throws {
        var m = AnimatorManager(camera: Camera(zoom: 15, tilt: 50))
        var change = CameraLimits.Change()
        change.maxZoom = .set(12)
        change.maxTilt = .set(20)
        let limits = try m.setLimits(change, by: "p1", at: 1).get()
        #expect(limits.maxZoom == 12 && m.camera.zoom == 12 && m.camera.tilt == 20)
        var bad = CameraLimits.Change()
        bad.minZoom = .set(13)
        #expect(m.setLimits(bad, by: "p1", at: 2).failureValue?.message.hasPrefix("minZoom:") == true)
        #expect(m.limits == limits)
    }
}
