import CameraCore
import Foundation
import Testing

@testable import CameraMotion

/// flyTo and easeTo paths from MapLibre GL JS 5.3.0 itself
/// (Tests/Vectors/maplibre_animations.json, made by
/// scripts/make_maplibre_animations.py): the camera MapLibre sets at eased
/// progress k, on the flat map and on the globe.
struct MapLibreAnimations: Decodable {
    struct Camera: Decodable {
        let lat: Double, lon: Double, zoom: Double, bearing: Double, tilt: Double, roll: Double

        var camera: CameraCore.Camera {
            CameraCore.Camera(latitude: lat, longitude: lon, zoom: zoom, tilt: tilt, bearing: bearing, roll: roll)
        }
    }
    struct Options: Decodable {
        let lat: Double?, lon: Double?, zoom: Double?, bearing: Double?, tilt: Double?, roll: Double?
        let minZoom: Double?, curve: Double?, speed: Double?, duration: Double?

        var update: CameraUpdate {
            CameraUpdate(latitude: lat, longitude: lon, zoom: zoom, tilt: tilt, bearing: bearing, roll: roll)
        }
    }
    struct Sample: Decodable { let k: Double, camera: Camera }
    struct Size: Decodable { let width: Double, height: Double }
    struct Case: Decodable {
        let name: String, projection: String, kind: String, globe: Bool, duration: Double
        let viewport: Size, start: Camera, options: Options, samples: [Sample]
    }
    let maplibre: String
    let cases: [Case]

    static let file = try? JSONDecoder().decode(MapLibreAnimations.self, from: vectorData("maplibre_animations.json"))
}

@Suite("MapLibre GL JS 5.3.0's own flyTo and easeTo paths")
struct MapLibreAnimationTests {
    /// Degrees of latitude and longitude, and zoom levels.
    static let tolerance = 1e-6
    /// Degrees of rotation between the two orientations. Wider: MapLibre reads
    /// the tilt back from its slerped rotation with an asin, which near straight
    /// down (an asin near 1) turns one ulp of the quaternion into 1e-6° of tilt.
    static let turnTolerance = 1e-5

    /// The animation the case describes, started at time 0 with linear
    /// progress, so the camera at time k · duration is the one at eased progress k.
    static func manager(_ c: MapLibreAnimations.Case) throws -> AnimatorManager {
        var m = AnimatorManager(camera: c.start.camera, limits: try CameraLimits(maxTilt: 85))
        let viewport = Viewport(width: c.viewport.width, height: c.viewport.height)
        let projection = MapProjection(rawValue: c.projection)!
        if c.kind == "fly" {
            var request = FlyRequest(
                update: c.options.update, speed: c.options.speed ?? 1.2, rho: c.options.curve ?? 1.42,
                minZoom: c.options.minZoom, curve: .linear, viewport: viewport)
            request.projection = projection
            _ = m.fly(request, id: "a", owner: driver, at: 0)
        } else {
            var request = EaseRequest(update: c.options.update, duration: c.options.duration!, curve: .linear, viewport: viewport)
            request.projection = projection
            _ = m.ease(request, id: "a", owner: driver, at: 0)
        }
        return m
    }

    /// The largest difference over latitude, longitude (degrees), zoom and
    /// the orientation: the angle (degrees) of the rotation between the two
    /// (roll, tilt, bearing), not the angles one by one, which are not unique
    /// looking straight down (MapLibre then reads a roll back as bearing).
    static func difference(_ a: Camera, _ b: MapLibreAnimations.Camera) -> (position: Double, turn: Double) {
        let p = Orientation(roll: a.roll, tilt: a.tilt, bearing: a.bearing)
        let q = Orientation(roll: b.roll, tilt: b.tilt, bearing: b.bearing)
        // From the chord between the unit quaternions (either sign): θ = 4·asin(|p ∓ q| / 2),
        // accurate for tiny angles, where 2·acos(p·q) is not.
        let gap = min(
            ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + (p.z - q.z) * (p.z - q.z) + (p.w - q.w) * (p.w - q.w)).squareRoot(),
            ((p.x + q.x) * (p.x + q.x) + (p.y + q.y) * (p.y + q.y) + (p.z + q.z) * (p.z + q.z) + (p.w + q.w) * (p.w + q.w)).squareRoot())
        let position = [abs(a.latitude - b.lat), abs(shortestTurn(from: a.longitude, to: b.lon)), abs(a.zoom - b.zoom)].max()!
        return (position, 4 * asin(min(1, gap / 2)) * 180 / .pi)
    }

    @Test("the file holds flights and eases on both maps, most of the globe's drawn as a globe, some turning roll with tilt or bearing")
    func coverage() throws {
        let file = try #require(MapLibreAnimations.file)
        #expect(file.maplibre == "5.3.0")
        let globe = file.cases.filter { $0.projection == "globe" }
        #expect(globe.filter(\.globe).count >= 40 && globe.contains { !$0.globe })
        for projection in ["mercator", "globe"] {
            for kind in ["fly", "ease"] {
                #expect(file.cases.filter { $0.projection == projection && $0.kind == kind }.count >= 14, "\(projection) \(kind)")
            }
        }
        #expect(file.cases.filter { $0.kind == "ease" && $0.options.roll != nil && ($0.options.tilt != nil || $0.options.bearing != nil) }.count >= 5)
        #expect(globe.filter { $0.globe && $0.options.zoom == nil && $0.options.lat != nil }.count >= 5)
    }

    @Test("every flight and ease passes through the cameras MapLibre sets, and flights take MapLibre's time")
    func followsMapLibre() throws {
        let file = try #require(MapLibreAnimations.file)
        var worst = (position: 0.0, turn: 0.0)
        for c in file.cases {
            var m = try Self.manager(c)
            let duration = try #require(m.runningAnimation("a", of: driver.client)?.duration, "\(c.name) started")
            #expect(abs(duration - c.duration) <= 1e-9 * max(1, c.duration), "\(c.name): duration \(duration) vs \(c.duration)")
            for sample in c.samples {
                m.advance(to: sample.k * duration)
                let error = Self.difference(m.camera, sample.camera)
                worst = (max(worst.position, error.position), max(worst.turn, error.turn))
                #expect(error.position <= Self.tolerance, "\(c.name) at k = \(sample.k): \(m.camera) vs \(sample.camera)")
                #expect(error.turn <= Self.turnTolerance, "\(c.name) at k = \(sample.k): \(m.camera) vs \(sample.camera)")
            }
        }
        print("MapLibre animations: \(file.cases.count) cases; worst \(worst.position) (degrees or zoom), \(worst.turn)° of turn")
    }
}
