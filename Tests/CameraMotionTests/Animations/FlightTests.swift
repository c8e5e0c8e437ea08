import CameraCore
import Foundation
import Testing

@testable import CameraMotion

/// Reference flights from scripts/make_fly_vectors.py: van Wijk & Nuij's
/// formulas in absolute units, applied as MapLibre's flyTo does (see the
/// file's description). Independent of the Swift implementation.
struct ReferenceFlight: Decodable {
    struct Point: Decodable { let lat: Double, lon: Double, zoom: Double }
    struct Sample: Decodable { let t: Double, lat: Double, lon: Double, zoom: Double }
    struct Size: Decodable { let width: Double, height: Double }
    let name: String
    let start: Point
    let end: Point
    let viewport: Size
    let rho: Double
    let speed: Double
    let duration: Double
    let minZoom: Double?
    let samples: [Sample]
}

private struct FlightFile: Decodable { let flights: [ReferenceFlight] }

@Suite("Flights (flyTo)")
struct FlightTests {
    static let flights: [ReferenceFlight] = (try? JSONDecoder().decode(FlightFile.self, from: vectorData("flights.json")).flights) ?? []

    @Test("the reference flights file is there")
    func fileLoads() { #expect(Self.flights.count >= 3) }

    @Test("flyTo follows the reference path and derives the same duration", arguments: flights.map(\.name))
    func matchesReference(name: String) throws {
        let flight = try #require(Self.flights.first { $0.name == name })
        var m = AnimatorManager(camera: Camera(latitude: flight.start.lat, longitude: flight.start.lon, zoom: flight.start.zoom))
        let request = FlyRequest(
            update: CameraUpdate(latitude: flight.end.lat, longitude: flight.end.lon, zoom: flight.end.zoom),
            speed: flight.speed, rho: flight.rho, minZoom: flight.minZoom,
            viewport: Viewport(width: flight.viewport.width, height: flight.viewport.height))
        _ = m.fly(request, id: "f", owner: driver, at: 0)
        for sample in flight.samples {
            m.advance(to: sample.t * flight.duration)
            #expect(abs(m.camera.zoom - sample.zoom) < 1e-7, "zoom at \(sample.t)")
            #expect(abs(m.camera.latitude - sample.lat) < 1e-7, "lat at \(sample.t)")
            #expect(abs(shortestTurn(from: m.camera.longitude, to: sample.lon)) < 1e-7, "lon at \(sample.t)")
        }
        m.advance(to: flight.duration + 0.01)
        let finished = try #require(m.takeReports().last)
        #expect(finished.status == .finished && abs(finished.time - flight.duration) < 1e-9)
    }

    @Test("a long flight zooms out in the middle and lands exactly")
    func zoomsOutAndLands() {
        var m = AnimatorManager(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12))
        _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 35.68, longitude: 139.76, zoom: 12), duration: 6), owner: driver, at: 0)
        var lowest = 12.0
        for t in stride(from: 0.0, through: 6, by: 0.05) {
            m.advance(to: t)
            lowest = min(lowest, m.camera.zoom)
        }
        #expect(lowest < 6)
        #expect(m.camera.latitude == 35.68 && m.camera.longitude == 139.76 && m.camera.zoom == 12)
    }

    @Test("a flight that changes neither center nor zoom is an ease")
    func bearingOnlyFlightEases() {
        var m = AnimatorManager(camera: Camera(zoom: 5))
        _ = m.fly(FlyRequest(update: CameraUpdate(bearing: 90)), owner: driver, at: 0)
        m.advance(to: 0.5)
        #expect(m.camera.bearing == 90 && !m.isMoving)
    }
}
