import CamHubClient
import CamHubProtocol
import CameraCore
import Foundation
import HubCore
import HubRecording
import WebSocketTransport

/// Plays a `Recording` into a room through one presenter connection, with the
/// recorded timing scaled by `speed`, from `from` seconds on.
struct Replayer {
    let recording: Recording
    let speed: Double
    let from: Double

    struct Outcome {
        var sent = 0
        var refused: [String] = []
        /// The camera of the last animation report that ended one of ours (as JSON).
        var lastEndedCamera: JSONValue?
        /// Set when the hub closed the connection before the replay ended (its close code).
        var closed: String?
    }

    /// The commands to send (t ≥ `from`) and, when starting later than 0, the
    /// messages that bring the room to where the recording was at `from`: the
    /// last `limits` before it, every `story` edit before it, then a `set` to
    /// the last camera an animation ended with before it (exact when nothing
    /// moved at `from`; the room is then on no step of the storyboard).
    func plan() -> (prelude: [String], commands: [(t: Double, viewport: Viewport?, message: String)]) {
        var prelude: [String] = []
        var lastLimits: String?
        var lastCamera: JSONValue?
        var stories: [String] = []
        var commands: [(t: Double, viewport: Viewport?, message: String)] = []
        for entry in recording.entries {
            switch entry.kind {
            case .command(_, _, let viewport, let message):
                if entry.t >= from {
                    commands.append((entry.t, viewport, message))
                } else if message.contains("\"limits\""), (try? JSONParser.parse(message))?["type"]?.stringValue == "limits" {
                    lastLimits = message
                } else if message.contains("\"story\""), (try? JSONParser.parse(message))?["type"]?.stringValue == "story" {
                    stories.append(message)  // edits build on each other: every one, in order
                }
            case .animationEnded(_, _, _, let camera):
                if entry.t < from { lastCamera = camera }
            }
        }
        if let lastLimits { prelude.append(lastLimits) }
        prelude += stories
        if let lastCamera {
            prelude.append(JSONValue.object(["type": .string("set"), "camera": Self.settable(lastCamera)]).text)
        }
        return (prelude, commands)
    }

    /// A recorded camera as a `set` takes it (padding left out: it is not part of `set`'s camera).
    static func settable(_ camera: JSONValue) -> JSONValue {
        guard case .object(var o) = camera else { return camera }
        o["padding"] = nil
        return .object(o)
    }

    /// Sends everything on `connection`, waiting between commands; then waits
    /// for the recording's last entry time and for every animation it started
    /// to end (at any speed: the animations keep their own durations, and
    /// leaving the room would cancel them), at most `longestWait` s more.
    func run(on connection: HubConnection, say: (String) -> Void) -> Outcome {
        var outcome = Outcome()
        let (prelude, commands) = plan()
        for message in prelude { connection.send(message) }
        var declared: Viewport?
        /// Animations of ours the hub reported started and not yet ended.
        var running: Set<String> = []
        let start = monotonicSeconds()
        func drain(until deadline: Double) {
            while true {
                let left = deadline - monotonicSeconds()
                guard let item = connection.next(timeout: max(0, left)) else { return }
                guard case .message(let r) = item else {
                    if case .closed(let event) = item { outcome.closed = event.code.map { "close \($0.rawValue)" } ?? "the connection dropped" }
                    return
                }
                switch r.message {
                case .error(let failure):
                    outcome.refused.append("\(failure.code.rawValue): \(failure.message)")
                    say("replay: the hub refused a command: \(failure.code.rawValue): \(failure.message)")
                case .animation(let a, _) where a.status == .started:
                    if let id = a.id { running.insert(id) }
                case .animation(let a, _) where a.status.isEnd:
                    if let id = a.id { running.remove(id) }
                    outcome.lastEndedCamera = (try? JSONParser.parse(r.text))?["camera"]
                default:
                    break
                }
                if left <= 0 { return }
            }
        }
        for command in commands {
            drain(until: start + (command.t - from) / speed)
            if outcome.closed != nil { return outcome }
            if let viewport = command.viewport, viewport != declared {
                connection.send(ClientMessage.viewport(viewport).json)
                declared = viewport
            }
            connection.send(command.message)
            outcome.sent += 1
        }
        let end = max(recording.entries.map(\.t).max() ?? 0, from)
        drain(until: start + (end - from) / speed + 0.3)
        let deadline = monotonicSeconds() + Self.longestWait
        while !running.isEmpty && outcome.closed == nil && monotonicSeconds() < deadline {
            drain(until: min(deadline, monotonicSeconds() + 0.1))
        }
        return outcome
    }

    /// The most seconds a replay waits after its recording's end for its animations to end.
    static let longestWait = 120.0
}
