import Foundation
import Testing

@testable import CameraCore

/// Camera padding as in MapLibre / Mapbox. The centre of
/// perspective is the centre of the padded area, queries and `fit` use it.
@Suite("Camera padding (MapLibre)")
struct PaddingTests {
    let viewport = Viewport(width: 1280, height: 720)

    @Test("the target is drawn at the padded centre and the horizon moves with it; the anchor is a fraction of the padded area")
    func paddedCentre() throws {
        let padding = EdgeInsets(top: 100, left: 300, bottom: 20, right: 0)
        let camera = Camera(latitude: 52.52, longitude: 13.405, zoom: 14, tilt: 45, bearing: 30, padding: padding)
        let t = ViewTransform(camera: camera, viewport: viewport)
        let p = try #require(t.geoToView(camera.target))
        #expect(abs(p.x - 790) < 1e-6 && abs(p.y - 400) < 1e-6)
        let flat = ViewTransform(camera: Camera(latitude: 52.52, longitude: 13.405, zoom: 14, tilt: 45, bearing: 30), viewport: viewport)
        #expect(abs(t.horizonY! - flat.horizonY! - 40) < 1e-9, "the horizon is 40 px lower, as the centre of perspective")
        var anchored = camera
        anchored.anchor = Anchor(x: 0, y: 1)
        let q = try #require(ViewTransform(camera: anchored, viewport: viewport).geoToView(camera.target))
        #expect(abs(q.x - 300) < 1e-6 && abs(q.y - 700) < 1e-6, "the padded area's bottom-left corner: \(q)")
    }

    @Test("padding wider than the view clamps the centre of perspective into it, as MapLibre does")
    func overwide() throws {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 5, padding: EdgeInsets(left: 2000))
        let p = try #require(ViewTransform(camera: camera, viewport: viewport).geoToView(camera.target))
        #expect(abs(p.x - 1280) < 1e-6 && abs(p.y - 360) < 1e-6)
    }

    @Test("fit leaves the camera's padding clear and adds the query's padding to it")
    func fitWithPadding() throws {
        let bounds = GeoBounds(south: 48.8, west: 2.2, north: 48.9, east: 2.4)
        let camera = Camera(latitude: 0, longitude: 0, zoom: 3, padding: EdgeInsets(top: 0, left: 400, bottom: 0, right: 0))
        let fitted = try camera.fitting(bounds, padding: EdgeInsets(all: 20), viewport: viewport)
        #expect(fitted.padding == camera.padding)
        let t = ViewTransform(camera: fitted, viewport: viewport)
        let corners = [GeoCoordinate(latitude: 48.8, longitude: 2.2), GeoCoordinate(latitude: 48.9, longitude: 2.4)]
        let views = try corners.map { try #require(t.geoToView($0)) }
        let xs = views.map(\.x)
        let ys = views.map(\.y)
        #expect(xs.min()! >= 420 - 1e-6 && xs.max()! <= 1260 + 1e-6 && ys.min()! >= 20 - 1e-6 && ys.max()! <= 700 + 1e-6, "\(views)")
        let touches = abs(xs.min()! - 420) < 1e-6 && abs(xs.max()! - 1260) < 1e-6 || abs(ys.min()! - 20) < 1e-6 && abs(ys.max()! - 700) < 1e-6
        #expect(touches, "as large as fits: \(views)")
        #expect(throws: CameraInputError.self) {
            try Camera(padding: EdgeInsets(left: 700, right: 600)).fitting(bounds, padding: EdgeInsets(), viewport: viewport)
        }
    }

    @Test("an update's padding replaces the sides it names; negative or non-finite sides are refused naming them")
    func paddingUpdates() throws {
        let camera = Camera(padding: EdgeInsets(top: 10, left: 20, bottom: 30, right: 40))
        let next = try camera.applying(CameraUpdate(padding: PaddingUpdate(left: 0)), limits: CameraLimits())
        #expect(next.camera.padding == EdgeInsets(top: 10, left: 0, bottom: 30, right: 40) && next.clamped.isEmpty)
        #expect(throws: CameraInputError(field: "padding.bottom", message: "must not be negative (got -5.0)")) {
            try camera.applying(CameraUpdate(padding: PaddingUpdate(bottom: -5)), limits: CameraLimits())
        }
        #expect(CameraUpdate(padding: PaddingUpdate(top: 1)).properties == .padding)
        #expect(camera.differences(from: Camera()) == .padding)
    }
}
