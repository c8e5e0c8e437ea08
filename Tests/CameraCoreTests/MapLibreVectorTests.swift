import Foundation
import Testing

@testable import CameraCore

/// Vectors from MapLibre GL JS 5.3.0 itself (Tests/Vectors/maplibre_mercator.json,
/// made in headless Chromium by scripts/make_maplibre_vectors.py): cameras
/// with roll, centre elevation, field of view and pitch to 85°, their ground
/// points as MapLibre draws them. The JavaScript library checks the same file.
struct MapLibreVectors: Decodable {
    struct Cam: Decodable {
        struct P: Decodable { let top: Double, left: Double, bottom: Double, right: Double }
        let lat: Double, lon: Double, zoom: Double, bearing: Double, tilt: Double, roll: Double, elevation: Double, fov: Double
        let padding: P?
        var camera: Camera {
            Camera(
                latitude: lat, longitude: lon, zoom: zoom, tilt: tilt, bearing: bearing,
                padding: padding.map { EdgeInsets(top: $0.top, left: $0.left, bottom: $0.bottom, right: $0.right) } ?? .zero,
                roll: roll, elevation: elevation, fov: fov)
        }
    }
    struct Size: Decodable { let width: Double, height: Double }
    struct Geo: Decodable { let lat: Double, lon: Double }
    struct Point: Decodable { let x: Double, y: Double }
    struct Projected: Decodable { let geo: Geo, view: Point? }
    struct Unprojected: Decodable { let view: Point, geo: Geo? }
    struct Bounds: Decodable { let south: Double, west: Double, north: Double, east: Double }
    struct Case: Decodable {
        let name: String
        /// In the globe file: drawn as a globe (below zoom 12) or flat.
        let globe: Bool?
        let bounds: Bounds?
        let viewport: Size
        let camera: Cam
        let project: [Projected]
        let unproject: [Unprojected]
        var transform: ViewTransform { ViewTransform(camera: camera.camera, viewport: Viewport(width: viewport.width, height: viewport.height)) }
    }
    let maplibre: String
    let projection: String
    let cases: [Case]

    static let shared: MapLibreVectors? = load("maplibre_mercator.json")
    static let globe: MapLibreVectors? = load("maplibre_globe.json")

    static func load(_ name: String) -> MapLibreVectors? {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/\(name)")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(MapLibreVectors.self, from: $0) }
    }
}

@Suite("MapLibre GL JS 5.3.0's own projection vectors (Mercator)")
struct MapLibreVectorTests {
    static let tolerance = 0.5

    @Test("the file loads: at least 200 cases over zoom 0–20, tilt 0–85, roll −180…180, elevation 0–4000 m")
    func coverage() throws {
        let v = try #require(MapLibreVectors.shared)
        #expect(v.maplibre == "5.3.0" && v.projection == "mercator")
        #expect(v.cases.count >= 200)
        let cams = v.cases.map(\.camera)
        #expect(cams.map(\.zoom).min()! < 1 && cams.map(\.zoom).max()! > 19)
        #expect(cams.map(\.tilt).max()! >= 84.9 && cams.filter { $0.tilt > 60 }.count >= 40)
        #expect(cams.map(\.roll).min()! < -150 && cams.map(\.roll).max()! > 150)
        #expect(cams.map(\.elevation).max()! > 3000 && cams.filter { $0.fov != Camera.defaultFov }.count >= 40)
    }

    @Test("geoToView draws every ground point where MapLibre does, within 0.5 px (nil where MapLibre has none)")
    func project() throws {
        let v = try #require(MapLibreVectors.shared)
        var worst = (error: 0.0, name: "")
        var compared = 0
        for c in v.cases {
            let t = c.transform
            for p in c.project {
                let got = t.geoToView(GeoCoordinate(latitude: p.geo.lat, longitude: p.geo.lon))
                guard let expected = p.view else {
                    #expect(got == nil, "\(c.name): \(p.geo) is behind the eye in MapLibre, drawn at \(String(describing: got)) here")
                    continue
                }
                let point = try #require(got, "\(c.name): \(p.geo) has no view point here, MapLibre draws it at \(expected)")
                let error = hypot(point.x - expected.x, point.y - expected.y)
                compared += 1
                if error > worst.error { worst = (error, c.name) }
                #expect(error <= Self.tolerance, "\(c.name): \(p.geo) at \(point), MapLibre \(expected)")
            }
        }
        #expect(compared >= 1000)
        print("MapLibre vectors, project: \(compared) points, worst \(worst.error) px (\(worst.name))")
    }

    @Test("viewToGeo finds MapLibre's ground point under every view point within 0.5 px of it, and the sky where MapLibre has none")
    func unproject() throws {
        let v = try #require(MapLibreVectors.shared)
        var worst = (error: 0.0, name: "")
        var compared = 0
        for c in v.cases {
            let t = c.transform
            for u in c.unproject {
                let view = ViewPoint(x: u.view.x, y: u.view.y)
                let got = t.viewToGeo(view)
                guard let expected = u.geo else {
                    #expect(got == nil, "\(c.name): \(view) is sky in MapLibre, ground \(String(describing: got)) here")
                    continue
                }
                let geo = try #require(got, "\(c.name): \(view) is sky here, MapLibre's ground \(expected)")
                // Compared where it matters, on screen: MapLibre's ground point drawn by this transform.
                let drawn = try #require(t.geoToView(GeoCoordinate(latitude: expected.lat, longitude: expected.lon)))
                let back = try #require(t.geoToView(geo))
                let error = hypot(drawn.x - back.x, drawn.y - back.y)
                compared += 1
                if error > worst.error { worst = (error, c.name) }
                #expect(error <= Self.tolerance, "\(c.name): under \(view) \(geo), MapLibre \(expected)")
            }
        }
        #expect(compared >= 1000)
        print("MapLibre vectors, unproject: \(compared) points, worst \(worst.error) px (\(worst.name))")
    }
}
