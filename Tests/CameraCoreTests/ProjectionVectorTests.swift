import Foundation
import Testing

@testable import CameraCore

/// The shared projection vectors (Tests/Vectors/projection.json, made by
/// scripts/make_projection_vectors.py from MapLibre's matrix pipeline in numpy;
/// see the file's description). The web viewer's JavaScript tests check the same file.
struct ProjectionVectors: Decodable {
    struct Cam: Decodable {
        struct A: Decodable { let x: Double, y: Double }
        struct P: Decodable { let top: Double, left: Double, bottom: Double, right: Double }
        let lat: Double, lon: Double, zoom: Double, bearing: Double, tilt: Double
        let anchor: A?
        let padding: P?
        var camera: Camera {
            Camera(
                latitude: lat, longitude: lon, zoom: zoom, tilt: tilt, bearing: bearing,
                anchor: anchor.map { Anchor(x: $0.x, y: $0.y) } ?? .center,
                padding: padding.map { EdgeInsets(top: $0.top, left: $0.left, bottom: $0.bottom, right: $0.right) } ?? .zero)
        }
    }
    struct Size: Decodable { let width: Double, height: Double }
    struct Geo: Decodable { let lat: Double, lon: Double }
    struct Point: Decodable { let x: Double, y: Double }
    struct Case: Decodable { let name: String, camera: Cam, viewport: Size, geo: Geo, view: Point? }
    struct Unproject: Decodable { let name: String, camera: Cam, viewport: Size, view: Point, geo: Geo? }
    let fovRadians: Double
    let cases: [Case]
    let unprojectCases: [Unproject]

    static let shared: ProjectionVectors? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/projection.json")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(ProjectionVectors.self, from: $0) }
    }()
}

@Suite("Shared projection vectors")
struct ProjectionVectorTests {
    static let vectors = ProjectionVectors.shared

    @Test("the vectors file loads and uses our field of view")
    func loads() throws {
        let v = try #require(Self.vectors)
        #expect(v.cases.count >= 60 && v.unprojectCases.count >= 20)
        #expect(abs(v.fovRadians - ViewTransform.fieldOfView) < 1e-15)
    }

    @Test(
        "geoToView matches every projection vector within 1e-6 px (nil where behind the eye)",
        arguments: (ProjectionVectors.shared?.cases ?? []).map(\.name))
    func project(name: String) throws {
        let c = try #require(Self.vectors?.cases.first { $0.name == name })
        let transform = ViewTransform(camera: c.camera.camera, viewport: Viewport(width: c.viewport.width, height: c.viewport.height))
        let got = transform.geoToView(GeoCoordinate(latitude: c.geo.lat, longitude: c.geo.lon))
        if let expected = c.view {
            let point = try #require(got)
            #expect(abs(point.x - expected.x) < 1e-6 && abs(point.y - expected.y) < 1e-6, "\(point) vs \(expected)")
        } else {
            #expect(got == nil)
        }
    }

    @Test(
        "viewToGeo matches every unprojection vector within 1e-9° (nil above the horizon)",
        arguments: (ProjectionVectors.shared?.unprojectCases ?? []).map(\.name))
    func unproject(name: String) throws {
        let c = try #require(Self.vectors?.unprojectCases.first { $0.name == name })
        let transform = ViewTransform(camera: c.camera.camera, viewport: Viewport(width: c.viewport.width, height: c.viewport.height))
        let got = transform.viewToGeo(ViewPoint(x: c.view.x, y: c.view.y))
        if let expected = c.geo {
            let geo = try #require(got)
            #expect(
                abs(geo.latitude - expected.lat) < 1e-9 && abs(shortestTurn(from: geo.longitude, to: expected.lon)) < 1e-9,
                "\(geo) vs \(expected)")
        } else {
            #expect(got == nil)
        }
    }
}
