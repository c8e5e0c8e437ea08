import CameraCore
import Foundation
import Testing

@testable import CameraMotion

/// TomTom's route tracking modes on the room's route, with
/// locations matched onto it; time passed in.
@Suite("Animator manager: route tracking (TomTom)")
struct RouteTrackingTests {
    /// East along 52.52° N for ~680 m, then north for ~1.1 km (Berlin).
    let points = [
        GeoCoordinate(latitude: 52.52, longitude: 13.40), GeoCoordinate(latitude: 52.52, longitude: 13.41),
        GeoCoordinate(latitude: 52.53, longitude: 13.41),
    ]

    func manager() throws -> AnimatorManager {
        var m = AnimatorManager(camera: Camera(latitude: 52.5, longitude: 13.3, zoom: 12))
        _ = try m.setRoute(points, append: false, at: 0).get()
        return m
    }

    @Test("a route is measured along its points; map matching finds the nearest point and how far along it is")
    func matching() throws {
        let route = try Route(points)
        #expect(abs(route.length - (Route.metres(from: points[0], to: points[1]) + Route.metres(from: points[1], to: points[2]))) < 1e-9)
        #expect(abs(route.length - 1790) < 10, "\(route.length)")
        // 20 m north of the first leg, a quarter of the way along.
        let off = GeoCoordinate(latitude: 52.52 + 20 / 111_195, longitude: 13.4025)
        let m = route.match(off)
        #expect(abs(m.point.latitude - 52.52) < 1e-9 && abs(m.point.longitude - 13.4025) < 1e-9)
        #expect(abs(m.offset - 20) < 0.1 && abs(m.along - route.length * 0 - 169.6) < 1, "\(m)")
        #expect(route.remaining(from: m.along).count == 3)
        #expect(throws: CameraInputError.self) { try Route([points[0]]) }
        var long = route
        #expect(throws: CameraInputError.self) { try long.append(Array(repeating: points[0], count: Route.maxPoints)) }
        #expect(long == route, "a refused append changes nothing")
    }

    @Test("followRouteDirection: the matched location, bearing along the route ahead, tilt 45, zoom for the next stretch")
    func followRouteDirection() throws {
        var m = try manager()
        let fix = TrackedLocation(latitude: 52.52 + 15 / 111_195, longitude: 13.405, heading: 300)
        _ = try m.track(.followRouteDirection, location: fix, owner: driver, at: 1).get()
        m.advance(to: 2)  // the first glide lasts 1 s
        #expect(abs(m.camera.latitude - 52.52) < 1e-9 && abs(m.camera.longitude - 13.405) < 1e-9, "matched onto the route")
        #expect(abs(m.camera.bearing - 90) < 0.01, "east along the first leg, not the fix's heading: \(m.camera.bearing)")
        #expect(m.camera.tilt == 45)
        #expect(
            abs(m.camera.zoom - AnimatorManager.zoom(showing: 400, atLatitude: 52.52)) < 1e-9 && m.camera.zoom > 15 && m.camera.zoom < 16,
            "400 m in 360 px: \(m.camera.zoom)")
        // Just before the corner the bearing looks ahead around it.
        _ = try m.track(.followRouteDirection, location: TrackedLocation(latitude: 52.52, longitude: 13.4095), owner: driver, at: 3).get()
        m.advance(to: 5)
        #expect(m.camera.bearing > 10 && m.camera.bearing < 80, "turning towards north: \(m.camera.bearing)")
        // Far off the route (> 50 m) the fix is shown as it is.
        _ = try m.track(.followRouteDirection, location: TrackedLocation(latitude: 52.525, longitude: 13.40, heading: 180), owner: driver, at: 6).get()
        m.advance(to: 8)
        #expect(m.camera.latitude == 52.525 && m.camera.bearing == 180)
    }

    @Test("followRouteNorthUp: matched location, north up, tilt 0, the zoom left alone")
    func followRouteNorthUp() throws {
        var m = try manager()
        _ = try m.set(CameraUpdate(tilt: 30, bearing: 70), owner: driver, at: 0.5).get()
        _ = try m.track(.followRouteNorthUp, location: TrackedLocation(latitude: 52.525, longitude: 13.4101), owner: driver, at: 1).get()
        m.advance(to: 2)
        #expect(abs(m.camera.longitude - 13.41) < 1e-9 && abs(m.camera.latitude - 52.525) < 1e-6)
        #expect(m.camera.bearing == 0 && m.camera.tilt == 0 && m.camera.zoom == 12)
    }

    @Test("routeOverview fits what remains of the route inside the owner's viewport less the camera's padding")
    func routeOverview() throws {
        var m = try manager()
        _ = try m.set(CameraUpdate(padding: PaddingUpdate(left: 300)), owner: driver, at: 0.5).get()
        let viewport = Viewport(width: 1000, height: 600)
        _ = try m.track(.routeOverview, location: TrackedLocation(latitude: 52.52, longitude: 13.405), owner: driver, viewport: viewport, at: 1).get()
        m.advance(to: 2)
        let t = ViewTransform(camera: m.camera, viewport: viewport)
        let shown = [GeoCoordinate(latitude: 52.52, longitude: 13.405), points[1], points[2]].map { t.geoToView($0)! }
        #expect(shown.allSatisfy { $0.x >= 300 - 1e-6 && $0.x <= 1000 + 1e-6 && $0.y >= -1e-6 && $0.y <= 600 + 1e-6 }, "\(shown)")
        #expect(shown.contains { abs($0.y) < 1e-6 } && shown.contains { abs($0.y - 600) < 1e-6 }, "as large as fits")
        let behind = t.geoToView(points[0])!
        #expect(behind.x < 300 + (shown[0].x - 300) / 2, "the part already driven is not what is fitted")
        #expect(m.camera.bearing == 0 && m.camera.tilt == 0)
    }

    @Test("a new route re-aims a route mode at the last fix; appending extends; clearing leaves the fix unmatched")
    func routeChanges() throws {
        var m = try manager()
        _ = try m.track(.followRouteNorthUp, location: TrackedLocation(latitude: 52.5202, longitude: 13.405), owner: driver, at: 1).get()
        m.advance(to: 2)
        #expect(abs(m.camera.latitude - 52.52) < 1e-9)
        _ = try m.setRoute([GeoCoordinate(latitude: 52.5203, longitude: 13.39), GeoCoordinate(latitude: 52.5203, longitude: 13.42)], append: false, at: 3).get()
        m.advance(to: 5)
        #expect(abs(m.camera.latitude - 52.5203) < 1e-9, "matched onto the new route")
        let appended = try m.setRoute([GeoCoordinate(latitude: 52.6, longitude: 13.42)], append: true, at: 6).get()
        #expect(appended?.points.count == 3)
        #expect(try m.setRoute([], append: false, at: 7).get() == nil)
        m.advance(to: 9)
        #expect(m.camera.latitude == 52.5202, "no route: the fix as it is")
        #expect(m.setRoute([points[0]], append: true, at: 10).failureValue?.message == "append: there is no route to append to")
    }
}
