import Foundation
import Testing

@testable import CameraCore

/// MapLibre GL JS 5.3.0's globe (Tests/Vectors/maplibre_globe.json, made by
/// scripts/make_maplibre_vectors.py --projection globe): below zoom 12 its
/// vertical perspective transform, from zoom 12 on the flat transform.
@Suite("MapLibre GL JS 5.3.0's own projection vectors (globe)")
struct MapLibreGlobeVectorTests {
    static let tolerance = 1.0

    static func view(_ c: MapLibreVectors.Case) -> GlobeView {
        GlobeView(camera: c.camera.camera, viewport: Viewport(width: c.viewport.width, height: c.viewport.height))
    }

    @Test("the file loads: at least 200 globe cases over zoom 0–12, tilt 0–85, roll −180…180, elevation 0–4000 m, and flat ones beyond zoom 12")
    func coverage() throws {
        let v = try #require(MapLibreVectors.globe)
        #expect(v.maplibre == "5.3.0" && v.projection == "globe")
        let globe = v.cases.filter { $0.globe == true }
        #expect(globe.count >= 200 && v.cases.contains { $0.globe == false })
        let cams = globe.map(\.camera)
        #expect(cams.map(\.zoom).min()! < 1 && cams.map(\.zoom).max()! > 11)
        #expect(cams.map(\.tilt).max()! >= 84.9 && cams.filter { $0.tilt > 60 }.count >= 40)
        #expect(cams.map(\.roll).min()! < -150 && cams.map(\.roll).max()! > 150)
        #expect(cams.map(\.elevation).max()! > 3000)
        // The flat ones are the zooms MapLibre draws flat, and only those.
        #expect(v.cases.allSatisfy { ($0.globe == true) == GlobeView.isGlobe(zoom: $0.camera.zoom) })
    }

    @Test("geoToView draws every point of the globe where MapLibre does, within 1 px, and nothing the globe hides")
    func project() throws {
        let v = try #require(MapLibreVectors.globe)
        var worst = (error: 0.0, name: "")
        var compared = 0
        for c in v.cases {
            for p in c.project {
                let geo = GeoCoordinate(latitude: p.geo.lat, longitude: p.geo.lon)
                let got = c.globe == true ? Self.view(c).geoToView(geo) : c.transform.geoToView(geo)
                guard let expected = p.view else {
                    #expect(got == nil, "\(c.name): \(p.geo) is hidden in MapLibre, drawn at \(String(describing: got)) here")
                    continue
                }
                let point = try #require(got, "\(c.name): \(p.geo) is hidden here, MapLibre draws it at \(expected)")
                let error = hypot(point.x - expected.x, point.y - expected.y)
                compared += 1
                if error > worst.error { worst = (error, c.name) }
                #expect(error <= Self.tolerance, "\(c.name): \(p.geo) at \(point), MapLibre \(expected)")
            }
        }
        #expect(compared >= 1000)
        print("MapLibre globe vectors, project: \(compared) points, worst \(worst.error) px (\(worst.name))")
    }

    @Test("viewToGeo finds MapLibre's point of the globe under every view point within 1 px, and space where its ray misses the globe")
    func unproject() throws {
        let v = try #require(MapLibreVectors.globe)
        var worst = (error: 0.0, name: "")
        var compared = 0
        for c in v.cases where c.globe == true {
            let t = Self.view(c)
            for u in c.unproject {
                let view = ViewPoint(x: u.view.x, y: u.view.y)
                let got = t.viewToGeo(view)
                guard let expected = u.geo else {
                    #expect(got == nil, "\(c.name): \(view) misses the globe in MapLibre, meets it at \(String(describing: got)) here")
                    continue
                }
                // MapLibre also takes the sphere behind the eye (its ray meets it at a negative
                // distance): that point is not drawn, and here the view point shows space.
                guard let drawn = t.geoToView(GeoCoordinate(latitude: expected.lat, longitude: expected.lon)) else {
                    #expect(got == nil, "\(c.name): MapLibre's \(expected) under \(view) is behind the eye, \(String(describing: got)) here")
                    continue
                }
                let geo = try #require(got, "\(c.name): \(view) misses the globe here, MapLibre's point \(expected)")
                let back = try #require(t.geoToView(geo))
                let error = hypot(drawn.x - back.x, drawn.y - back.y)
                compared += 1
                if error > worst.error { worst = (error, c.name) }
                #expect(error <= Self.tolerance, "\(c.name): under \(view) \(geo), MapLibre \(expected)")
            }
        }
        #expect(compared >= 1000)
        print("MapLibre globe vectors, unproject: \(compared) points, worst \(worst.error) px (\(worst.name))")
    }

    /// Within 1e-5° (about a metre): a corner off the globe is a point of the limb,
    /// where a grazing line of sight leaves the last digits uncertain.
    @Test("the visible region's bounds are MapLibre's getBounds on the globe (within 1e-5°)")
    func bounds() throws {
        let v = try #require(MapLibreVectors.globe)
        var compared = 0
        for c in v.cases where c.globe == true {
            let expected = try #require(c.bounds)
            let got = Self.view(c).visibleRegion.bounds
            let west = wrapLongitude(expected.west)
            let east = wrapLongitude(expected.east)
            let everyLongitude = expected.east - expected.west >= 360 || expected.north == 90 || expected.south == -90
            let lonOK =
                everyLongitude
                ? (got.west == -180 && got.east == 180)
                : abs(wrapLongitude(got.west - west)) < 1e-5 && abs(wrapLongitude(got.east - east)) < 1e-5
            #expect(lonOK && abs(got.south - expected.south) < 1e-5 && abs(got.north - expected.north) < 1e-5, "\(c.name): \(got), MapLibre \(expected)")
            compared += 1
        }
        #expect(compared >= 200)
    }
}
