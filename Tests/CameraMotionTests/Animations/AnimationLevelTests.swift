import CameraCore
import Testing

@testable import CameraMotion

/// High-level animations (ease, fly; set ends them)
/// run one at a time as in Mapbox and TomTom; low-level animators keep the
/// per-property rule; partial losses are reported when they happen; animators
/// may start from given values.
@Suite("Animator manager: high-level and low-level animations")
struct AnimationLevelTests {
    let start = Camera(latitude: 0, longitude: 0, zoom: 4)

    func reports(_ m: inout AnimatorManager, id: String) -> [AnimationReport] {
        m.takeReports().filter { $0.id == id }
    }

    @Test("a new ease ends a running fly as a whole, even on a property the fly does not use")
    func easeEndsFly() {
        var m = AnimatorManager(camera: start)
        _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 30, longitude: 40, zoom: 6), duration: 4), id: "f", owner: driver, at: 0)
        m.advance(to: 1.5)
        let atTakeOver = m.camera
        _ = m.takeEvents()
        #expect(m.ease(EaseRequest(update: CameraUpdate(bearing: 90), duration: 1), id: "e", owner: driver2, at: 1.5).isSuccess)
        let events = m.takeReports()
        let fly = events.first { $0.id == "f" }
        #expect(fly?.status == .superseded && fly?.by == "d2" && fly?.reason == "highLevel")
        #expect(fly?.lost == [.center, .zoom], "lost names everything the fly animated")
        #expect(fly?.camera == atTakeOver, "the camera where the fly stood")
        #expect(events.last?.id == "e" && events.last?.status == .started)
        m.advance(to: 4)
        #expect(m.camera.target == atTakeOver.target && m.camera.zoom == atTakeOver.zoom, "the fly moved nothing after it ended")
        #expect(m.camera.bearing == 90)
        #expect(m.animationIDs(of: "d1").isEmpty)
    }

    @Test("a set on another property ends the running ease; a fly ends its own owner's ease too")
    func setAndFlyEndEase() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 2), id: "e", owner: driver, at: 0)
        #expect(m.set(CameraUpdate(tilt: 20), owner: driver2, at: 0.5).isSuccess)
        let e = reports(&m, id: "e").last
        #expect(e?.status == .superseded && e?.lost == .zoom && e?.by == "d2")
        let zoom = m.camera.zoom
        m.advance(to: 3)
        #expect(m.camera.zoom == zoom && m.camera.tilt == 20)

        _ = m.ease(EaseRequest(update: CameraUpdate(tilt: 0), duration: 2), id: "e2", owner: driver, at: 3)
        _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 10, longitude: 10), duration: 2), id: "f2", owner: driver, at: 3.5)
        #expect(reports(&m, id: "e2").last?.status == .superseded)
        #expect(m.animationIDs(of: "d1") == ["f2"])
    }

    @Test("animators on different properties run side by side, and beside a high-level animation")
    func animatorsRunSideBySide() {
        var m = AnimatorManager(camera: start)
        _ = m.animate(EaseRequest(update: CameraUpdate(bearing: 90), duration: 2, curve: .linear), id: "b", owner: driver, at: 0)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 6), duration: 2, curve: .linear), id: "z", owner: driver2, at: 0.5)
        _ = m.ease(EaseRequest(update: CameraUpdate(latitude: 5, longitude: 5), duration: 1), id: "e", owner: driver, at: 0.6)
        m.advance(to: 3)
        let all = m.takeReports()
        for id in ["b", "z", "e"] {
            #expect(all.filter { $0.id == id }.map(\.status) == [.started, .finished], "\(id)")
        }
        #expect(m.camera.bearing == 90 && m.camera.zoom == 6 && abs(m.camera.latitude - 5) < 1e-9)
    }

    @Test("an animator on the same property as another cancels only that property (Mapbox: one animator per property)")
    func animatorSameProperty() {
        var m = AnimatorManager(camera: start)
        _ = m.animate(EaseRequest(update: CameraUpdate(bearing: 90), duration: 2), id: "b1", owner: driver, at: 0)
        _ = m.animate(EaseRequest(update: CameraUpdate(bearing: 180), duration: 1), id: "b2", owner: driver, at: 1)
        let b1 = reports(&m, id: "b1").last
        #expect(b1?.status == .superseded && b1?.lost == .bearing)
    }

    @Test("a lower rank cannot end a higher rank's high-level animation, whatever it changes; an animator on a free property may run")
    func ranks() {
        var m = AnimatorManager(camera: start)
        _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 30, longitude: 40), duration: 4), id: "tour", owner: presenter, at: 0)
        let ease = m.ease(EaseRequest(update: CameraUpdate(bearing: 45)), id: "e", owner: driver, at: 1).failureValue
        #expect(ease?.code == .conflict && ease?.holder == "p1")
        #expect(ease?.message.contains("'tour'") == true && ease?.message.contains("high-level") == true)
        #expect(m.set(CameraUpdate(tilt: 10), owner: driver, at: 1).failureValue?.code == .conflict)
        #expect(m.fly(FlyRequest(update: CameraUpdate(zoom: 2)), owner: driver, at: 1).failureValue?.code == .conflict)
        #expect(m.animate(EaseRequest(update: CameraUpdate(bearing: 45), duration: 0.5), id: "a", owner: driver, at: 1).isSuccess)
        #expect(m.animationIDs(of: "p1") == ["tour"])
        #expect(!m.takeReports().contains { $0.id == "tour" && $0.status != .started })
        // The other way round: the presenter's ease ends a driver's fly.
        var n = AnimatorManager(camera: start)
        _ = n.fly(FlyRequest(update: CameraUpdate(latitude: 30, longitude: 40), duration: 4), id: "f", owner: driver, at: 0)
        #expect(n.ease(EaseRequest(update: CameraUpdate(tilt: 30)), owner: presenter, at: 1).isSuccess)
        let f = reports(&n, id: "f").last
        #expect(f?.status == .superseded && f?.by == "p1")
    }

    @Test("a delayed high-level ease ends the running one when it starts, or is cancelled if a higher rank's runs then")
    func delayedHighLevel() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(tilt: 30), delay: 1), id: "later", owner: driver, at: 0)
        _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 10, longitude: 10), duration: 3), id: "f", owner: driver2, at: 0.5)
        m.advance(to: 1.2)
        let all = m.takeReports()
        let fly = all.last { $0.id == "f" }
        #expect(fly?.status == .superseded && fly?.time == 1 && fly?.by == "d1")
        #expect(all.contains { $0.id == "later" && $0.status == .started && $0.time == 1 })

        var n = AnimatorManager(camera: start)
        _ = n.ease(EaseRequest(update: CameraUpdate(tilt: 30), delay: 1), id: "later", owner: driver, at: 0)
        _ = n.fly(FlyRequest(update: CameraUpdate(latitude: 10, longitude: 10), duration: 3), id: "p", owner: presenter, at: 0.5)
        n.advance(to: 1.2)
        let later = reports(&n, id: "later")
        #expect(later.map(\.status) == [.cancelled] && later.first?.reason == "conflict" && later.first?.by == "p1")
        #expect(n.animationIDs(of: "p1") == ["p"])
    }

    // MARK: Item 2: completion when it happens

    @Test("an animation losing some properties is told at that moment, with what it lost, who took it and the camera then")
    func interruptedAtThatMoment() {
        var m = AnimatorManager(camera: start)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 8, bearing: 90), duration: 2, curve: .linear), id: "a", owner: driver, at: 0)
        m.advance(to: 0.5)
        let atTakeOver = m.camera
        _ = m.takeEvents()
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 2), duration: 1), id: "z", owner: driver2, at: 0.5)
        let now = reports(&m, id: "a")
        #expect(now.count == 1)
        let interrupted = now.first
        #expect(interrupted?.status == .interrupted && interrupted?.lost == .zoom && interrupted?.by == "d2")
        #expect(interrupted?.camera == atTakeOver && interrupted?.time == 0.5)
        m.advance(to: 1)
        _ = m.animate(EaseRequest(update: CameraUpdate(tilt: 10), duration: 1), id: "t", owner: driver2, at: 1)
        #expect(reports(&m, id: "a").isEmpty, "a claim on a property it does not hold changes nothing for it")
        m.advance(to: 2.5)
        let end = reports(&m, id: "a")
        #expect(end.map(\.status) == [.finished] && end.first?.lost == .zoom)
        #expect(m.camera.bearing == 90 && m.camera.zoom == 2)
    }

    @Test("losing a property to a gesture: an animator is interrupted and runs on; a high-level ease is cancelled")
    func gestureTakesAProperty() throws {
        var m = AnimatorManager(camera: start)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 8, bearing: 90), duration: 2), id: "a", owner: driver, at: 0)
        m.advance(to: 0.5)
        let camera = m.camera
        _ = m.takeEvents()
        let handle = try m.beginInteraction("tilt", claims: [.zoom, .tilt], owner: driver2, at: 0.5).get()
        let a = reports(&m, id: "a")
        #expect(a.map(\.status) == [.interrupted] && a.first?.lost == .zoom && a.first?.reason == "gesture" && a.first?.camera == camera)
        m.endInteraction(handle, at: 0.6)
        m.advance(to: 2.5)
        #expect(reports(&m, id: "a").map(\.status) == [.finished])
        #expect(m.camera.bearing == 90)

        var n = AnimatorManager(camera: start)
        _ = n.ease(EaseRequest(update: CameraUpdate(zoom: 8, bearing: 90), duration: 2), id: "e", owner: driver, at: 0)
        _ = try n.beginInteraction("tilt", claims: [.zoom, .tilt], owner: driver2, at: 0.5).get()
        let e = reports(&n, id: "e")
        #expect(e.last?.status == .cancelled && e.last?.reason == "gesture")
    }

    @Test("cancelled and superseded reports carry the camera where it stood")
    func endsCarryTheCamera() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 2), id: "e", owner: driver, at: 0)
        m.advance(to: 0.7)
        let atCancel = m.camera
        _ = m.cancel(id: "e", owner: driver, at: 0.7)
        let cancelled = reports(&m, id: "e").last
        #expect(cancelled?.status == .cancelled && cancelled?.camera == atCancel)
        #expect(atCancel.zoom > 4 && atCancel.zoom < 8)
    }

    // MARK: Item 7: from values

    @Test("an animator with from jumps the named properties to from at its start, then animates to the target")
    func fromValues() throws {
        var m = AnimatorManager(camera: Camera(zoom: 4, bearing: 90))
        _ = try m.animate(
            EaseRequest(update: CameraUpdate(bearing: 20), duration: 1, curve: .linear, from: CameraUpdate(bearing: 10)),
            id: "a", owner: driver, at: 2
        ).get()
        #expect(m.camera.bearing == 10 && m.camera.zoom == 4)
        #expect(m.takeReports().first { $0.status == .started }?.camera.bearing == 10, "started reports where it starts from")
        m.advance(to: 2.5)
        #expect(abs(m.camera.bearing - 15) < 1e-9)
        m.advance(to: 3)
        #expect(m.camera.bearing == 20)
    }

    @Test("a delayed animator jumps to from when it starts, not when it is sent")
    func fromWhenDelayed() {
        var m = AnimatorManager(camera: Camera(zoom: 4))
        _ = m.animate(
            EaseRequest(update: CameraUpdate(zoom: 8), duration: 1, curve: .linear, delay: 1, from: CameraUpdate(zoom: 2)),
            id: "a", owner: driver, at: 0)
        m.advance(to: 0.9)
        #expect(m.camera.zoom == 4)
        m.advance(to: 1.5)
        #expect(abs(m.camera.zoom - 5) < 1e-9, "from 2 at 1 s, half way to 8 at 1.5 s")
    }

    @Test("from values are checked like targets, name the field, and may name only animated fields")
    func fromValidated() {
        var m = AnimatorManager(camera: start)
        let nan = m.animate(EaseRequest(update: CameraUpdate(zoom: 3), from: CameraUpdate(zoom: .nan)), owner: driver, at: 0).failureValue
        #expect(nan?.code == .badInput && nan?.message.hasPrefix("from.zoom:") == true)
        let lat = m.animate(EaseRequest(update: CameraUpdate(latitude: 3), from: CameraUpdate(latitude: 95)), owner: driver, at: 0).failureValue
        #expect(lat?.message.hasPrefix("from.lat:") == true)
        let extra = m.animate(EaseRequest(update: CameraUpdate(zoom: 3), from: CameraUpdate(bearing: 10)), owner: driver, at: 0).failureValue
        #expect(extra?.code == .badInput && extra?.message.hasPrefix("from.bearing:") == true)
        let ease = m.ease(EaseRequest(update: CameraUpdate(zoom: 3), from: CameraUpdate(zoom: 1)), owner: driver, at: 0).failureValue
        #expect(ease?.message.hasPrefix("from:") == true)
        #expect(!m.isMoving && m.camera == start)
    }
}
