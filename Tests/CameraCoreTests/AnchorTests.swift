import Testing

@testable import CameraCore

/// The target anchor as in HERE CameraLite. The target is
/// drawn at the anchor without moving the perspective, so changing the anchor
/// together with the target under it changes nothing on screen.
@Suite("Target anchor (HERE CameraLite)")
struct AnchorTests {
    let viewport = Viewport(width: 1280, height: 720)
    let ground = [
        GeoCoordinate(latitude: 52.53, longitude: 13.39), GeoCoordinate(latitude: 52.51, longitude: 13.42),
        GeoCoordinate(latitude: 52.50, longitude: 13.38), GeoCoordinate(latitude: 52.545, longitude: 13.41),
    ]

    @Test(
        "the target is drawn at the anchor at any tilt and bearing; the horizon does not depend on the anchor",
        arguments: [(0.0, 0.0), (45, 30), (60, 271.5)])
    func targetAtAnchor(tilt: Double, bearing: Double) throws {
        let centred = Camera(latitude: 52.52, longitude: 13.405, zoom: 13, tilt: tilt, bearing: bearing)
        var anchored = centred
        anchored.anchor = Anchor(x: 0.3, y: 0.75)
        let t = ViewTransform(camera: anchored, viewport: viewport)
        let p = try #require(t.geoToView(anchored.target))
        #expect(abs(p.x - 0.3 * 1280) < 1e-6 && abs(p.y - 0.75 * 720) < 1e-6)
        #expect(t.horizonY == ViewTransform(camera: centred, viewport: viewport).horizonY)
    }

    @Test("reanchoring moves the target under the new anchor: nothing moves on screen", arguments: [(0.0, 0.0), (45, 30), (60, 200)])
    func reanchorKeepsTheView(tilt: Double, bearing: Double) throws {
        let before = Camera(latitude: 52.52, longitude: 13.405, zoom: 13, tilt: tilt, bearing: bearing, anchor: Anchor(x: 0.4, y: 0.6))
        let after = before.reanchored(to: Anchor(x: 0.5, y: 0.85), in: viewport)
        #expect(after.anchor == Anchor(x: 0.5, y: 0.85) && after.target != before.target)
        let a = ViewTransform(camera: before, viewport: viewport)
        let b = ViewTransform(camera: after, viewport: viewport)
        for geo in ground {
            let p = try #require(a.geoToView(geo))
            let q = try #require(b.geoToView(geo))
            #expect(abs(p.x - q.x) < 1e-6 && abs(p.y - q.y) < 1e-6, "\(geo): \(p) → \(q)")
        }
        let under = try #require(a.viewToGeo(ViewPoint(x: 640, y: 0.85 * 720)))
        #expect(abs(after.latitude - under.latitude) < 1e-12 && abs(after.longitude - under.longitude) < 1e-12)
    }

    @Test("an anchor above 85 % of the way to the horizon is drawn on that line")
    func anchorNearTheHorizon() throws {
        let camera = Camera(latitude: 10, longitude: 20, zoom: 6, tilt: 80, anchor: Anchor(x: 0.5, y: 0))
        let t = ViewTransform(camera: camera, viewport: viewport)
        let line = 360 - (360 - t.horizonY!) * 0.85
        let p = try #require(t.geoToView(camera.target))
        #expect(abs(p.y - line) < 1e-6 && abs(p.x - 640) < 1e-6)
    }

    @Test("an update that moves only the anchor names the target under it; with lat/lon it is left alone")
    func reanchoringUpdates() {
        let camera = Camera(latitude: 52.52, longitude: 13.405, zoom: 13, tilt: 30)
        let moved = CameraUpdate(anchor: Anchor(x: 0.5, y: 0.8)).reanchoring(camera, in: viewport)
        #expect(moved.latitude != nil && moved.latitude! < 52.52 && abs(moved.longitude! - 13.405) < 1e-12, "south, on the same meridian")
        let placed = CameraUpdate(latitude: 1, longitude: 2, anchor: Anchor(x: 0.5, y: 0.8))
        #expect(placed.reanchoring(camera, in: viewport) == placed)
        #expect(CameraUpdate(zoom: 3).reanchoring(camera, in: viewport) == CameraUpdate(zoom: 3))
    }
}
