import Testing

@testable import CameraCore

@Suite("Visible region")
struct VisibleRegionTests {
    let viewport = Viewport(width: 1024, height: 768)

    func expectContainsCorners(_ camera: Camera, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let transform = ViewTransform(camera: camera, viewport: viewport)
        let region = transform.visibleRegion
        #expect(region.quad.count == 4, sourceLocation: sourceLocation)
        for corner in region.quad {
            #expect(region.bounds.contains(corner), "\(corner) not in \(region.bounds)", sourceLocation: sourceLocation)
            // Every corner is really on the ground under the view.
            #expect(transform.geoToView(corner) != nil, sourceLocation: sourceLocation)
        }
    }

    @Test(
        "the bounding box contains every visible corner",
        arguments: [
            Camera(latitude: 48.85, longitude: 2.35, zoom: 10),
            Camera(latitude: 48.85, longitude: 2.35, zoom: 10, tilt: 60, bearing: 33),
            Camera(latitude: -70, longitude: 10, zoom: 3, tilt: 45, bearing: 200),
            Camera(latitude: 0, longitude: 179.5, zoom: 6, tilt: 30, bearing: 359),
            Camera(latitude: 20, longitude: -30, zoom: 6, tilt: 85, bearing: 90),
        ])
    func boxContainsCorners(camera: Camera) throws {
        try expectContainsCorners(camera)
    }

    @Test("north-up and untilted, the box is the view's rectangle")
    func flatBoxIsViewRectangle() {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 2)
        let bounds = ViewTransform(camera: camera, viewport: viewport).visibleRegion.bounds
        // 1024 px of a 2048 px world is 180° of longitude.
        #expect(abs(bounds.west - -90) < 1e-9 && abs(bounds.east - 90) < 1e-9)
        #expect(abs(bounds.north + bounds.south) < 1e-9)
    }

    @Test("a view across the antimeridian gives west > east")
    func antimeridianBox() {
        let camera = Camera(latitude: -17, longitude: 179, zoom: 6)
        let bounds = ViewTransform(camera: camera, viewport: viewport).visibleRegion.bounds
        #expect(bounds.crossesAntimeridian)
        #expect(bounds.west > 170 && bounds.east < -170)
    }

    @Test("a view wider than the world spans every longitude")
    func wholeWorldBox() {
        let bounds = ViewTransform(camera: Camera(zoom: 0), viewport: Viewport(width: 2000, height: 500)).visibleRegion.bounds
        #expect(bounds.west == -180 && bounds.east == 180)
    }

    @Test("tilted towards the horizon, the top corners stop short of it")
    func horizonClamped() throws {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 5, tilt: 85)
        let transform = ViewTransform(camera: camera, viewport: viewport)
        let region = transform.visibleRegion
        let topLeft = try #require(transform.geoToView(region.quad[0]))
        let horizon = try #require(transform.horizonY)
        #expect(topLeft.y > horizon)
        #expect(abs(topLeft.y - (384 - (384 - horizon) * 0.85)) < 1e-6)
    }
}
