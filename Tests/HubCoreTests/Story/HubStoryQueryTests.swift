import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// `query` `story`: those who may edit the storyboard read its steps whole
/// (a storyboard panel lists them); everyone else is refused.
@Suite struct HubStoryQueryTests {
    static let query = #"{"type":"query","id":"s1","what":"story"}"#

    @Test func aPresenterReadsTheStepsWholeWithTheStepTheRoomIsOn() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        bench.send(HubStoryTests.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":1}"#, from: presenter.key)
        bench.send(Self.query, from: presenter.key)
        let result = try #require(bench.messages(presenter.key, type: "result").last)
        #expect(result["id"]?.stringValue == "s1" && result["what"]?.stringValue == "story")
        #expect(result["index"]?.numberValue == 1 && result["playing"]?.boolValue == false && result["drivers"]?.boolValue == false)
        let steps = try #require(result["steps"]?.arrayValue)
        #expect(steps.map { $0["title"]?.stringValue } == ["Lisbon", "Porto", "Madrid"])
        #expect(steps[1]["camera"]?["roll"]?.numberValue == -10 && steps[0]["notes"]?.stringValue == "The Tagus.\nWest.")
        #expect(steps[2]["via"]?.stringValue == "jump" && steps[0]["hold"]?.numberValue == 2)
    }

    @Test func aRoomWithoutAStoryboardAnswersNoStepsOnNoStep() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        bench.send(Self.query, from: presenter.key)
        let result = try #require(bench.messages(presenter.key, type: "result").last)
        #expect(result["steps"]?.arrayValue == [] && result["index"] == .null)
    }

    @Test func followersAndDriversNotAllowedToEditAreRefusedTheSteps() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        let driver = bench.join(role: "driver", name: "d")
        let follower = bench.join(role: "follower", name: "f")
        bench.send(HubStoryTests.threeSteps, from: presenter.key)
        bench.send(Self.query, from: follower.key)
        #expect(bench.lastError(follower.key)?["code"]?.stringValue == "forbidden")
        #expect(bench.lastError(follower.key)?["message"]?.stringValue?.hasPrefix("what: story:") == true)
        bench.send(Self.query, from: driver.key)
        #expect(bench.lastError(driver.key)?["code"]?.stringValue == "forbidden")
        #expect(bench.messages(driver.key, type: "result").isEmpty && bench.messages(follower.key, type: "result").isEmpty)

        bench.send(#"{"type":"story","drivers":true}"#, from: presenter.key)
        bench.send(Self.query, from: driver.key)
        let result = try #require(bench.messages(driver.key, type: "result").last)
        #expect(result["steps"]?.arrayValue?.count == 3 && result["drivers"]?.boolValue == true)
    }

    @Test func theResultReadsBackAsTheStoryboardItWroteInTheClientsDecoder() throws {
        let steps = [
            StoryStep(camera: Camera(latitude: 38.72, longitude: -9.14, zoom: 11, roll: 5), via: .ease, duration: 2, hold: 3, title: "Lisbon"),
            StoryStep(camera: Camera(latitude: 41.15, longitude: -8.61, zoom: 12), notes: "Bridges.\nSouth bank."),
        ]
        for story in [StoryState(steps: steps, index: 1, playing: true, drivers: true), StoryState()] {
            let bytes = HubMessage.result(id: "s1", .story(story))
            guard case .result(let id, let answer) = try HubToClient.decode(bytes) else {
                Issue.record("not a result: \(String(decoding: bytes, as: UTF8.self))")
                continue
            }
            #expect(id == "s1" && answer == .story(story))
        }
        let query = try ClientMessage.decode(Self.query)
        #expect(query == .query(QueryCommand(id: "s1", what: .story)))
        #expect(try ClientMessage.decode(query.encoded) == query)
    }
}
