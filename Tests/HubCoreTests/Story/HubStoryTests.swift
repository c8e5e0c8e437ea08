import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// A room's storyboard on the hub: presenters edit and step it, every client
/// hears where the room is, autoplay holds on the hub's clock.
@Suite struct HubStoryTests {
    /// Three steps: Lisbon (ease, 1 s, hold 2), Porto (fly in 2 s, hold 1, 3D), Madrid (jump, no hold).
    static let threeSteps = """
        {"type":"story","op":"set","steps":[\
        {"camera":{"lat":38.72,"lon":-9.14,"zoom":11},"via":"ease","duration":1,"hold":2,"title":"Lisbon","notes":"The Tagus.\\nWest."},\
        {"camera":{"lat":41.15,"lon":-8.61,"zoom":12,"bearing":30,"tilt":60,"roll":-10,"elevation":90,"fov":40},"duration":2,"hold":1,"title":"Porto"},\
        {"camera":{"lat":40.42,"lon":-3.7,"zoom":10},"via":"jump","title":"Madrid"}]}
        """

    /// The time of an event in hub seconds (`HubBench`'s clock).
    static func seconds(_ event: JSONValue) -> Double {
        ((event["time"]?.numberValue ?? 0) - HubBench.epochOffset) / 1000
    }

    @Test func aPresentersStoryboardIsHeardByEveryoneAsStoryChanged() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        let follower = bench.join(role: "follower", name: "f")
        bench.send(Self.threeSteps, from: presenter.key)
        let heard = try #require(bench.events(follower.key, "storyChanged").last)
        #expect(heard["op"]?.stringValue == "set" && heard["count"]?.numberValue == 3 && heard["index"] == .null)
        #expect(heard["by"]?.stringValue == presenter.client && heard["drivers"]?.boolValue == false)
    }

    @Test func steppingNextStartsTheStepsMoveAndEveryoneHearsStoryStep() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        let follower = bench.join(role: "follower", name: "f")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":"next"}"#, from: presenter.key)
        bench.send(#"{"type":"step","to":"next","id":"porto"}"#, from: presenter.key)
        let heard = try #require(bench.events(follower.key, "storyStep").last)
        #expect(heard["index"]?.numberValue == 1 && heard["count"]?.numberValue == 3 && heard["title"]?.stringValue == "Porto")
        #expect(heard["notes"] == .null && heard["playing"]?.boolValue == false && heard["by"]?.stringValue == presenter.client)
        let step = Camera(latitude: 41.15, longitude: -8.61, zoom: 12, tilt: 60, bearing: 30, roll: -10, elevation: 90, fov: 40)
        #expect(heard["camera"] == wireCamera(step))
        #expect(bench.animations(presenter.key).contains { $0["id"]?.stringValue == "porto" && $0["status"]?.stringValue == "started" })
        bench.run(seconds: 2.5)
        #expect(bench.room()?.camera == step, "the move lands on every field of the step's camera")
    }

    @Test func aLateJoinerFindsTheStepInItsWelcome() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":0}"#, from: presenter.key)
        let late = bench.join(role: "follower", name: "late")
        let story = try #require(bench.welcome(late.key)?["story"])
        #expect(story["count"]?.numberValue == 3 && story["index"]?.numberValue == 0)
        #expect(story["title"]?.stringValue == "Lisbon" && story["notes"]?.stringValue == "The Tagus.\nWest.")
        #expect(story["playing"]?.boolValue == false)
    }

    @Test func aRoomWithoutAStoryboardWelcomesWithoutOne() {
        let bench = HubBench()
        let follower = bench.join(role: "follower", name: "f")
        #expect(bench.welcome(follower.key)?["story"] == nil)
    }

    @Test func autoplayHoldsEachStepOnTheHubsClockThenGoesOn() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        let follower = bench.join(role: "follower", name: "f")
        bench.send(Self.threeSteps, from: presenter.key)
        let start = bench.now
        bench.send(#"{"type":"step","to":"play"}"#, from: presenter.key)
        bench.run(seconds: 10)
        let steps = bench.events(follower.key, "storyStep")
        #expect(steps.map { $0["index"]?.numberValue } == [0, 1, 2])
        // Lisbon eases 1 s and holds 2; Porto flies 2 s and holds 1; Madrid is a jump without hold: autoplay stops there.
        #expect(abs(Self.seconds(steps[1]) - (start + 3)) <= 1 / bench.tick + 1e-9)
        #expect(abs(Self.seconds(steps[2]) - (start + 6)) <= 1 / bench.tick + 1e-9)
        #expect(steps.map { $0["playing"]?.boolValue } == [true, true, false])
        #expect(bench.room()?.camera.latitude == 40.42)
    }

    @Test func anotherCommandInterruptsTheStepsMoveStopsAutoplayAndSaysSo() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        let follower = bench.join(role: "follower", name: "f")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":"play"}"#, from: presenter.key)
        bench.runTicks(10)
        bench.send(#"{"type":"fly","camera":{"zoom":3}}"#, from: presenter.key)
        let ended = try #require(bench.animations(presenter.key).first { $0["status"]?.stringValue == "superseded" })
        #expect(ended["reason"]?.stringValue == "highLevel")
        let stopped = try #require(bench.events(follower.key, "storyStep").last)
        #expect(stopped["index"]?.numberValue == 0 && stopped["playing"]?.boolValue == false)
        bench.run(seconds: 10)
        #expect(bench.events(follower.key, "storyStep").count == 2, "autoplay does not go on")
    }

    @Test func aGestureInterruptsTheStepsMove() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":"play"}"#, from: presenter.key)
        bench.runTicks(5)
        bench.send(#"{"type":"gesture","kind":"pan","phase":"begin","x":100,"y":100}"#, from: presenter.key)
        let ended = try #require(bench.animations(presenter.key).last)
        #expect(["cancelled", "superseded"].contains(ended["status"]?.stringValue) && ended["reason"]?.stringValue == "gesture")
        #expect(bench.events(presenter.key, "storyStep").last?["playing"]?.boolValue == false)
    }

    @Test func pauseStopsAutoplayAndTheMoveGoesOn() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":"play"}"#, from: presenter.key)
        bench.runTicks(5)
        bench.send(#"{"type":"step","to":"pause"}"#, from: presenter.key)
        #expect(bench.events(presenter.key, "storyStep").last?["playing"]?.boolValue == false)
        bench.run(seconds: 10)
        #expect(bench.room()?.camera.latitude == 38.72, "the step's ease finished; no next step")
        #expect(bench.events(presenter.key, "storyStep").count == 2)
    }

    @Test func badInputIsRefusedNamingTheFieldAndRangeAndChangesNothing() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        bench.send(Self.threeSteps, from: presenter.key)
        let cases: [(String, String)] = [
            (#"{"type":"story","op":"remove","index":3}"#, "index: must be within 0…2 (got 3)"),
            (#"{"type":"story","op":"move","from":0,"to":7}"#, "to: must be within 0…2 (got 7)"),
            (#"{"type":"step","to":5}"#, "to: must be within 0…2 (got 5)"),
            (#"{"type":"step","to":"previous"}"#, "to: previous: the room is on no step yet"),
            (#"{"type":"step","to":"sideways"}"#, "to: unknown step 'sideways' (next, previous, play, pause or a step's index)"),
            (
                #"{"type":"story","op":"insert","steps":[{"camera":{"lat":1,"lon":2}}]}"#,
                "steps[0].camera.zoom: missing (a step's camera needs lat, lon and zoom)"
            ),
            (
                #"{"type":"story","op":"insert","steps":[{"camera":{"lat":1,"lon":2,"zoom":3},"via":"jump","duration":2}]}"#,
                "steps[0].duration: a jump takes no time (via is jump)"
            ),
            (
                #"{"type":"story","op":"insert","steps":[{"camera":{"lat":1,"lon":2,"zoom":3},"hold":-1}]}"#,
                "steps[0].hold: must be within 0…3600 seconds (got -1.0)"
            ),
            (
                #"{"type":"story","op":"insert","steps":[{"camera":{"lat":1,"lon":2,"zoom":3},"via":"drift"}]}"#,
                "steps[0].via: unknown way 'drift' (known: fly, ease, jump)"
            ),
            (
                #"{"type":"story","op":"update","index":0,"step":{"camera":{"lat":1,"lon":2,"zoom":3},"title":"\#(String(repeating: "a", count: 121))"}}"#,
                "step.title: must be at most 120 characters (got 121)"
            ),
            (#"{"type":"story","op":"shuffle"}"#, "op: unknown op 'shuffle' (known: set, insert, update, move, remove)"),
        ]
        for (message, expected) in cases {
            bench.send(message, from: presenter.key)
            let error = try #require(bench.lastError(presenter.key))
            #expect(error["code"]?.stringValue == "bad_message" && error["message"]?.stringValue == expected, "\(message)")
        }
        let story = try #require(bench.hub.roomStates.first?.story)
        #expect(story.steps.map(\.title) == ["Lisbon", "Porto", "Madrid"] && story.index == nil)
        #expect(bench.answersPing(presenter.key))
    }

    @Test func driversMayEditAndStepOnlyWhereAPresenterAllowsIt() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        let driver = bench.join(role: "driver", name: "d")
        let follower = bench.join(role: "follower", name: "f")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":"next"}"#, from: driver.key)
        #expect(bench.lastError(driver.key)?["code"]?.stringValue == "forbidden")
        bench.send(#"{"type":"step","to":"next"}"#, from: follower.key)
        #expect(bench.lastError(follower.key)?["code"]?.stringValue == "forbidden")
        bench.send(#"{"type":"story","drivers":true}"#, from: presenter.key)
        #expect(bench.events(driver.key, "storyChanged").last?["drivers"]?.boolValue == true)
        bench.send(#"{"type":"step","to":"next"}"#, from: driver.key)
        #expect(bench.events(follower.key, "storyStep").last?["by"]?.stringValue == driver.client)
        bench.send(#"{"type":"story","drivers":false}"#, from: driver.key)
        #expect(bench.lastError(driver.key)?["message"]?.stringValue == "drivers: only a presenter may let drivers edit and step the storyboard")
    }

    @Test func editsKeepTheRoomOnItsStep() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":1}"#, from: presenter.key)
        bench.send(#"{"type":"story","op":"move","from":1,"to":0}"#, from: presenter.key)
        #expect(bench.events(presenter.key, "storyChanged").last?["index"]?.numberValue == 0)
        bench.send(#"{"type":"story","op":"insert","index":0,"steps":[{"camera":{"lat":0,"lon":0,"zoom":1},"title":"World"}]}"#, from: presenter.key)
        #expect(bench.events(presenter.key, "storyChanged").last?["index"]?.numberValue == 1)
        bench.send(#"{"type":"story","op":"remove","index":1}"#, from: presenter.key)
        let last = try #require(bench.events(presenter.key, "storyChanged").last)
        #expect(last["index"] == .null && last["count"]?.numberValue == 3)
    }

    @Test func theStoryboardIsKeptWithTheRoomAndComesBackPaused() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":"play"}"#, from: presenter.key)
        let kept = try #require(bench.hub.roomStates.first)
        #expect(kept.story?.steps.count == 3 && kept.story?.index == 0)
        let restarted = HubBench()
        restarted.hub.restore([kept])
        let follower = restarted.join(role: "follower", name: "f")
        let story = try #require(restarted.welcome(follower.key)?["story"])
        #expect(story["index"]?.numberValue == 0 && story["title"]?.stringValue == "Lisbon" && story["playing"]?.boolValue == false)
    }

    @Test func autoplayStopsWhenTheClientItPlaysAsLeavesDuringAHold() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "p")
        let follower = bench.join(role: "follower", name: "f")
        bench.send(Self.threeSteps, from: presenter.key)
        bench.send(#"{"type":"step","to":"play"}"#, from: presenter.key)
        bench.run(seconds: 1.5)  // Lisbon's ease ended: the hold runs
        bench.disconnect(presenter.key)
        let stopped = try #require(bench.events(follower.key, "storyStep").last)
        #expect(stopped["index"]?.numberValue == 0 && stopped["playing"]?.boolValue == false)
        bench.run(seconds: 5)
        #expect(bench.events(follower.key, "storyStep").count == 2, "no step after the hold")
    }
}
