import Foundation
import Testing

@testable import CameraCore

/// `FitMode.cover` against the shared vectors (Tests/Vectors/fit_cover.json),
/// which the viewer's rule is checked against too (web/tests/fit.test.mjs):
/// every client shows the same camera for the same frame and screens.
@Suite("Fit mode: cover, against the shared vectors")
struct FitCoverVectorTests {
    struct WireCamera: Decodable {
        var lat, lon, zoom, bearing, tilt: Double
        var camera: Camera { Camera(latitude: lat, longitude: lon, zoom: zoom, tilt: tilt, bearing: bearing) }
    }
    struct Size: Decodable {
        var width, height: Double
        var viewport: Viewport { Viewport(width: width, height: height) }
    }
    struct Limits: Decodable { var minZoom, maxZoom: Double }
    struct Case: Decodable, CustomTestStringConvertible {
        var name: String
        var fit: String
        var camera: WireCamera
        var view: Size?
        var own: Size
        var limits: Limits
        var expected: WireCamera
        var testDescription: String { name }
    }
    struct File: Decodable { var cases: [Case] }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/fit_cover.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.cases
    }()

    @Test func theVectorsAreThere() {
        #expect(Self.cases.count >= 8, "Tests/Vectors/fit_cover.json")
    }

    @Test(arguments: cases)
    func theFittedCameraIsTheVectors(_ c: Case) throws {
        let mode = try #require(FitMode(rawValue: c.fit))
        let limits = try CameraLimits(minZoom: c.limits.minZoom, maxZoom: c.limits.maxZoom)
        let shown = mode.camera(for: c.camera.camera, view: c.view?.viewport, own: c.own.viewport, limits: limits)
        #expect(abs(shown.zoom - c.expected.zoom) < 1e-12, "\(shown.zoom) vs \(c.expected.zoom)")
        #expect(shown.latitude == c.expected.lat && shown.longitude == c.expected.lon)
        #expect(shown.bearing == c.expected.bearing && shown.tilt == c.expected.tilt, "centre, bearing and tilt stay")
    }
}
