import Testing

@testable import CameraCore

@Suite("Camera limits")
struct CameraLimitsTests {
    @Test("defaults are zoom 0…22 and tilt 0…60 with no table and no bounds")
    func defaults() {
        let limits = CameraLimits()
        #expect(limits.minZoom == 0 && limits.maxZoom == 22)
        #expect(limits.minTilt == 0 && limits.maxTilt == 60)
        #expect(limits.maxTiltByZoom.isEmpty && limits.bounds == nil)
    }

    @Test(
        "inconsistent limits are rejected naming the field, and the limits stay as they were",
        arguments: [
            (
                {
                    var c = CameraLimits.Change()
                    c.minZoom = .set(10)
                    c.maxZoom = .set(5)
                    return c
                }(), "minZoom"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.minTilt = .set(50)
                    c.maxTilt = .set(40)
                    return c
                }(), "minTilt"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.maxZoom = .set(.nan)
                    return c
                }(), "maxZoom"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.maxTilt = .set(86)
                    return c
                }(), "maxTilt"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.minZoom = .set(-1)
                    return c
                }(), "minZoom"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.maxZoom = .set(25)
                    return c
                }(), "maxZoom"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.maxTiltByZoom = .set([.init(zoom: 3, tilt: 90)])
                    return c
                }(), "maxTiltByZoom[0].tilt"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.maxTiltByZoom = .set([.init(zoom: 3, tilt: 30), .init(zoom: 3, tilt: 40)])
                    return c
                }(), "maxTiltByZoom"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.bounds = .set(GeoBounds(south: 10, west: 0, north: 5, east: 10))
                    return c
                }(), "bounds.south"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.bounds = .set(GeoBounds(south: 0, west: 0, north: 95, east: 10))
                    return c
                }(), "bounds.north"
            ),
            (
                {
                    var c = CameraLimits.Change()
                    c.bounds = .set(GeoBounds(south: 0, west: -181, north: 5, east: 10))
                    return c
                }(), "bounds.west"
            ),
        ])
    func inconsistentRejected(change: CameraLimits.Change, field: String) throws {
        let before = try CameraLimits(minZoom: 2, maxZoom: 18, minTilt: 5, maxTilt: 45)
        var limits = before
        do {
            limits = try limits.applying(change)
            Issue.record("expected an error for \(field)")
        } catch {
            #expect(error.field == field)
        }
        #expect(limits == before)
    }

    @Test("a partial change keeps the other limits and null resets one to its default")
    func partialChangeAndReset() throws {
        var change = CameraLimits.Change()
        change.maxZoom = .set(12)
        let limits = try CameraLimits(minZoom: 3).applying(change)
        #expect(limits.minZoom == 3 && limits.maxZoom == 12)
        var reset = CameraLimits.Change()
        reset.minZoom = .reset
        #expect(try limits.applying(reset).minZoom == 0)
    }

    @Test("max tilt per zoom interpolates between entries and holds beyond the ends")
    func maxTiltTableInterpolates() throws {
        let limits = try CameraLimits(maxTilt: 80, maxTiltByZoom: [.init(zoom: 15, tilt: 70), .init(zoom: 5, tilt: 30)])
        #expect(limits.maxTilt(atZoom: 0) == 30)
        #expect(limits.maxTilt(atZoom: 10) == 50)
        #expect(limits.maxTilt(atZoom: 20) == 70)
    }

    @Test("the max-tilt table never raises tilt above maxTilt")
    func maxTiltTableCappedByMaxTilt() throws {
        let limits = try CameraLimits(maxTilt: 40, maxTiltByZoom: [.init(zoom: 0, tilt: 85)])
        #expect(limits.maxTilt(atZoom: 10) == 40)
    }

    @Test("tilt is clamped by the max-tilt table at the camera's new zoom")
    func tiltClampedByTableAtNewZoom() throws {
        let limits = try CameraLimits(maxTilt: 85, maxTiltByZoom: [.init(zoom: 2, tilt: 20), .init(zoom: 16, tilt: 85)])
        let result = try Camera(zoom: 16, tilt: 80).applying(CameraUpdate(zoom: 2), limits: limits)
        #expect(result.camera.tilt == 20)
        #expect(result.clamped == .tilt)
    }

    @Test("the target is clamped into bounds")
    func targetClampedIntoBounds() throws {
        let limits = try CameraLimits(bounds: GeoBounds(south: 40, west: -10, north: 50, east: 10))
        let result = try Camera().applying(CameraUpdate(latitude: 60, longitude: 20), limits: limits)
        #expect(result.camera.latitude == 50 && result.camera.longitude == 10)
        #expect(result.clamped == .center)
    }

    @Test("bounds across the antimeridian accept both sides and clamp to the nearer edge")
    func boundsAcrossAntimeridian() throws {
        let limits = try CameraLimits(bounds: GeoBounds(south: -50, west: 170, north: -30, east: -170))
        let inside = try Camera(latitude: -40, longitude: 175).applying(CameraUpdate(longitude: -175), limits: limits)
        #expect(inside.clamped.isEmpty)
        #expect(inside.camera.longitude == -175)
        let west = try Camera(latitude: -40, longitude: 175).applying(CameraUpdate(longitude: 160), limits: limits)
        #expect(west.camera.longitude == 170)
        let east = try Camera(latitude: -40, longitude: 175).applying(CameraUpdate(longitude: -150), limits: limits)
        #expect(abs(east.camera.longitude - (-170)) < 1e-9)
        #expect(east.clamped == .center)
    }

    @Test("clamping to new limits reports what moved")
    func reclampToNewLimits() throws {
        let camera = Camera(latitude: 10, longitude: 10, zoom: 15, tilt: 50)
        let result = camera.clamped(to: try CameraLimits(maxZoom: 10, maxTilt: 30))
        #expect(result.camera.zoom == 10 && result.camera.tilt == 30)
        #expect(result.clamped == [.zoom, .tilt])
    }
}
