import ArgumentParser
import CamHubBench
import CamHubClient
import CamHubProtocol
import Foundation
import HubCore

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load-test a hub: N follower sockets, a presenter that keeps the camera moving, delivery and latency figures.",
        discussion: """
            Opens --followers follower WebSockets (spread over a few client loop
            threads, --connect-rate per second), joins the room as presenter and keeps
            the camera moving (--presenter spin: a built-in endless animation chain; or a
            script file, looped), warms up, then measures for --duration seconds:

            - connected/failed followers, disconnects, hub errors;
            - frames expected vs received, per second and in total. Each follower
              should get rate × duration frames of the window (counted from its first
              frame in the window, so its phase does not matter); delivered % counts at
              most that many per follower;
            - hub→follower latency (p50, p90, p99, p99.9, max; HdrHistogram): the local
              wall clock when a frame arrives minus the hub's `time` in it — the same
              clock when the hub is on this machine;
            - when the hub is local: its CPU (per delivered frame) and RSS (baseline,
              with idle followers, per connection), found by the port in /proc/net/tcp
              and /proc/*/fd (or --hub-pid); and this process's own CPU, so you can see
              whether the hub or the load generator was the bottleneck;
            - with --count-sends, when the hub is local and Linux perf tracepoints
              are readable (root, or perf_event_paranoid ≤ 1): its send syscalls
              per delivered message (sendto/sendmsg/sendmmsg/writev over the window
              ÷ the messages the followers received then; below 1 when a server
              writes several messages at once);
            - the hub's ticks per second (its /healthz, camhub hubs on 127.0.0.1).

            Connecting: at most --connect-rate new connections per second, and at most
            64 handshakes in flight.

            Many rooms: --rooms N spreads the followers round robin over rooms
            ROOM-0 … ROOM-(N−1), each kept moving by its own spin presenter (the
            extra presenters share one client thread); the figures are totals over
            all rooms. --moving P% keeps only the first P % of the rooms moving (the
            others' presenters join and stay still; only followers of moving rooms
            are owed frames), and --idle S first measures the hub's CPU for S seconds
            with every room joined and nothing moving (µs per room per second, RSS
            per room). --moving 0% measures rooms at rest only.

            Only loopback URLs are accepted unless --allow-remote. Every phase has a
            deadline: connecting (followers / connect-rate + 30 s; --connect-timeout),
            settling (30 s), warm-up, the window, and a 2 s
            drain for late frames.

            Exit status: 0 when every connected follower got every frame of the window
            and none failed or disconnected; 1 otherwise.

            Examples:
              camhub serve --port 8080 &                     # the hub (release build for real figures)
              camhub bench --followers 1000 --duration 10
              camhub bench --followers 5000 --rate 30 --duration 30 --json bench-5000.json
              camhub bench --followers 2000 --rate 60 --presenter examples/world-tour.json
              camhub bench --followers 2000 --rooms 200 --duration 20   # 200 rooms of 10
              camhub bench --followers 5000 --rooms 5000 --moving 5% --idle 10 --duration 20
              camhub bench --url ws://127.0.0.1:9000/hub --hub-pid 4242 --followers 200 --duration 5
            """
    )

    @Option(
        help:
            "Hub WebSocket URL, ws:// or wss:// (loopback unless --allow-remote). Repeatable: hubs of one cluster (serve --redis), the followers spread over them round robin, the presenter on the first; hub CPU is the first hub's."
    )
    var url: [String] = []

    @OptionGroup(title: "TLS (wss:// URLs)")
    var tls: TLSClientOptions

    @Option(help: "Room to load.")
    var room = "bench"

    @Option(help: "Rooms to spread the followers over (ROOM-0 … ROOM-(N−1) when N > 1), each with its own spin presenter.")
    var rooms = 1

    @Option(help: ArgumentHelp("Share of the rooms kept moving, as a percentage (5%) or a fraction (0.05).", valueName: "share"))
    var moving = "100%"

    @Option(help: "Seconds of hub CPU measured with every room joined and at rest, before anything moves (0: skip).")
    var idle = 5.0

    @Flag(help: "Give only the moving rooms a presenter (rooms at rest have their followers only): half the sockets, for room counts near the open-file limit.")
    var noRestingPresenters = false

    @Option(help: "Follower sockets to open.")
    var followers = 1000

    @Option(help: "Frames per second each follower asks for.")
    var rate = 30.0

    @Option(help: ArgumentHelp("How the followers' frames come: binary (a third of the bytes) or json text.", valueName: "binary|json"))
    var encoding = "binary"

    @Option(help: "Seconds to measure (after connecting and warming up).")
    var duration = 30.0

    @Option(help: ArgumentHelp("spin (built-in endless animation) or a presenter script file (looped).", valueName: "spin|file"))
    var presenter = "spin"

    @Option(help: "New connections per second.")
    var connectRate = 500.0

    @Option(help: "Longest wait in seconds for all followers to join (default: see above).")
    var connectTimeout: Double?

    @Option(help: "Client loop threads for the followers (default: 1 per 2,500 followers, at most 4).")
    var threads: Int?

    @Option(help: "Seconds of motion before measuring.")
    var warmup = 2.0

    @Option(help: "The hub's process id (default: found by the port when the hub is local).")
    var hubPid: Int32?

    @Flag(
        help: """
            Count the local hub's send syscalls per delivered message (Linux perf tracepoints; root or \
            perf_event_paranoid ≤ 1). Tracing adds to the hub's CPU: measure CPU in a run without it.
            """)
    var countSends = false

    @Option(
        help: ArgumentHelp(
            "The followers' WebSocket client: epoll (plain ws:// sockets, the cheapest to run, so the load generator leaves the hub its CPU) or lws (libwebsockets', as camhub follow uses; always for wss://).",
            valueName: "epoll|lws"))
    var client = "epoll"

    @Option(
        help: ArgumentHelp(
            "How long the epoll client pauses after reading before it waits again (0…50 ms; 0: at once). Reading in batches spares a hub on this machine from waking the load generator for every frame, which it does not pay for followers on other machines.",
            valueName: "ms"))
    var readPauseMs = 1.0

    @Option(help: "Token for the presenter, also sent by the followers: a static presenter token, or a signed one (room * for several rooms).")
    var token: String?

    @Option(help: ArgumentHelp("Also write the report as JSON to this file.", valueName: "file"))
    var json: String?

    @Flag(help: "Allow a hub that is not on this machine (never point this at a host you do not own).")
    var allowRemote = false

    /// "5%" → 0.05, "0.05" → 0.05; anything else (or outside 0…1) is refused naming the option.
    static func share(_ text: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let isPercent = trimmed.hasSuffix("%")
        guard let value = Double(isPercent ? String(trimmed.dropLast()) : trimmed), value.isFinite else {
            throw ValidationError("--moving \(text): expected a percentage such as 5% or a fraction such as 0.05")
        }
        let fraction = isPercent ? value / 100 : value
        guard (0...1).contains(fraction) else { throw ValidationError("--moving \(text): must be between 0% and 100%") }
        return fraction
    }

    func run() throws {
        let hubURL: HubURL
        let urls = url.isEmpty ? ["ws://127.0.0.1:8080/hub"] : url
        hubURL = try tls.hubURL(urls[0])
        var options = BenchOptions(url: hubURL)
        options.moreURLs = try urls.dropFirst().map { try tls.hubURL($0) }
        options.room = room
        options.rooms = rooms
        options.moving = try Self.share(moving)
        options.idleSeconds = idle
        options.restingPresenters = !noRestingPresenters
        options.followers = followers
        options.rate = rate
        guard let frameEncoding = FrameEncoding(rawValue: encoding) else {
            throw ValidationError("--encoding \(encoding): expected binary or json")
        }
        options.encoding = frameEncoding
        options.duration = duration
        options.connectRate = connectRate
        options.threads = threads
        options.connectTimeout = connectTimeout
        options.warmup = max(0, min(warmup, 60))
        options.hubPID = hubPid
        options.countSends = countSends
        guard let followerClient = BenchOptions.FollowerClient(rawValue: client) else {
            throw ValidationError("--client \(client): expected epoll or lws")
        }
        options.followerClient = followerClient
        options.readPauseMilliseconds = readPauseMs
        options.token = token
        options.allowRemote = allowRemote
        if presenter != "spin" {
            let text: String
            do { text = try String(contentsOfFile: presenter, encoding: .utf8) } catch {
                throw ValidationError("--presenter \(presenter): not 'spin' and not a readable file")
            }
            do { options.presenter = .script(try PresenterScript.parse(text), name: presenter) } catch {
                throw ValidationError("--presenter \(presenter): \(error)")
            }
        }
        do { try BenchRunner.validate(options) } catch { throw ValidationError(error.description) }

        let stop = StopFlag()
        stop.installSignalHandlers()
        let live = isatty(1) == 1
        let progress: (String) -> Void = { line in
            if live {
                FileHandle.standardOutput.write(Data(("\r\u{1B}[2K" + line).utf8))
            } else {
                say(line)
            }
        }
        let runner = BenchRunner(options: options, shouldStop: { stop.isSet }, progress: progress)
        let report: BenchReport
        do { report = try runner.run() } catch {
            if live { say("") }
            printErr("camhub bench: \(error)")
            throw ExitCode(1)
        }
        if live { FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8)) }
        say(report.text)
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(report)
            try data.write(to: URL(fileURLWithPath: json))
            say("report written to \(json)")
        }
        if !report.passed { throw ExitCode(1) }
    }
}
