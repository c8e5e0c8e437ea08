import ArgumentParser
import CamHubClient
import CamHubProtocol
import Foundation
import HubCore
import HubRecording

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a recording (camhub serve --record) into a room as a presenter, with its original timing.",
        discussion: """
            FILE is one part of a recording, DIR/<room>/<start>-<part>.jsonl.gz; give
            several parts in order to play them as one. Every recorded command is sent
            as it was, at its recorded time (divided by --speed), with the sender's
            viewport declared before it when it changes. Replaying into a room at the
            hub's defaults reproduces the recorded camera path and, once the last
            animation ended, the recorded final camera exactly (docs/RECORDING.md says
            when it cannot: several senders, gestures, --speed other than 1).

            --from T starts T seconds into the recording: the room first gets the last
            limits and the last camera an animation ended with before T, then the
            commands from T on play with their timing.

            Examples:
              camhub replay recordings/demo/20261123T220000Z-001.jsonl.gz --room demo
              camhub replay part1.jsonl.gz part2.jsonl.gz --url ws://10.0.0.5:8080/hub --room rerun --speed 2 --from 30

            Exit status: 0 when every command was accepted; 1 when the hub refused one
            or the connection failed; 2 for a file that is not a recording.
            """
    )

    @Argument(help: ArgumentHelp("Recording file(s), in order (gzip or plain JSON lines).", valueName: "file"))
    var files: [String]

    @OptionGroup var roomConnection: RoomConnectionOptions<Purpose>

    @Option(help: "Playback speed: 2 plays the waits between commands twice as fast (animations keep their own durations).")
    var speed = 1.0

    @Option(help: ArgumentHelp("Start this many seconds into the recording.", valueName: "seconds"))
    var from = 0.0

    @Option(help: "Display name.")
    var name = "camhub-replay"

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one recording file") }
        guard speed.isFinite, speed > 0, speed <= 1000 else { throw ValidationError("--speed must be above 0 and at most 1000 (got \(speed))") }
        guard from.isFinite, from >= 0 else { throw ValidationError("--from must be seconds ≥ 0 (got \(from))") }
        if let room = roomConnection.givenRoom { do { _ = try RoomName(validating: room) } catch { throw ValidationError("--room: \(error)") } }
    }

    func run() throws {
        let recording: Recording
        do { recording = try Recording.read(files) } catch {
            printErr("camhub replay: \(error)")
            throw ExitCode(2)
        }
        if recording.truncated { printErr("camhub replay: note: the recording ends mid-file (the hub was stopped hard); playing what it holds") }
        let target = roomConnection.givenRoom ?? recording.room
        let hubURL = try roomConnection.hubURL
        let hello = HelloOptions(room: target, role: "presenter", name: name, token: roomConnection.token, rate: 1, events: ["animation"])
        let connection: HubConnection
        do { connection = try HubConnection.join(hubURL, hello: hello) } catch {
            printErr("camhub replay: \(error)")
            throw ExitCode(1)
        }
        let last = recording.entries.map(\.t).max() ?? 0
        say(
            "camhub replay: \(recording.entries.count) entries of room \(recording.room) (\(JSONWriter.plain(last)) s) into room \(target) at \(JSONWriter.plain(speed))×"
        )
        let outcome = Replayer(recording: recording, speed: speed, from: from).run(on: connection) { say($0) }
        connection.shutdown()
        var summary = "camhub replay: done: \(outcome.sent) command\(outcome.sent == 1 ? "" : "s") sent, \(outcome.refused.count) refused"
        if let recorded = recording.finalCamera, let camera = outcome.lastEndedCamera {
            summary += camera == recorded ? "; final camera as recorded" : "; final camera differs from the recording"
        }
        if let closed = outcome.closed { summary += "; the hub ended the connection early (\(closed))" }
        say(summary)
        if !outcome.refused.isEmpty || outcome.closed != nil { throw ExitCode(1) }
    }
}

extension Replay {
    /// A replay's room (the recorded one unless --room) and its presenter token.
    enum Purpose: RoomConnectionPurpose {
        static let roomHelp = "Room to play into (default: the recorded room)."
        static let tokenHelp = "Presenter token, when the hub requires one."
        static let defaultRoom: String? = nil
    }
}
