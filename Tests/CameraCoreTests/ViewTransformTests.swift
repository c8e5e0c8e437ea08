import Foundation
import Testing

@testable import CameraCore

@Suite("Geo ↔ view conversion")
struct ViewTransformTests {
    let viewport = Viewport(width: 1280, height: 720)

    @Test("the target is drawn at the anchor point", arguments: [Anchor.center, Anchor(x: 0.2, y: 0.8)])
    func targetAtAnchor(anchor: Anchor) throws {
        let camera = Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 45, bearing: 30, anchor: anchor)
        let point = try #require(ViewTransform(camera: camera, viewport: viewport).geoToView(camera.target))
        #expect(abs(point.x - anchor.x * 1280) < 1e-9)
        #expect(abs(point.y - anchor.y * 720) < 1e-9)
    }

    @Test("north-up and untilted, one world pixel is one view pixel")
    func flatNorthUpIsTranslation() throws {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 0)
        let transform = ViewTransform(camera: camera, viewport: viewport)
        // At zoom 0 the world is 512 px wide: 90° east is 128 px right of centre.
        let east = try #require(transform.geoToView(GeoCoordinate(latitude: 0, longitude: 90)))
        #expect(abs(east.x - (640 + 128)) < 1e-9 && abs(east.y - 360) < 1e-9)
    }

    @Test("with bearing 90 east points up")
    func bearingNinetyPutsEastUp() throws {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 4, bearing: 90)
        let east = try #require(ViewTransform(camera: camera, viewport: viewport).geoToView(GeoCoordinate(latitude: 0, longitude: 1)))
        #expect(abs(east.x - 640) < 1e-9)
        #expect(east.y < 360)
    }

    @Test("tilted, what lies ahead is drawn higher and smaller")
    func tiltForeshortensAhead() throws {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 6, tilt: 60)
        let transform = ViewTransform(camera: camera, viewport: viewport)
        let ahead = try #require(transform.geoToView(GeoCoordinate(latitude: 1, longitude: 0)))
        let behind = try #require(transform.geoToView(GeoCoordinate(latitude: -1, longitude: 0)))
        #expect(ahead.y < 360 && behind.y > 360)
        #expect(360 - ahead.y < behind.y - 360)
    }

    @Test(
        "geo → view → geo round-trips within 1e-9° at tilt ≤ 60",
        arguments: [0.0, 30, 45, 60], [0.0, 135, 181.5, 359])
    func roundTrip(tilt: Double, bearing: Double) throws {
        let camera = Camera(latitude: 37.77, longitude: -122.42, zoom: 11.3, tilt: tilt, bearing: bearing, anchor: Anchor(x: 0.4, y: 0.6))
        let transform = ViewTransform(camera: camera, viewport: viewport)
        for dx in stride(from: -0.05, through: 0.05, by: 0.025) {
            for dy in stride(from: -0.02, through: 0.05, by: 0.0175) {
                let geo = GeoCoordinate(latitude: 37.77 + dy, longitude: -122.42 + dx)
                let view = try #require(transform.geoToView(geo))
                let back = try #require(transform.viewToGeo(view))
                #expect(abs(back.latitude - geo.latitude) < 1e-9)
                #expect(abs(back.longitude - geo.longitude) < 1e-9)
            }
        }
    }

    @Test("view → geo → view round-trips for every pixel below the horizon")
    func viewRoundTrip() throws {
        let camera = Camera(latitude: -33.86, longitude: 151.2, zoom: 14, tilt: 60, bearing: 300)
        let transform = ViewTransform(camera: camera, viewport: viewport)
        for x in stride(from: 0.0, through: 1280, by: 160) {
            for y in stride(from: 0.0, through: 720, by: 90) {
                let geo = try #require(transform.viewToGeo(ViewPoint(x: x, y: y)))
                let back = try #require(transform.geoToView(geo))
                #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
            }
        }
    }

    @Test("a view point above the horizon has no geo point")
    func aboveHorizonIsNil() throws {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 5, tilt: 85)
        let transform = ViewTransform(camera: camera, viewport: viewport)
        let horizon = try #require(transform.horizonY)
        #expect(horizon > 0 && horizon < 360)
        #expect(transform.viewToGeo(ViewPoint(x: 640, y: horizon - 1)) == nil)
        #expect(transform.viewToGeo(ViewPoint(x: 640, y: 0)) == nil)
        #expect(transform.viewToGeo(ViewPoint(x: 640, y: horizon + 5)) != nil)
    }

    @Test("a point across the antimeridian is drawn on the near copy")
    func antimeridianNearCopy() throws {
        let camera = Camera(latitude: 0, longitude: 179.9, zoom: 8)
        let point = try #require(ViewTransform(camera: camera, viewport: viewport).geoToView(GeoCoordinate(latitude: 0, longitude: -179.9)))
        // 0.2° east at zoom 8: 0.2/360 · 512 · 256 px.
        #expect(abs(point.x - (640 + 0.2 / 360 * 512 * 256)) < 1e-6)
    }

    @Test("unprojected longitudes are wrapped to [-180, 180)")
    func unprojectWraps() throws {
        let camera = Camera(latitude: 0, longitude: 179.99, zoom: 6)
        let geo = try #require(ViewTransform(camera: camera, viewport: viewport).viewToGeo(ViewPoint(x: 1200, y: 360)))
        #expect(geo.longitude < 0 && geo.longitude >= -180)
    }

    @Test("placing a geo point at a view point moves only the target")
    func placingGeoAtPoint() throws {
        let camera = Camera(latitude: 51.5, longitude: -0.12, zoom: 13, tilt: 45, bearing: 20)
        let transform = ViewTransform(camera: camera, viewport: viewport)
        let geo = GeoCoordinate(latitude: 51.51, longitude: -0.1)
        let target = ViewPoint(x: 300, y: 500)
        let moved = try #require(transform.camera(placing: geo, at: target))
        #expect(moved.zoom == 13 && moved.tilt == 45 && moved.bearing == 20)
        let drawn = try #require(ViewTransform(camera: moved, viewport: viewport).geoToView(geo))
        #expect(abs(drawn.x - target.x) < 1e-6 && abs(drawn.y - target.y) < 1e-6)
    }
}
