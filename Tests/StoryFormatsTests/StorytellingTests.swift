import CamHubProtocol
import CameraCore
import Foundation
import Testing

@testable import StoryFormats

/// Mapbox storytelling configs: the template's config.js in examples/stories,
/// written back as JSON and read again, and broken ones named.
@Suite struct StorytellingTests {
    @Test func theTemplatesChaptersAreSteps() throws {
        let steps = try StorytellingConfig.read(try KMLTourTests.example("config.js"))
        #expect(steps.map(\.via) == [.fly, .ease, .jump])
        #expect(steps.map(\.title) == ["The Tagus at Lisbon", "The Douro at Porto", "Madrid and the Manzanares"])
        #expect(steps[0].notes == "The river widens into the Mar da Palha before it meets the ocean.\nLisbon sits on its north bank.")
        #expect(steps[2].notes == nil)
        #expect(steps[1].camera == Camera(latitude: 41.1496, longitude: -8.611, zoom: 13, tilt: 60, bearing: -15.5))
        #expect(steps.allSatisfy { $0.hold == nil }, "a scrolled story: autoplay stops at each chapter")
    }

    @Test func aConfigWrittenBackReadsAsTheSameSteps() throws {
        let steps = try StorytellingConfig.read(try KMLTourTests.example("config.js"))
        let written = try StoryFile.write(steps, as: .storytelling, name: "Rivers")
        #expect(try StoryFile.read(written, mediaType: "application/json") == steps)
    }

    @Test func theHubsOwnStepsAreReadAsJSONArrayOrObject() throws {
        let steps = try StorytellingConfig.read(try KMLTourTests.example("config.js"))
        let object = try StoryFile.write(steps, as: .steps, name: "x")
        #expect(try StoryFile.read(object, mediaType: "application/json") == steps)
        #expect(try StoryFile.read(Array(#"[{"camera":{"lat":1,"lon":2,"zoom":3},"title":"One"}]"#.utf8)).map(\.title) == ["One"])
    }

    @Test(arguments: [
        ("var config = { chapters: [ { id: 'a', location: { zoom: 3 } } ] };", "chapters[0] (a): location.center must be [longitude, latitude]"),
        ("var config = {\n title: 'x',\n chapters: [ { location: { center: [1, 2], zoom: foo } } ] };", "line 3: 'foo' is not a value"),
        ("var config = { chapters: [ { location: { center: [1, 2], zoom: 3 }, mapAnimation: 'slide' } ] };", "chapters[0]: mapAnimation must be"),
        (#"{"steps":[{"camera":{"lat":1,"lon":2}}]}"#, "steps[0].camera.zoom: missing"),
        ("{\"title\": 1}", "json: neither steps"),
    ])
    func aBrokenConfigIsRefusedNamingWhere(text: String, expected: String) {
        #expect {
            try StoryFile.read(Array(text.utf8))
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }
}
