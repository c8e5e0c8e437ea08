import CamHubProtocol
import Foundation
import HubCore
import HubRecording
import SocketTestSupport
import Testing

/// `camhub serve --record DIR` and `camhub replay`: a presentation recorded
/// on one hub and played into another ends on the same camera, to the bit.
extension CLITests {
    private func joinedCamera(port: Int, room: String) throws -> JSONValue {
        let follow = try camhub(["follow", "--url", "ws://127.0.0.1:\(port)/hub", "--room", room, "--format", "json", "--duration", "0.2"])
        #expect(follow.status == 0, "\(follow.stderr)")
        let welcome = try JSONParser.parse(String(try #require(follow.stdout.split(separator: "\n").first)))
        return try #require(welcome["camera"])
    }

    /// Every number of `a` and `b` equal bit for bit (so -0.0 differs from 0.0).
    private func sameBits(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): x.bitPattern == y.bitPattern
        case (.object(let x), .object(let y)): x.keys == y.keys && x.allSatisfy { sameBits($0.value, y[$0.key]!) }
        default: a == b
        }
    }

    @Test func aReplayedRecordingEndsOnTheRecordedCameraToTheBit() throws {
        let dir = try TempDir()
        let record = dir.path + "/recordings"
        try dir.write(
            "show.json",
            """
            {"name": "show", "steps": [
              {"type": "viewport", "width": 1024, "height": 700},
              {"type": "fly", "id": "paris", "camera": {"lat": 48.85661234567, "lon": 2.35221987654, "zoom": 10.3}, "duration": 1},
              {"type": "waitFor", "id": "paris"},
              {"type": "animate", "id": "spin", "to": {"bearing": 77.7, "tilt": 33.3}, "duration": 0.6},
              {"type": "waitFor", "id": "spin"},
              {"type": "wait", "seconds": 0.3},
              {"type": "ease", "id": "near", "camera": {"zoom": 12.123456789}, "around": {"x": 300.5, "y": 211.25}, "duration": 0.5},
              {"type": "waitFor", "id": "near"}
            ]}
            """)
        let recording = try ServeProcess(camhubPath, ["--web", dir.path, "--record", record])
        let present = try camhub(
            [
                "present", "--url", "ws://127.0.0.1:\(recording.port)/hub", "--room", "show",
                "--script", dir.path + "/show.json", "--plain",
            ], timeout: .seconds(20))
        #expect(present.status == 0, "\(present.stderr)")
        let original = try joinedCamera(port: recording.port, room: "show")
        #expect(recording.stop(SIGTERM) == 0)

        let files = try FileManager.default.contentsOfDirectory(atPath: record + "/show").map { record + "/show/" + $0 }
        #expect(files.count == 1 && files[0].hasSuffix("-001.jsonl.gz"), "\(files)")
        let file = try #require(files.first)
        let read = try Recording.read([file])
        #expect(read.room == "show")
        #expect(!read.truncated, "SIGTERM ends the file")
        let types: [String] = read.entries.compactMap {
            guard case .command(_, let role, let viewport, let message) = $0.kind else { return nil }
            #expect(role == "presenter")
            #expect(viewport?.width == 1024 && viewport?.height == 700, "the sender's viewport with each command")
            return (try? JSONParser.parse(message))?["type"]?.stringValue
        }
        #expect(types == ["fly", "animate", "ease"], "viewport and hello are folded in or left out")
        let recordedFinal = try #require(read.finalCamera)
        #expect(sameBits(recordedFinal, original), "the recording's last camera is the room's: \(recordedFinal) vs \(original)")

        let replayHub = try ServeProcess(camhubPath, ["--web", dir.path])
        let replay = try camhub(["replay", file, "--url", "ws://127.0.0.1:\(replayHub.port)/hub"], timeout: .seconds(30))
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("3 commands sent, 0 refused; final camera as recorded"), "\(replay.stdout)")
        let replayed = try joinedCamera(port: replayHub.port, room: "show")
        #expect(sameBits(replayed, original), "\(replayed) vs \(original)")

        // --from the last command's time: the room first gets the camera the spin ended on, then the ease.
        let easeAt = try #require(
            read.entries.first {
                if case .command(_, _, _, let message) = $0.kind { (try? JSONParser.parse(message))?["type"]?.stringValue == "ease" } else { false }
            }?.t)
        let partial = try camhub(
            [
                "replay", file, "--url", "ws://127.0.0.1:\(replayHub.port)/hub", "--room", "later",
                "--from", String(easeAt),
            ], timeout: .seconds(30))
        #expect(partial.status == 0, "\(partial.stdout)\(partial.stderr)")
        #expect(partial.stdout.contains("1 command sent, 0 refused; final camera as recorded"), "\(partial.stdout)")
        #expect(sameBits(try joinedCamera(port: replayHub.port, room: "later"), original))

        // Eight times faster: the commands come sooner, but each animation keeps its duration, and the
        // replay stays until the last one has ended (leaving would cancel it mid-way).
        let fast = try camhub(
            ["replay", file, "--url", "ws://127.0.0.1:\(replayHub.port)/hub", "--room", "fast", "--speed", "8"], timeout: .seconds(30))
        #expect(fast.status == 0, "\(fast.stdout)\(fast.stderr)")
        let fastCamera = try joinedCamera(port: replayHub.port, room: "fast")
        #expect(fastCamera["zoom"]?.numberValue == 12.123456789, "the last ease ran to its end: \(fastCamera)")
        #expect(replayHub.stop() == 0)
    }

    @Test func replayRefusesAFileThatIsNotARecording() throws {
        let dir = try TempDir()
        try dir.write("notes.txt", "hello\n")
        let result = try camhub(["replay", dir.path + "/notes.txt", "--url", "ws://127.0.0.1:9/hub"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("camhub replay: \(dir.path)/notes.txt:1: "), "\(result.stderr)")
    }

    @Test func serveWithAnUnwritableRecordFolderSaysSoAndExits1() throws {
        let dir = try TempDir()
        try dir.write("file", "x")
        let result = try camhub(["serve", "--port", "0", "--web", dir.path, "--record", dir.path + "/file/rec"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--record \(dir.path)/file/rec: cannot create the folder"), "\(result.stderr)")
    }
}

extension CLITests {
    /// A storyboard set and stepped through is recorded, and a replay leaves the
    /// other hub's room with the same storyboard on the same step and camera.
    @Test func aRecordedStoryboardIsReplayedOntoItsStep() throws {
        let dir = try TempDir()
        let record = dir.path + "/recordings"
        try dir.write(
            "story.json",
            """
            {"name": "story", "steps": [
              {"type": "story", "op": "set", "steps": [
                {"camera": {"lat": 38.72, "lon": -9.14, "zoom": 11}, "via": "ease", "duration": 0.3, "title": "Lisbon"},
                {"camera": {"lat": 41.15, "lon": -8.61, "zoom": 12, "bearing": 30, "roll": -10}, "duration": 0.4, "title": "Porto"}]},
              {"type": "step", "to": "next", "id": "one"},
              {"type": "waitFor", "id": "one"},
              {"type": "step", "to": "next", "id": "two"},
              {"type": "waitFor", "id": "two"}
            ]}
            """)
        let recording = try ServeProcess(camhubPath, ["--web", dir.path, "--record", record])
        let present = try camhub(
            ["present", "--url", "ws://127.0.0.1:\(recording.port)/hub", "--room", "story", "--script", dir.path + "/story.json", "--plain"],
            timeout: .seconds(20))
        #expect(present.status == 0, "\(present.stderr)")
        #expect(recording.stop(SIGTERM) == 0)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: record + "/story").first.map { record + "/story/" + $0 })
        let types: [String] = try Recording.read([file]).entries.compactMap {
            guard case .command(_, _, _, let message) = $0.kind else { return nil }
            return (try? JSONParser.parse(message))?["type"]?.stringValue
        }
        #expect(types == ["story", "step", "step"])
        // The recording as a storyboard: a step per finished animation, on the camera it finished on.
        let converted = try camhub(["story", "convert", file])
        #expect(converted.status == 0, "\(converted.stderr)")
        let steps = try JSONParser.parse(converted.stdout)["steps"]?.arrayValue ?? []
        #expect(steps.count == 2 && steps.last?["camera"]?["roll"]?.numberValue == -10 && steps.last?["camera"]?["lat"]?.numberValue == 41.15)

        let replayHub = try ServeProcess(camhubPath, ["--web", dir.path])
        let replay = try camhub(["replay", file, "--url", "ws://127.0.0.1:\(replayHub.port)/hub"], timeout: .seconds(30))
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("3 commands sent, 0 refused; final camera as recorded"), "\(replay.stdout)")
        let follow = try camhub(["follow", "--url", "ws://127.0.0.1:\(replayHub.port)/hub", "--room", "story", "--format", "json", "--duration", "0.2"])
        let welcome = try JSONParser.parse(String(try #require(follow.stdout.split(separator: "\n").first)))
        #expect(welcome["story"]?["index"]?.numberValue == 1 && welcome["story"]?["title"]?.stringValue == "Porto")
        #expect(welcome["camera"]?["roll"]?.numberValue == -10)
        #expect(replayHub.stop() == 0)
    }
}
