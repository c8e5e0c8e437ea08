import CameraCore
import Testing

@testable import CameraMotion

@Suite("Animator manager: per-property conflicts")
struct ConflictTests {
    let start = Camera(latitude: 0, longitude: 0, zoom: 4)

    @Test("the newest animator takes only the claimed properties; the older keeps running on the rest")
    func partialSupersede() {
        var m = AnimatorManager(camera: start)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 8, tilt: 40), duration: 2, curve: .linear), id: "old", owner: driver, at: 0)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 2), duration: 1, curve: .linear), id: "new", owner: driver2, at: 1)
        m.advance(to: 2)
        #expect(m.camera.tilt == 40 && m.camera.zoom == 2)
        let finished = m.takeReports().filter { $0.status == .finished }
        #expect(finished.map(\.id).sorted() == ["new", "old"])
        #expect(finished.first { $0.id == "old" }?.lost == .zoom)
    }

    @Test("an animation that loses every property ends superseded, naming who took it")
    func fullSupersede() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 2), id: "old", owner: driver, at: 0)
        _ = m.takeEvents()
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 2), duration: 1), id: "new", owner: driver2, at: 1)
        let reports = m.takeReports()
        let old = reports.first { $0.id == "old" }
        #expect(old?.status == .superseded && old?.by == "d2" && old?.lost == .zoom)
        #expect(reports.contains { $0.id == "new" && $0.status == .started })
    }

    @Test("superseding mid-flight leaves no jump")
    func noJumpOnSupersede() {
        var m = AnimatorManager(camera: start)
        _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 30, longitude: 40, zoom: 6), duration: 4), id: "f", owner: driver, at: 0)
        m.advance(to: 1.7)
        let before = m.camera
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 3), duration: 1), owner: driver2, at: 1.7)
        #expect(m.camera == before)
        m.advance(to: 1.7 + 1e-6)
        expectClose(m.camera, before, 1e-5)
    }

    @Test("a fly's center and zoom are coupled: losing zoom to an animator loses center too")
    func flyCoupled() {
        var m = AnimatorManager(camera: start)
        _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 30, longitude: 40, zoom: 6, bearing: 90), duration: 4), id: "f", owner: driver, at: 0)
        _ = m.animate(EaseRequest(update: CameraUpdate(zoom: 3), duration: 0.5), owner: driver2, at: 1)
        let center = m.camera.target
        m.advance(to: 4)
        #expect(m.camera.target == center)  // frozen where the fly left it
        #expect(m.camera.bearing == 90)  // the fly kept its bearing
        let fly = m.takeReports().first { $0.id == "f" && $0.status == .finished }
        #expect(fly?.lost == [.center, .zoom])
    }

    @Test("a lower rank's claim on a property held by a higher rank's animation is refused, naming property and holder")
    func lowerRankRefused() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 2), id: "p", owner: presenter, at: 0)
        m.advance(to: 0.5)
        let before = m.camera
        let error = m.ease(EaseRequest(update: CameraUpdate(zoom: 3, tilt: 10)), owner: driver, at: 0.5).failureValue
        #expect(error?.code == .conflict && error?.property == .zoom && error?.holder == "p1")
        #expect(error?.message.contains("zoom") == true && error?.message.contains("p1") == true)
        #expect(m.camera == before && m.animationIDs(of: "d1").isEmpty)
        #expect(m.set(CameraUpdate(zoom: 3), owner: driver, at: 0.6).failureValue?.code == .conflict)
        // A property the presenter does not hold is free for an animator; a
        // set or ease would end the presenter's high-level animation, which a driver may not.
        #expect(m.set(CameraUpdate(tilt: 10), owner: driver, at: 0.7).failureValue?.code == .conflict)
        #expect(m.animate(EaseRequest(update: CameraUpdate(tilt: 10), duration: 0), owner: driver, at: 0.7).isSuccess)
        #expect(m.camera.tilt == 10 && m.animationIDs(of: "p1") == ["p"])
    }

    @Test("a higher rank wins over a running lower-rank animation")
    func higherRankWins() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 2), id: "d", owner: driver, at: 0)
        #expect(m.ease(EaseRequest(update: CameraUpdate(zoom: 3)), owner: presenter, at: 0.5).isSuccess)
        #expect(m.takeReports().contains { $0.id == "d" && $0.status == .superseded && $0.by == "p1" })
    }

    @Test("equal rank: the newest claim wins")
    func equalRankWins() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 2), owner: driver, at: 0)
        #expect(m.ease(EaseRequest(update: CameraUpdate(zoom: 3)), owner: driver2, at: 0.5).isSuccess)
    }

    @Test("a delayed animation blocked by a higher rank when it starts ends cancelled with reason conflict")
    func delayedBlocked() {
        var m = AnimatorManager(camera: start)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 3), delay: 1), id: "late", owner: driver, at: 0)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 3), owner: presenter, at: 0.5)
        m.advance(to: 1.5)
        let late = m.takeReports().filter { $0.id == "late" }
        #expect(late.count == 1 && late.first?.status == .cancelled && late.first?.reason == "conflict")
    }
}

@Suite("Animator manager: rank changes")
struct RankChangeTests {
    @Test("a demoted presenter's running animation competes at its new rank")
    func demotedPresenterLosesRank() {
        var m = AnimatorManager(camera: Camera(zoom: 4))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 8), duration: 5), id: "p", owner: presenter, at: 0)
        #expect(m.set(CameraUpdate(zoom: 3), owner: driver, at: 1).failureValue?.code == .conflict)
        m.setRank(.driver, of: presenter.client)
        #expect(m.set(CameraUpdate(zoom: 3), owner: driver, at: 2).isSuccess)
        #expect(m.takeReports().contains { $0.id == "p" && $0.status == .superseded && $0.by == "d1" })
    }
}
