import CamHubProtocol
import CameraCore
import Foundation
import Gzip
import Testing

@testable import StoryFormats

/// Google Earth tours read into steps and written back: the hand-written
/// tour in examples/stories, the view geometry, KMZ, and broken files named.
@Suite struct KMLTourTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/stories")

    static func example(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: examples.appendingPathComponent(name))) }

    @Test func theHandWrittenTourIsFourStepsWithTheirWaysHoldsAndBalloons() throws {
        let steps = try KMLTour.read(try Self.example("iberia-tour.kml"))
        #expect(steps.map(\.via) == [.fly, .ease, .fly, .fly])
        #expect(steps.map(\.duration) == [4, 5, 6, 8])
        #expect(steps.map(\.hold) == [3, nil, 4, 0], "waits hold, the pause stops autoplay, the last goes on at once")
        #expect(steps.map(\.title) == ["Lisbon", "Porto & the Douro", "Madrid", nil])
        #expect(steps[0].notes == "Where the Tagus meets the Atlantic.\nSeven hills, one river.")
        #expect(steps[1].notes == "Bridges over the Douro, seen from the south bank.")
    }

    @Test func aLookAtLooksAtItsPointFromItsRange() throws {
        let lisbon = try KMLTour.read(try Self.example("iberia-tour.kml"))[0].camera
        #expect(lisbon.latitude == 38.7223 && lisbon.longitude == -9.1393 && lisbon.bearing == 20 && lisbon.tilt == 45)
        // The eye is `range` metres from the point at the reference viewport (MapLibre's distance model).
        #expect(abs(CameraDistance.metres(zoom: lisbon.zoom, latitude: lisbon.latitude) - 12000) < 1e-6)
        let transform = ViewTransform(camera: lisbon, viewport: CameraDistance.referenceViewport)
        #expect(abs(transform.cameraDistance / transform.pixelsPerMeter - 12000) < 1e-6, "as ViewTransform places the eye")
    }

    @Test func aCameraLooksWhereItsLineOfSightMeetsTheGround() throws {
        let porto = try KMLTour.read(try Self.example("iberia-tour.kml"))[1].camera
        // Eye 1500 m up at 41.13 N, tilted 60° looking north: the ground 1500 · tan 60° = 2598 m north.
        let expected = CameraDistance.destination(
            from: GeoCoordinate(latitude: 41.13, longitude: -8.611), heading: 0, metres: 1500 * tan(60 * Double.pi / 180))
        #expect(abs(porto.latitude - expected.latitude) < 1e-12 && abs(porto.longitude - expected.longitude) < 1e-12)
        #expect(abs(porto.latitude - 41.1534) < 1e-3)
        #expect(abs(CameraDistance.metres(zoom: porto.zoom, latitude: porto.latitude) - 3000) < 1e-6, "1500 / cos 60°")
        #expect(porto.tilt == 60)
    }

    @Test func aTourWrittenAndReadBackKeepsItsSteps() throws {
        let original = try KMLTour.read(try Self.example("iberia-tour.kml"))
        var rolled = original
        rolled[2].camera.roll = -12
        let back = try KMLTour.read(Array(KMLTour.write(rolled, name: "Iberia").utf8))
        #expect(back.map(\.via) == rolled.map(\.via) && back.map(\.duration) == rolled.map(\.duration))
        #expect(back.map(\.title) == rolled.map(\.title) && back.map(\.notes) == rolled.map(\.notes))
        #expect(back.dropLast().map(\.hold) == rolled.dropLast().map(\.hold))
        for (a, b) in zip(back, rolled) {
            for (x, y) in [(a.camera.latitude, b.camera.latitude), (a.camera.longitude, b.camera.longitude), (a.camera.zoom, b.camera.zoom)] {
                #expect(abs(x - y) < 1e-9)
            }
            #expect(abs(a.camera.bearing - b.camera.bearing) < 1e-9 && abs(a.camera.tilt - b.camera.tilt) < 1e-9 && a.camera.roll == b.camera.roll)
        }
    }

    @Test func aKMZIsReadFromItsDocKML() throws {
        let kml = try Self.example("iberia-tour.kml")
        let kmz = try Zip.archive([Zip.Entry(name: "images/x.png", bytes: [1, 2, 3]), Zip.Entry(name: "doc.kml", bytes: kml)])
        #expect(try StoryFile.read(kmz, mediaType: "application/vnd.google-earth.kmz") == KMLTour.read(kml))
        #expect(try StoryFile.read(kmz) == KMLTour.read(kml), "told by its first bytes")
        let written = try StoryFile.write(try KMLTour.read(kml), as: .kmz, name: "Iberia")
        #expect(try Zip.entries(written).map(\.name) == ["doc.kml"])
    }

    @Test(arguments: [
        ("<kml><Document><gx:Tour></Document></kml>", "line 1: not well-formed XML"),
        ("<kml xmlns:gx=\"g\"><Document/></kml>", "kml: no gx:Tour"),
        (
            "<kml xmlns:gx=\"g\">\n<gx:Tour><gx:Playlist>\n<gx:FlyTo><gx:duration>2</gx:duration></gx:FlyTo>\n</gx:Playlist></gx:Tour></kml>",
            "FlyTo (line 3): no LookAt or Camera"
        ),
        (
            "<kml xmlns:gx=\"g\"><gx:Tour><gx:Playlist>\n\n<gx:FlyTo><LookAt>\n<latitude>1</latitude><range>9</range></LookAt></gx:FlyTo></gx:Playlist></gx:Tour></kml>",
            "LookAt (line 3): longitude missing"
        ),
        (
            "<kml xmlns:gx=\"g\"><gx:Tour><gx:Playlist><gx:FlyTo><LookAt><longitude>1</longitude><latitude>2</latitude><range>far</range></LookAt></gx:FlyTo></gx:Playlist></gx:Tour></kml>",
            "LookAt (line 1): range 'far' is not a number"
        ),
        (
            "<kml xmlns:gx=\"g\"><gx:Tour><gx:Playlist><gx:FlyTo><gx:flyToMode>warp</gx:flyToMode><LookAt/></gx:FlyTo></gx:Playlist></gx:Tour></kml>",
            "FlyTo (line 1): gx:flyToMode must be bounce or smooth (got 'warp')"
        ),
    ])
    func aBrokenTourIsRefusedNamingTheElementOrLine(kml: String, expected: String) {
        #expect {
            try KMLTour.read(Array(kml.utf8))
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }
}
