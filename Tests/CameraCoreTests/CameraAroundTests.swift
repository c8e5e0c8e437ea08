import Testing

@testable import CameraCore

@Suite("Zooming, rotating and tilting around a view point")
struct CameraAroundTests {
    let viewport = Viewport(width: 800, height: 600)

    @Test(
        "the geo point under the view point stays under it",
        arguments: [
            (0.0, 0.0), (45, 0), (30, 170), (60, 359),
        ])
    func pointStaysFixed(tilt: Double, bearing: Double) throws {
        let before = Camera(latitude: 35.68, longitude: 139.76, zoom: 10, tilt: tilt, bearing: bearing)
        let point = ViewPoint(x: 620, y: 410)
        let geo = try #require(ViewTransform(camera: before, viewport: viewport).viewToGeo(point))
        var changed = before
        changed.zoom = 11.7
        changed.bearing = normalizeBearing(bearing + 25)
        changed.tilt = max(0, tilt - 10)
        let after = before.keeping(point, fixedIn: viewport, whileChangingTo: changed)
        let drawn = try #require(ViewTransform(camera: after, viewport: viewport).geoToView(geo))
        #expect(abs(drawn.x - point.x) < 1e-6 && abs(drawn.y - point.y) < 1e-6)
        #expect(after.zoom == 11.7)
    }

    @Test("around a point in the sky, the camera turns around its own target")
    func pointInSkyFallsBackToTarget() {
        let before = Camera(latitude: 0, longitude: 0, zoom: 5, tilt: 85)
        var changed = before
        changed.zoom = 6
        #expect(before.keeping(ViewPoint(x: 400, y: 0), fixedIn: viewport, whileChangingTo: changed) == changed)
    }
}
