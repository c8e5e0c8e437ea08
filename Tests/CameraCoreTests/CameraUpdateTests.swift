import Testing

@testable import CameraCore

@Suite("Writing a camera update")
struct CameraUpdateTests {
    let limits = CameraLimits()
    let start = Camera(latitude: 10, longitude: 20, zoom: 5, tilt: 10, bearing: 30)

    @Test("an update writes only the fields it names")
    func partialUpdate() throws {
        let result = try start.applying(CameraUpdate(zoom: 7), limits: limits)
        #expect(result.camera == Camera(latitude: 10, longitude: 20, zoom: 7, tilt: 10, bearing: 30))
        #expect(result.clamped.isEmpty)
    }

    @Test(
        "non-finite numbers are rejected with the field named and nothing written",
        arguments: [
            (CameraUpdate(latitude: .nan), "lat"), (CameraUpdate(longitude: .infinity), "lon"),
            (CameraUpdate(zoom: -.infinity), "zoom"), (CameraUpdate(tilt: .nan), "tilt"),
            (CameraUpdate(bearing: .nan), "bearing"), (CameraUpdate(anchor: Anchor(x: .nan, y: 0.5)), "anchor.x"),
        ])
    func nonFiniteRejected(update: CameraUpdate, field: String) {
        #expect(throws: CameraInputError.self) { try start.applying(update, limits: limits) }
        do { _ = try start.applying(update, limits: limits) } catch { #expect(error.field == field) }
    }

    @Test("latitudes beyond ±90 are rejected, not clamped", arguments: [90.0001, -91, 1e6])
    func latitudeBeyondPoleRejected(lat: Double) {
        #expect(throws: CameraInputError(field: "lat", message: "must be within -90…90 degrees (got \(lat))")) {
            try start.applying(CameraUpdate(latitude: lat), limits: limits)
        }
    }

    @Test("latitude between the Mercator edge and the pole is clamped to ±85.051129 and reported")
    func latitudeClampedToMercator() throws {
        let north = try start.applying(CameraUpdate(latitude: 89), limits: limits)
        #expect(north.camera.latitude == WebMercator.maxLatitude)
        #expect(north.clamped == .center)
        let south = try start.applying(CameraUpdate(latitude: -90), limits: limits)
        #expect(south.camera.latitude == -WebMercator.maxLatitude)
    }

    @Test("zoom is clamped to the limits and reported")
    func zoomClamped() throws {
        let high = try start.applying(CameraUpdate(zoom: 30), limits: limits)
        #expect(high.camera.zoom == 22)
        #expect(high.clamped == .zoom)
        let low = try start.applying(CameraUpdate(zoom: -3), limits: limits)
        #expect(low.camera.zoom == 0)
    }

    @Test("tilt is clamped to min and max tilt and reported")
    func tiltClamped() throws {
        let high = try start.applying(CameraUpdate(tilt: 80), limits: limits)
        #expect(high.camera.tilt == 60)
        #expect(high.clamped == .tilt)
        let negative = try start.applying(CameraUpdate(tilt: -5), limits: limits)
        #expect(negative.camera.tilt == 0)
        #expect(negative.clamped == .tilt)
    }

    @Test(
        "bearing is normalized to [0, 360) without being reported as clamped",
        arguments: [
            (370.0, 10.0), (-10, 350), (360, 0), (-720, 0), (719.5, 359.5),
        ])
    func bearingNormalized(input: Double, expected: Double) throws {
        let result = try start.applying(CameraUpdate(bearing: input), limits: limits)
        #expect(abs(result.camera.bearing - expected) < 1e-12)
        #expect(result.camera.bearing >= 0 && result.camera.bearing < 360)
        #expect(result.clamped.isEmpty)
    }

    @Test("an anchor outside the view is clamped into 0…1 and reported")
    func anchorClamped() throws {
        let result = try start.applying(CameraUpdate(anchor: Anchor(x: 1.5, y: -0.2)), limits: limits)
        #expect(result.camera.anchor == Anchor(x: 1, y: 0))
        #expect(result.clamped == .anchor)
    }

    @Test("longitude stays continuous across the antimeridian and reads wrapped")
    func longitudeContinuous() throws {
        let east = Camera(latitude: 0, longitude: 179, zoom: 3)
        let crossed = try east.applying(CameraUpdate(longitude: -179), limits: limits).camera
        #expect(crossed.continuousLongitude == 181)
        #expect(crossed.longitude == -179)
        let back = try crossed.applying(CameraUpdate(longitude: 170), limits: limits).camera
        #expect(back.continuousLongitude == 170)
    }

    @Test(
        "a longitude beyond ±180 is accepted and read wrapped to [-180, 180)",
        arguments: [
            (190.0, -170.0), (-190, 170), (540, -180), (180, -180),
        ])
    func longitudeWrappedOnRead(input: Double, expected: Double) throws {
        let result = try Camera(latitude: 0, longitude: 0, zoom: 2).applying(CameraUpdate(longitude: input), limits: limits)
        #expect(abs(result.camera.longitude - expected) < 1e-9)
    }

    @Test("several clamped fields are all reported")
    func severalClampsReported() throws {
        let result = try start.applying(CameraUpdate(latitude: 88, zoom: 40, tilt: 70), limits: limits)
        #expect(result.clamped == [.center, .zoom, .tilt])
    }
}

@Suite("Longitude wrapping")
struct LongitudeWrapTests {
    @Test("a longitude already in range is returned bit for bit", arguments: [2.3522219, -179.99999999999997, 0.1 + 0.2, -180])
    func inRangeUntouched(lon: Double) {
        #expect(wrapLongitude(lon).bitPattern == lon.bitPattern)
    }
}
