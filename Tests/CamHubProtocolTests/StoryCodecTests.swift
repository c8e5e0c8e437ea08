import CameraCore
import Testing

@testable import CamHubProtocol

/// Storyboard steps on the wire: what a client sends comes back whole, and
/// what the room store and the cluster keep reads back as it was.
@Suite struct StoryCodecTests {
    static let steps: [StoryStep] = {
        var lisbon = StoryStep(
            camera: Camera(latitude: 38.72, longitude: -9.14, zoom: 11), via: .ease, duration: 2, hold: 4, title: "Lisbon",
            notes: "Line one.\nLine two.")
        lisbon.curve = .cubicBezier(0.1, 0.2, 0.3, 0.4)
        var porto = StoryStep(camera: Camera(latitude: 41.15, longitude: -8.61, zoom: 12, tilt: 60, bearing: 30, roll: -10, elevation: 90, fov: 40))
        porto.speed = 2.5
        porto.essential = true
        var madrid = StoryStep(
            camera: Camera(latitude: 40.42, longitude: -3.7, zoom: 10, padding: EdgeInsets(top: 0, left: 300, bottom: 0, right: 0)), via: .jump)
        madrid.writesPlacement = true
        return [lisbon, porto, madrid]
    }()

    @Test func everyStoryEditComesBackFromItsEncoding() throws {
        let commands: [StoryCommand] = [
            StoryCommand(op: .set(Self.steps)), StoryCommand(op: .set([]), drivers: true),
            StoryCommand(op: .insert([Self.steps[1]], at: 0)), StoryCommand(op: .insert(Self.steps, at: nil)),
            StoryCommand(op: .update(Self.steps[2], at: 7)), StoryCommand(op: .move(from: 3, to: 0)),
            StoryCommand(op: .remove(at: 1)), StoryCommand(op: nil, drivers: false),
        ]
        for command in commands {
            let message = ClientMessage.story(command)
            #expect(try ClientMessage.decode(message.encoded) == message, "\(message.json)")
        }
        for to in [StepTarget.next, .previous, .index(4), .play, .pause] {
            let message = ClientMessage.step(StepCommand(to: to, id: to == .next ? "n1" : nil))
            #expect(try ClientMessage.decode(message.encoded) == message, "\(message.json)")
        }
    }

    @Test func theKeptStoryboardReadsBackAsItWas() throws {
        let state = StoryState(steps: Self.steps, index: 1, playing: true, drivers: true)
        #expect(try StoryState.decode(state.encoded()) == state)
        #expect(try StoryState.decode(StoryState().encoded()) == StoryState())
    }

    @Test func aKeptStoryboardOnAStepItDoesNotHaveIsRefusedNamingIt() {
        let bytes = Array(#"{"steps":[{"camera":{"lat":1,"lon":2,"zoom":3}}],"index":4}"#.utf8)
        #expect(throws: ProtocolError.self) { try StoryState.decode(bytes) }
        do {
            _ = try StoryState.decode(bytes)
        } catch {
            #expect(error.message == "index: must be a step's index within 0…0 (got 4.0)")
        }
    }
}
