import ArgumentParser
import CamHubClient
import CamHubProtocol
import Foundation

@main
struct CamHub: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camhub",
        abstract: "One authoritative map camera per room, synced to many clients over WebSocket.",
        discussion: """
            Start a hub and open the viewer:
              camhub serve                      # http://localhost:8080/?room=demo
            Drive it and watch it from the command line:
              camhub present --room demo --script examples/world-tour.json
              camhub follow --room demo
            Load-test it:
              camhub bench --followers 1000 --duration 10
            Sign a room token for a hub started with --token-secret-file:
              camhub token --secret-file secret --room demo --role presenter --ttl 2h
            """,
        subcommands: [Serve.self, Present.self, Follow.self, Bench.self, Token.self, Replay.self, Story.self]
    )
}

/// The hub's limits as the command line knows them before connecting.
enum HubLimits {
    /// The highest `camhub serve --tick`: no hub accepts a higher `--rate`.
    static let maxTick: Double = 240
}

/// The `hello` fields a command sets from its flags (field → flag).
private let helloFlags = [
    "room": "--room", "role": "--role", "name": "--name", "token": "--token", "rate": "--rate", "fit": "--fit",
    "viewport.width": "--viewport", "viewport.height": "--viewport",
]

/// Checks `hello` before connecting with the hub's own decoder (at the highest
/// tick a hub runs) and reports a bad field as its flag, in the hub's words:
/// "--rate: must be within 1…240 frames per second (got 500.0)".
func checkHello(_ hello: HelloOptions) throws {
    do { try hello.validate(tick: HubLimits.maxTick) } catch {
        throw ValidationError(flagWords(error.message) ?? "hello: \(error.message)")
    }
}

/// "rate: must be …" → "--rate: must be …" for a field set by a flag.
private func flagWords(_ message: String) -> String? {
    guard let colon = message.firstIndex(of: ":"), let flag = helloFlags[String(message[..<colon])] else { return nil }
    return flag + message[colon...]
}

/// The hub's refusal of a `hello`, for people: it names the flag and keeps the
/// hub's words ("the hub refused --rate 100: rate: must be within 1…60 frames
/// per second (got 100.0)").
func joinFailure(_ hub: ProtocolError, _ hello: HelloOptions) -> String {
    if let colon = hub.message.firstIndex(of: ":"), let flag = helloFlags[String(hub.message[..<colon])] {
        let values = [
            "--room": hello.room, "--role": hello.role, "--name": hello.name,
            "--rate": hello.rate.map { JSONWriter.plain($0) },
        ]
        let shown = values[flag].flatMap { $0 }.map { " \($0)" } ?? ""
        return "the hub refused \(flag)\(shown): \(hub.message)"
    }
    return "the hub refused the hello: \(hub.code): \(hub.message)"
}

/// Writes `text` to standard output at once (no buffering: pipelines see each
/// line as it comes). When the reader has gone (`camhub follow | head -1`),
/// exits quietly with status 0 instead of trapping on the broken pipe.
func writeStdout(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if n > 0 {
            offset += n
        } else if n < 0 && errno == EINTR {
            continue
        } else if n < 0 && errno == EPIPE {
            exit(0)
        } else {
            return  // stdout closed or broken otherwise: nothing more to do with it
        }
    }
}
