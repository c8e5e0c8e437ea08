import CamHubProtocol
import CameraCore
import Foundation
import Testing

@testable import HubCore

/// A room on the globe moves its camera along MapLibre's globe paths (the
/// paths themselves are checked against MapLibre in CameraMotionTests).
@Suite("Hub: ease and fly on the globe")
struct HubGlobeMotionTests {
    /// The camera the room's `finished` report carries after `command`, in a
    /// room drawn with `projection`, from Lisbon at zoom 3.
    static func finished(_ command: String, projection: String) throws -> JSONValue {
        let bench = HubBench()
        let d = bench.join(role: "driver", viewport: (1280, 720))
        bench.send(#"{"type":"projection","projection":"\#(projection)"}"#, from: d.key)
        bench.send(#"{"type":"set","camera":{"lat":38.72,"lon":-9.14,"zoom":3}}"#, from: d.key)
        bench.send(command, from: d.key)
        bench.run(seconds: 8)
        let report = try #require(bench.animations(d.key).last { $0["status"]?.stringValue == "finished" })
        return try #require(report["camera"])
    }

    @Test func aFlightWithoutAZoomKeepsTheGlobesSizeOnScreen() throws {
        let fly = #"{"type":"fly","camera":{"lat":64.15,"lon":-21.94}}"#
        let globe = try Self.finished(fly, projection: "globe")
        let flat = try Self.finished(fly, projection: "mercator")
        // The globe's radius is worldSize / (2π cos φ): the zoom changes by log2(cos φ1 / cos φ0).
        let kept = 3 + log2(cos(64.15 * .pi / 180) / cos(38.72 * .pi / 180))
        #expect(abs((globe["zoom"]?.numberValue ?? .nan) - kept) < 1e-9)
        #expect(flat["zoom"]?.numberValue == 3, "the flat map keeps the zoom it has")
    }

    @Test func anEaseToANewCentreOnTheGlobeKeepsItsSizeAndHoldsTheZoom() throws {
        let ease = #"{"type":"ease","camera":{"lat":-33.87,"lon":151.21},"duration":1}"#
        let globe = try Self.finished(ease, projection: "globe")
        let kept = 3 + log2(cos(33.87 * .pi / 180) / cos(38.72 * .pi / 180))
        #expect(abs((globe["zoom"]?.numberValue ?? .nan) - kept) < 1e-9)
        #expect(try Self.finished(ease, projection: "mercator")["zoom"]?.numberValue == 3)
    }

    @Test func fromZoomTwelveOnTheGlobeMovesAsTheFlatMap() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver", viewport: (1280, 720))
        bench.send(#"{"type":"projection","projection":"globe"}"#, from: d.key)
        bench.send(#"{"type":"set","camera":{"lat":38.72,"lon":-9.14,"zoom":12}}"#, from: d.key)
        bench.send(#"{"type":"ease","camera":{"lat":38.8,"lon":-9.0},"duration":1}"#, from: d.key)
        bench.run(seconds: 2)
        let report = try #require(bench.animations(d.key).last { $0["status"]?.stringValue == "finished" })
        #expect(report["camera"]?["zoom"]?.numberValue == 12, "MapLibre draws the globe flat from zoom 12")
    }
}
