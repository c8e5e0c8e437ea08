import CamHubProtocol
import Foundation
import SocketTestSupport
import Testing

/// `camhub story`: a tour file imported into a room on a real hub, a config
/// converted to KML, and a broken file refused naming where.
extension CLITests {
    static let stories = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/stories").path

    @Test func aTourImportedIntoARoomIsWhatAJoinerFindsInItsWelcome() throws {
        let dir = try TempDir()
        let hub = try ServeProcess(camhubPath, ["--web", dir.path])
        let imported = try camhub(
            ["story", "import", Self.stories + "/iberia-tour.kml", "--room", "iberia", "--hub", "ws://127.0.0.1:\(hub.port)/hub"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("4 steps of"), "\(imported.stdout)")
        let follow = try camhub(["follow", "--url", "ws://127.0.0.1:\(hub.port)/hub", "--room", "iberia", "--format", "json", "--duration", "0.2"])
        let welcome = try JSONParser.parse(String(try #require(follow.stdout.split(separator: "\n").first)))
        #expect(welcome["story"]?["count"]?.numberValue == 4 && welcome["story"]?["index"] == .null)
        #expect(hub.stop() == 0)
    }

    @Test func aStorytellingConfigConvertsToATourThatConvertsBack() throws {
        let dir = try TempDir()
        let kml = try camhub(["story", "convert", Self.stories + "/config.js", "--to", "kml", "-o", dir.path + "/rivers.kml"])
        #expect(kml.status == 0, "\(kml.stderr)")
        let steps = try camhub(["story", "convert", dir.path + "/rivers.kml", "--to", "json"])
        let back = try JSONParser.parse(steps.stdout)
        #expect(
            back["steps"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["The Tagus at Lisbon", "The Douro at Porto", "Madrid and the Manzanares"])
    }

    @Test func aBrokenTourIsRefusedNamingItsLineWithExitStatus2() throws {
        let dir = try TempDir()
        try dir.write("broken.kml", "<kml xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n<gx:Tour>\n<gx:Playlist>\n</gx:Tour>\n</kml>\n")
        let result = try camhub(["story", "convert", dir.path + "/broken.kml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("camhub story convert: line 4: not well-formed XML"), "\(result.stderr)")
    }
}
