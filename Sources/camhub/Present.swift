import ArgumentParser
import CamHubClient
import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import Synchronization

struct Present: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a presenter script: fly, ease, animate, set, wait, waitFor and gestures, with progress and a report.",
        discussion: """
            A script is a JSON object {"name": "...", "steps": [...]} (as in examples/),
            or just the list of steps. Command steps have the protocol's fields
            (docs/PROTOCOL.md) and are checked by the hub's own decoder before anything
            connects; a bad step is reported with its number and field, and nothing runs.

              {"name": "Paris, then a spin",
               "steps": [
                {"type": "fly", "id": "paris", "camera": {"lat": 48.8566, "lon": 2.3522, "zoom": 11}},
                {"type": "waitFor", "id": "paris"},
                {"type": "wait", "seconds": 1.5},
                {"type": "animate", "id": "spin", "to": {"bearing": 90, "tilt": 50}, "duration": 3},
                {"type": "gesture", "kind": "pan", "from": {"x": 640, "y": 360}, "to": {"x": 400, "y": 360}, "duration": 1},
                {"type": "gesture", "kind": "doubleTap", "x": 640, "y": 360}
              ]}

            Steps: set, ease, fly, animate, cancel, gesture, gestures, limits, track,
            route, viewport, summon, followPolicy, pointer (protocol messages); wait {seconds}; waitFor {id, timeout?} (until
            that animation finished, was superseded, cancelled or refused). A gesture
            with a duration is a stroke: pan {from, to}, pinch {x, y, scale, rotation?},
            tilt {dy, x?, y?}, rotate {rotation, x?, y?}, sent as begin/change…/end at
            60 Hz (momentum: true lets a pan fling). fly/ease/animate without an id get
            one ("step3"); every step may have a "label".

            Examples:
              camhub present --room demo --script examples/world-tour.json
              camhub present --room demo --script examples/tilt-and-spin.json --loop
              camhub present --url ws://127.0.0.1:8080/hub --room demo --script tour.json --token s3cret --name ana
              camhub present --script tour.json --check      # validate only, do not connect

            Exit status: 0 when every step ran and the hub reported no error; 1
            otherwise; 2 for a script that does not validate.
            """
    )

    @OptionGroup var roomConnection: RoomConnectionOptions<Purpose>

    @Option(help: ArgumentHelp("The presenter script (JSON).", valueName: "file"))
    var script: String

    @Option(help: "Display name.")
    var name = "camhub-present"

    @Option(help: "Role to join as: presenter (wins conflicts) or driver.")
    var role = "presenter"

    @Flag(help: "Run the script again and again until Ctrl-C.")
    var loop = false

    @Flag(help: "Validate the script and exit without connecting.")
    var check = false

    @Flag(help: "Plain output (no progress bars redrawn in place), also when writing to a terminal.")
    var plain = false

    var hello: HelloOptions { HelloOptions(room: roomConnection.room, role: role, name: name, token: roomConnection.token) }

    func validate() throws {
        guard ["presenter", "driver"].contains(role) else { throw ValidationError("--role must be presenter or driver (got \(role))") }
        try checkHello(hello)
    }

    func run() throws {
        let text: String
        do { text = try String(contentsOfFile: script, encoding: .utf8) } catch {
            throw ValidationError("--script \(script): cannot read the file (\(error.localizedDescription))")
        }
        let parsed: PresenterScript
        do { parsed = try PresenterScript.parse(text) } catch {
            printErr("camhub present: \(script): \(error)")
            throw ExitCode(2)
        }
        if check {
            say(
                "\(script): \(parsed.steps.count) steps OK" + (parsed.name.map { " (\($0))" } ?? "")
                    + ", at least \(JSONWriter.plain((parsed.plannedSeconds * 10).rounded() / 10)) s of waits and strokes")
            return
        }
        let hubURL = try roomConnection.hubURL
        let (hello, plain, loop, script) = (hello, plain, loop, self.script)
        let status = runBlocking { await Self.present(parsed, named: script, at: hubURL, hello: hello, plain: plain, loop: loop) }
        if status != 0 { throw ExitCode(status) }
    }

    /// Joins (a script does not rejoin: see the summary's note), runs the script, prints the report; the exit status.
    private static func present(_ parsed: PresenterScript, named script: String, at url: HubURL, hello: HelloOptions, plain: Bool, loop: Bool) async
        -> Int32
    {
        let room: Room
        do { room = try await hello.join(url, reconnect: nil) } catch {
            printErr("camhub present: \(joinFailure(error, hello, url: url))")
            return 1
        }
        guard let w = await room.welcome else { return 1 }  // (connect returns once welcomed)
        say("camhub present: \(parsed.name ?? script), \(parsed.steps.count) steps; joined \(w.room) as \(w.client) (\(w.role)); camera \(w.camera.summary)")
        let stop = StopFlag()
        stop.installSignalHandlers()
        let printer = PresentPrinter(stepCount: parsed.steps.count, live: !plain && isatty(1) == 1) { text in
            writeStdout(text)
        }
        let runner = PresenterRunner(room: room, script: parsed, shouldStop: { stop.isSet }, onEvent: printer.handle)
        let report = await runner.run(loop: loop)
        await room.close()
        say(PresentPrinter.summary(report))
        return !report.succeeded && !(report.interrupted && report.errors.isEmpty && report.problems.isEmpty) ? 1 : 0
    }
}

extension Present {
    /// A presenter's room and token.
    enum Purpose: DefaultRoomPurpose {
        static let room = "demo"
        static let roomHelp = "Room to present in."
        static let tokenHelp = "Presenter token, when the hub requires one."
    }
}

/// Set by SIGINT/SIGTERM; polled by the long-running subcommands (any thread).
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    /// The signal sources, kept alive as long as the flag.
    private let sources = Mutex<[DispatchSourceSignal]>([])

    var isSet: Bool { raised.load(ordering: .acquiring) }

    func raise() { raised.store(true, ordering: .releasing) }

    func installSignalHandlers() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            sources.withLock { sources in
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { [weak self] in self?.raise() }
                source.resume()
                sources.append(source)
            }
        }
    }
}

/// A line on standard error.
func printErr(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
