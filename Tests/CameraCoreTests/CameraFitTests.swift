import Testing

@testable import CameraCore

@Suite("Fitting bounds")
struct CameraFitTests {
    let viewport = Viewport(width: 1000, height: 800)

    func drawnCorners(_ bounds: GeoBounds, _ camera: Camera) throws -> [ViewPoint] {
        let transform = ViewTransform(camera: camera, viewport: viewport)
        return try [(bounds.south, bounds.west), (bounds.south, bounds.east), (bounds.north, bounds.west), (bounds.north, bounds.east)]
            .map { try #require(transform.geoToView(GeoCoordinate(latitude: $0.0, longitude: $0.1))) }
    }

    @Test("the fitted camera shows the whole box inside the padding, touching it on one axis", arguments: [0.0, 30, 270])
    func fitsInsidePadding(bearing: Double) throws {
        let bounds = GeoBounds(south: 41.3, west: -9.5, north: 51.1, east: 9.6)
        let padding = EdgeInsets(top: 20, left: 40, bottom: 60, right: 10)
        let camera = try Camera(zoom: 1, tilt: 40, bearing: bearing).fitting(bounds, padding: padding, viewport: viewport)
        #expect(camera.tilt == 0 && camera.bearing == bearing)
        let points = try drawnCorners(bounds, camera)
        let minX = points.map(\.x).min()!
        let maxX = points.map(\.x).max()!
        let minY = points.map(\.y).min()!
        let maxY = points.map(\.y).max()!
        #expect(minX >= 40 - 1e-6 && maxX <= 990 + 1e-6 && minY >= 20 - 1e-6 && maxY <= 740 + 1e-6)
        let touchesX = abs(minX - 40) < 1e-6 && abs(maxX - 990) < 1e-6
        let touchesY = abs(minY - 20) < 1e-6 && abs(maxY - 740) < 1e-6
        #expect(touchesX || touchesY)
    }

    @Test("bounds across the antimeridian are fitted the short way")
    func fitsAcrossAntimeridian() throws {
        let bounds = GeoBounds(south: -21, west: 176, north: -15, east: -178)
        let camera = try Camera(latitude: 0, longitude: 170, zoom: 1).fitting(bounds, padding: EdgeInsets(), viewport: viewport)
        #expect(abs(camera.longitude - 179) < 1e-9)
        #expect(camera.zoom > 6)
    }

    @Test("padding that leaves no room is an error naming padding")
    func paddingTooLarge() {
        #expect(throws: CameraInputError.self) {
            try Camera().fitting(GeoBounds(south: 0, west: 0, north: 1, east: 1), padding: EdgeInsets(top: 500, bottom: 300), viewport: viewport)
        }
    }

    @Test("negative padding is rejected")
    func negativePadding() {
        do {
            _ = try Camera().fitting(GeoBounds(south: 0, west: 0, north: 1, east: 1), padding: EdgeInsets(left: -1), viewport: viewport)
            Issue.record("expected an error")
        } catch { #expect(error.field == "padding.left") }
    }
}
