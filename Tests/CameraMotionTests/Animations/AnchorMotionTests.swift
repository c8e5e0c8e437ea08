import CameraCore
import Testing

@testable import CameraMotion

/// The anchor in the animator manager: a `set` or an animation that
/// moves only the anchor re-targets so nothing moves on screen; with lat/lon
/// the target goes to the anchor; rotation and tilt turn around the anchor.
@Suite("Animator manager: target anchor")
struct AnchorMotionTests {
    let viewport = Viewport(width: 800, height: 600)
    let start = Camera(latitude: 48.8566, longitude: 2.3522, zoom: 14, tilt: 40, bearing: 20)
    let ground = [GeoCoordinate(latitude: 48.86, longitude: 2.34), GeoCoordinate(latitude: 48.85, longitude: 2.36)]

    func views(_ camera: Camera) -> [ViewPoint] {
        let t = ViewTransform(camera: camera, viewport: viewport)
        return ground.map { t.geoToView($0)! }
    }

    func expectSame(_ a: [ViewPoint], _ b: [ViewPoint], _ tolerance: Double = 1e-6, sourceLocation: SourceLocation = #_sourceLocation) {
        for (p, q) in zip(a, b) {
            #expect(abs(p.x - q.x) < tolerance && abs(p.y - q.y) < tolerance, "\(p) → \(q)", sourceLocation: sourceLocation)
        }
    }

    @Test("set anchor alone: nothing moves; then rotating and tilting turn around the anchor")
    func setAnchorThenTurn() throws {
        var m = AnimatorManager(camera: start)
        let before = views(m.camera)
        _ = try m.set(CameraUpdate(anchor: Anchor(x: 0.5, y: 0.8)), owner: driver, viewport: viewport, at: 1).get()
        expectSame(before, views(m.camera))
        let target = m.camera.target
        for update in [CameraUpdate(bearing: 110), CameraUpdate(tilt: 10), CameraUpdate(zoom: 15.5)] {
            _ = try m.set(update, owner: driver, viewport: viewport, at: 2).get()
            #expect(m.camera.target == target, "the target stays put")
            let p = try #require(ViewTransform(camera: m.camera, viewport: viewport).geoToView(target))
            #expect(abs(p.x - 400) < 1e-6 && abs(p.y - 480) < 1e-6, "and stays at the anchor: \(p)")
        }
    }

    @Test("anchor with lat/lon puts that target at the anchor")
    func anchorWithTarget() throws {
        var m = AnimatorManager(camera: start)
        _ = try m.set(CameraUpdate(latitude: 48.86, longitude: 2.34, anchor: Anchor(x: 0.25, y: 0.5)), owner: driver, viewport: viewport, at: 1).get()
        #expect(m.camera.latitude == 48.86 && m.camera.longitude == 2.34)
        let p = try #require(ViewTransform(camera: m.camera, viewport: viewport).geoToView(GeoCoordinate(latitude: 48.86, longitude: 2.34)))
        #expect(abs(p.x - 200) < 1e-6 && abs(p.y - 300) < 1e-6)
    }

    @Test("animating the anchor alone ends with nothing moved; at tilt 0 nothing moves on the way either")
    func animateAnchor() throws {
        var m = AnimatorManager(camera: start)
        let before = views(m.camera)
        _ = try m.animate(
            EaseRequest(update: CameraUpdate(anchor: Anchor(x: 0.2, y: 0.7)), duration: 1, viewport: viewport),
            id: "a", owner: driver, at: 0
        ).get()
        m.advance(to: 1)
        expectSame(before, views(m.camera))
        #expect(m.camera.anchor == Anchor(x: 0.2, y: 0.7))

        var flat = AnimatorManager(camera: Camera(latitude: 48.8566, longitude: 2.3522, zoom: 14, bearing: 20))
        let flatBefore = views(flat.camera)
        _ = try flat.ease(
            EaseRequest(update: CameraUpdate(anchor: Anchor(x: 0.8, y: 0.3)), duration: 1, viewport: viewport),
            id: "e", owner: driver, at: 0
        ).get()
        for t in stride(from: 0.1, through: 1, by: 0.1) {
            flat.advance(to: t)
            expectSame(flatBefore, views(flat.camera), 1e-6)
        }
    }

    @Test("an anchor animation claims the centre with it: a set of lat/lon ends it whole")
    func anchorClaimsCenter() throws {
        var m = AnimatorManager(camera: start)
        _ = try m.animate(
            EaseRequest(update: CameraUpdate(anchor: Anchor(x: 0.2, y: 0.7)), duration: 2, viewport: viewport),
            id: "a", owner: driver, at: 0
        ).get()
        _ = m.takeEvents()
        _ = try m.animate(EaseRequest(update: CameraUpdate(latitude: 10, longitude: 10), duration: 1), id: "b", owner: driver2, at: 0.5).get()
        let report = m.takeReports().first { $0.id == "a" }
        #expect(report?.status == .superseded && report?.lost == [.center, .anchor])
    }
}
