import CamHubProtocol
import CameraCore
import Testing

@Suite("Answering queries")
struct QueryAnswerTests {
    let viewport = Viewport(width: 800, height: 600)

    @Test("project and unproject are inverse; behind-the-eye points are null")
    func projectUnproject() throws {
        let camera = Camera(latitude: 48, longitude: 2, zoom: 10, tilt: 40, bearing: 30)
        let geos = [GeoCoordinate(latitude: 48.01, longitude: 2.02), GeoCoordinate(latitude: 47.99, longitude: 1.97)]
        guard case .project(let points) = try QueryCommand(id: "q", what: .project(geos)).answer(camera: camera, viewport: viewport, limits: CameraLimits())
        else {
            Issue.record()
            return
        }
        let views = points.compactMap { $0 }
        #expect(views.count == 2)
        guard case .unproject(let back) = try QueryCommand(id: "q", what: .unproject(views)).answer(camera: camera, viewport: viewport, limits: CameraLimits())
        else {
            Issue.record()
            return
        }
        for (a, b) in zip(geos, back) {
            #expect(abs(a.latitude - b!.latitude) < 1e-9 && abs(a.longitude - b!.longitude) < 1e-9)
        }
        // Above the horizon.
        let tilted = Camera(latitude: 0, longitude: 0, zoom: 3, tilt: 85)
        guard
            case .unproject(let sky) = try QueryCommand(id: "q", what: .unproject([ViewPoint(x: 400, y: 0)])).answer(
                camera: tilted, viewport: viewport, limits: CameraLimits())
        else {
            Issue.record()
            return
        }
        #expect(sky == [nil])
        #expect(text(HubMessage.result(id: "q", .unproject(sky))) == #"{"type":"result","id":"q","what":"unproject","points":[null]}"#)
    }

    @Test("bounds: quad continuous around the wire longitude")
    func bounds() throws {
        let camera = Camera(latitude: 0, longitude: 539.9, zoom: 4)  // wire lon 179.9
        guard case .bounds(let region) = try QueryCommand(id: "b", what: .bounds).answer(camera: camera, viewport: viewport, limits: CameraLimits()) else {
            Issue.record()
            return
        }
        let lons = region.quad.map(\.longitude)
        #expect(lons.allSatisfy { abs($0 - 179.9) < 30 })
        #expect(region.bounds.crossesAntimeridian)
        let o = try foundationObject(HubMessage.result(id: "b", .bounds(region)))
        #expect((o["quad"] as? [Any])?.count == 4)
        #expect(o["bounds"] is [String: Any])
    }

    @Test("fit returns a camera clamped to the limits; impossible padding names the field with the query id as ref")
    func fit() throws {
        let limits = try CameraLimits(maxZoom: 8)
        let q = QueryCommand(id: "f", what: .fit(GeoBounds(south: 48.85, west: 2.34, north: 48.86, east: 2.36), padding: EdgeInsets(all: 10)))
        guard case .fit(let camera) = try q.answer(camera: Camera(tilt: 30), viewport: viewport, limits: limits) else {
            Issue.record()
            return
        }
        #expect(camera.zoom == 8)
        #expect(camera.tilt == 0)
        let bad = QueryCommand(id: "f2", what: .fit(GeoBounds(south: 1, west: 1, north: 2, east: 2), padding: EdgeInsets(left: 500, right: 400)))
        #expect(throws: ProtocolError(.badMessage, "padding: left + right padding leaves no room in a 800.0 px wide view", ref: "f2")) {
            try bad.answer(camera: Camera(), viewport: viewport, limits: CameraLimits())
        }
        #expect(
            text(HubMessage.result(id: "f", .fit(Camera(latitude: 1, longitude: 2, zoom: 3))))
                == #"{"type":"result","id":"f","what":"fit","camera":{"lat":1.0,"lon":2.0,"zoom":3.0,"bearing":0.0,"tilt":0.0}}"#)
    }
}
