import Foundation
import Testing

@testable import CameraCore

@Suite("The camera in 3D: roll, elevation, field of view")
struct Camera3DTests {
    let viewport = Viewport(width: 1280, height: 720)

    @Test("a roll outside -180…180 is refused naming the field and the range, and nothing changes")
    func rollOutOfRangeRefused() throws {
        let camera = Camera(latitude: 10, longitude: 20, zoom: 5, roll: 30)
        #expect(throws: CameraInputError(field: "roll", message: "must be within -180…180 (got 400)")) {
            _ = try camera.applying(CameraUpdate(zoom: 8, roll: 400), limits: CameraLimits())
        }
    }

    @Test("a field of view outside 1…60 and an elevation outside -11000…9000 m are refused")
    func fovAndElevationOutOfRangeRefused() throws {
        #expect(throws: CameraInputError(field: "fov", message: "must be within 1…60 (got 90)")) {
            _ = try Camera.world.applying(CameraUpdate(fov: 90), limits: CameraLimits())
        }
        #expect(throws: CameraInputError(field: "elevation", message: "must be within -11000…9000 (got 12000)")) {
            _ = try Camera.world.applying(CameraUpdate(elevation: 12_000), limits: CameraLimits())
        }
        #expect(throws: CameraInputError.notFinite(field: "roll", value: .nan)) {
            _ = try Camera.world.applying(CameraUpdate(roll: .nan), limits: CameraLimits())
        }
    }

    @Test("roll, elevation and fov are written as given, -180 and 180 both kept")
    func fieldsWrittenAsGiven() throws {
        let limits = CameraLimits()
        let a = try Camera.world.applying(CameraUpdate(roll: -180, elevation: 1200, fov: 50), limits: limits)
        #expect(a.camera.roll == -180 && a.camera.elevation == 1200 && a.camera.fov == 50 && a.clamped.isEmpty)
        #expect(try Camera.world.applying(CameraUpdate(roll: 180), limits: limits).camera.roll == 180)
    }

    @Test("tilt reaches 85 where the limits allow it, and stops at the room's maxTilt otherwise")
    func tiltToEightyFive() throws {
        let steep = try CameraLimits(maxTilt: 85)
        #expect(try Camera.world.applying(CameraUpdate(tilt: 85), limits: steep).camera.tilt == 85)
        let clamped = try Camera.world.applying(CameraUpdate(tilt: 85), limits: CameraLimits())
        #expect(clamped.camera.tilt == 60 && clamped.clamped == .tilt)
    }

    @Test("maxRoll keeps the roll within ±maxRoll and says the roll was clamped")
    func maxRollClamps() throws {
        let limits = try CameraLimits(maxRoll: 20)
        let out = try Camera.world.applying(CameraUpdate(roll: -35), limits: limits)
        #expect(out.camera.roll == -20 && out.clamped == .roll)
        #expect(throws: CameraInputError(field: "maxRoll", message: "must be within 0.0…180.0 (got 200.0)")) {
            _ = try CameraLimits(maxRoll: 200)
        }
    }

    @Test("a camera without the new fields has its flat defaults")
    func flatDefaults() {
        let camera = Camera(latitude: 1, longitude: 2, zoom: 3)
        #expect(camera.roll == 0 && camera.elevation == 0 && abs(camera.fov - 36.86989764584402) < 1e-12)
        #expect(camera.hasOnlyFlatFields)
        #expect(!Camera(roll: 1).hasOnlyFlatFields && !Camera(elevation: 1).hasOnlyFlatFields && !Camera(fov: 30).hasOnlyFlatFields)
    }

    @Test("roll, elevation and fov are properties of their own", arguments: [CameraProperties.roll, .elevation, .fov])
    func propertiesOfTheirOwn(property: CameraProperties) throws {
        let name = try #require(property.names.first)
        #expect(CameraProperties(name: name) == property)
        #expect(CameraProperties.all.contains(property))
        var changed = Camera.world
        switch property {
        case .roll: changed.roll = 5
        case .elevation: changed.elevation = 5
        default: changed.fov = 5
        }
        #expect(changed.differences(from: .world) == property)
        #expect(CameraProperties.all.names == ["center", "zoom", "bearing", "tilt", "roll", "elevation", "fov", "anchor", "padding"])
    }

    // MARK: geometry

    @Test("roll turns the picture about the centre of perspective", arguments: [30.0, -120.0, 180.0])
    func rollTurnsThePicture(roll: Double) throws {
        let level = Camera(latitude: 48.85, longitude: 2.35, zoom: 13, tilt: 50, bearing: 20, padding: EdgeInsets(top: 0, left: 200, bottom: 40, right: 0))
        var rolled = level
        rolled.roll = roll
        let a = ViewTransform(camera: level, viewport: viewport)
        let b = ViewTransform(camera: rolled, viewport: viewport)
        for geo in [GeoCoordinate(latitude: 48.86, longitude: 2.36), GeoCoordinate(latitude: 48.84, longitude: 2.33)] {
            let p = try #require(a.geoToView(geo))
            let q = try #require(b.geoToView(geo))
            let (dx, dy) = (p.x - a.principalX, p.y - a.principalY)
            let r = roll * .pi / 180
            // The same turn as MapLibre's rotateZ(-roll) in a y-down view: (x, y) → (x cos r + y sin r, -x sin r + y cos r).
            #expect(abs(q.x - (b.principalX + dx * cos(r) + dy * sin(r))) < 1e-6)
            #expect(abs(q.y - (b.principalY - dx * sin(r) + dy * cos(r))) < 1e-6)
        }
    }

    @Test("the field of view sets the eye's distance: half the height over tan(fov / 2)")
    func fovSetsDistance() {
        let t = ViewTransform(camera: Camera(fov: 60), viewport: viewport)
        #expect(abs(t.cameraDistance - 360 / tan(Double.pi / 6)) < 1e-9)
        #expect(abs(ViewTransform(camera: Camera(), viewport: viewport).cameraDistance - 1080) < 1e-9)
    }

    @Test("looking straight down from an elevated centre, the ground is drawn smaller by d / (d + elevation · px per metre)")
    func elevationShrinksTheGround() throws {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 14, elevation: 1000)
        let t = ViewTransform(camera: camera, viewport: viewport)
        let flat = ViewTransform(camera: Camera(latitude: 0, longitude: 0, zoom: 14), viewport: viewport)
        let geo = GeoCoordinate(latitude: 0, longitude: 0.01)
        let p = try #require(t.geoToView(geo))
        let q = try #require(flat.geoToView(geo))
        let perMetre = WebMercator.worldSize(zoom: 14) / (2 * .pi * ViewTransform.earthRadius)
        let expected = 1080 / (1080 + 1000 * perMetre)
        #expect(abs((p.x - 640) / (q.x - 640) - expected) < 1e-9)
        #expect(abs(p.y - 360) < 1e-9)
    }

    @Test(
        "view → ground → view comes back to the same pixel with roll, elevation, fov and tilt to 85",
        arguments: [(85.0, 170.0, 0.0, 20.0), (70.0, -45.0, 3000.0, 36.87), (30.0, 90.0, 500.0, 60.0), (0.0, 0.0, 4000.0, 10.0)])
    func roundTrip(tilt: Double, roll: Double, elevation: Double, fov: Double) throws {
        let camera = Camera(latitude: 35.6, longitude: 139.7, zoom: 12, tilt: tilt, bearing: 300, roll: roll, elevation: elevation, fov: fov)
        let t = ViewTransform(camera: camera, viewport: viewport)
        var hits = 0
        for x in stride(from: 0.0, through: 1280, by: 160) {
            for y in stride(from: 0.0, through: 720, by: 90) {
                guard let geo = t.viewToGeo(ViewPoint(x: x, y: y)) else { continue }
                hits += 1
                let back = try #require(t.geoToView(geo))
                #expect(abs(back.x - x) < 1e-4 && abs(back.y - y) < 1e-4, "(\(x), \(y)) → \(geo) → \(back)")
            }
        }
        #expect(hits > 20)
    }

    @Test("with roll, a point above the tilted horizon has no ground position and says so")
    func aboveTheRolledHorizon() throws {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 10, tilt: 80, roll: 30)
        let t = ViewTransform(camera: camera, viewport: viewport)
        let horizon = try #require(t.horizonY)
        // Just above and just below the horizon in the level picture, turned by the roll.
        #expect(t.viewToGeo(t.rolled(ViewPoint(x: 200, y: horizon - 1))) == nil)
        #expect(t.viewToGeo(t.rolled(ViewPoint(x: 200, y: horizon + 1))) != nil)
    }

    @Test("rolled and elevated, the target is still drawn at its anchor")
    func anchorWithRollAndElevation() throws {
        let camera = Camera(
            latitude: 46.5, longitude: 7.9, zoom: 12, tilt: 70, bearing: 40, anchor: Anchor(x: 0.3, y: 0.75), roll: -25, elevation: 2500)
        let t = ViewTransform(camera: camera, viewport: viewport)
        // The target is `elevation` above its ground position: the point drawn at the anchor is in the target's plane.
        let geo = try #require(t.targetPlanePoint(under: t.anchorPoint))
        #expect(abs(geo.latitude - 46.5) < 1e-9 && abs(geo.longitude - 7.9) < 1e-9)
        #expect(abs(t.anchorPoint.x - 0.3 * 1280) < 1e-9 && abs(t.anchorPoint.y - 0.75 * 720) < 1e-9)
    }

    @Test("the visible quad of a rolled, steep view is drawn inside the viewport")
    func visibleQuadWithRoll() throws {
        let camera = Camera(latitude: 40, longitude: -3.7, zoom: 11, tilt: 80, bearing: 10, roll: 25, elevation: 800, fov: 45)
        let t = ViewTransform(camera: camera, viewport: viewport)
        for geo in t.visibleRegion.quad {
            let p = try #require(t.geoToView(geo))
            #expect(p.x > -1e-6 && p.x < 1280 + 1e-6 && p.y > -1e-6 && p.y < 720 + 1e-6, "\(p)")
        }
    }

    @Test("fit with roll and elevation shows the whole box, touching the padded view on two sides")
    func fitWithRollAndElevation() throws {
        let box = GeoBounds(south: 48.80, west: 2.25, north: 48.90, east: 2.42)
        let camera = Camera(bearing: 20, roll: 15, elevation: 600)
        let fitted = try camera.fitting(box, padding: EdgeInsets(all: 40), viewport: viewport)
        #expect(fitted.tilt == 0 && fitted.roll == 15 && fitted.elevation == 600)
        let t = ViewTransform(camera: fitted, viewport: viewport)
        let corners = [(box.south, box.west), (box.south, box.east), (box.north, box.east), (box.north, box.west)]
        let points = try corners.map { try #require(t.geoToView(GeoCoordinate(latitude: $0.0, longitude: $0.1))) }
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        for p in points { #expect(p.x > 40 - 1e-6 && p.x < 1240 + 1e-6 && p.y > 40 - 1e-6 && p.y < 680 + 1e-6, "\(p)") }
        let fillsWidth = abs(xs.min()! - 40) < 0.01 && abs(xs.max()! - 1240) < 0.01
        let fillsHeight = abs(ys.min()! - 40) < 0.01 && abs(ys.max()! - 680) < 0.01
        #expect(fillsWidth || fillsHeight)
    }
}
