import ArgumentParser
import CamHubClient
import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import HubCore

struct Follow: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow a room: print its frames and events as they arrive, and a latency summary on exit.",
        discussion: """
            Joins as a follower at --rate frames per second and prints every frame and
            event. --format json prints each hub message exactly as received, one JSON
            object per line (for jq and other pipelines), starting with the hub's
            {"type":"welcome",…} and ending with a {"type":"summary",…} line. With
            --quiet only the summary is printed, on Ctrl-C or after --duration seconds.

            --rate must lie within 1…the hub's tick (60 Hz unless the hub was started
            with another --tick; at most 240). Flags are checked with the hub's own
            rules before connecting; a rate above this hub's tick is refused by the
            hub, and both say so in the hub's words.

            A follower gets by default the events a map needs (steady, limitsChanged,
            presenterChanged, trackingModeChanged, audience); --events chooses others,
            e.g. --events steady,joined,left,significantChange,tap (--events all for
            every event and animation report; --events none for frames only).

            When the hub goes away or restarts (close 1001 or 1012, or the connection
            drops), follow joins the same room again, waiting 0.25 s doubling to 8 s
            (±25 % jitter) between up to 10 attempts; --format json prints the new
            welcome, and the summary counts "reconnects".

            Latency is the local wall clock when a frame arrives minus the hub's `time`
            in it. --clock local (the default for a hub on this machine) compares the
            two clocks directly; --clock pong (the default for a remote hub) corrects
            by the hub − local offset measured with ping/pong (accurate to half the
            best round trip). The summary says which was used.

            Examples:
              camhub follow --room demo
              camhub follow --room demo --format json | jq -c 'select(.type=="frame") | .camera'
              camhub follow --room demo --rate 10 --quiet --duration 30
              camhub follow --url ws://10.0.0.5:8080/hub --room demo --clock pong
              camhub follow --room demo --fit cover --viewport 390x844

            --fit cover --viewport WxH prints, after each frame, the camera a screen of
            that size shows when it shows at least what the presenter's view shows
            (docs/PROTOCOL.md, Follow mode); with --format json as a
            {"type":"shown","seq":…,"camera":…} line after the frame.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }
    enum Clock: String, ExpressibleByArgument, CaseIterable { case auto, local, pong }

    @OptionGroup var roomConnection: RoomConnectionOptions<Purpose>

    @Option(help: "Frames per second to ask for (1…the hub's tick).")
    var rate = 30.0

    @Option(help: "Output format: text or json (JSON lines).")
    var format = Format.text

    @Flag(help: "Print only the summary on exit.")
    var quiet = false

    @Option(help: "Stop after this many seconds (default: until Ctrl-C).")
    var duration: Double?

    @Option(help: "Latency clock: local, pong, or auto (local for a loopback hub, else pong).")
    var clock = Clock.auto

    @Option(help: "Display name.")
    var name = "camhub-follow"

    @Option(help: "How to fit the room's camera to this screen: same (as it is) or cover (at least what the presenter sees).")
    var fit = FitMode.same

    @Option(help: ArgumentHelp("This screen's size in px, for --fit cover (and the hub's queries).", valueName: "WxH"))
    var viewport: ViewportSize?

    @Option(
        help: ArgumentHelp("Events to get besides frames, comma-separated (all, none, or names from PROTOCOL.md); default: a follower's.", valueName: "list"))
    var events: String?

    var hello: HelloOptions {
        var options = HelloOptions(
            room: roomConnection.room, role: "follower", name: name, token: roomConnection.token, rate: rate, viewport: viewport?.viewport,
            events: events.map(Self.eventList))
        options.fit = fit == .same ? nil : fit.rawValue
        return options
    }

    /// "a,b" → ["a", "b"]; "all" → every name a follower may have; "none" → [] (the hub checks the names).
    static func eventList(_ text: String) -> [String] {
        switch text.trimmingCharacters(in: .whitespaces) {
        case "all": EventSubscriptions.all.subtracting(.forbidden(for: .follower)).names
        case "none", "": []
        default: text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    func validate() throws {
        try checkHello(hello)
        if let duration { guard duration.isFinite, duration > 0 else { throw ValidationError("--duration must be > 0 seconds") } }
        if fit == .cover, viewport == nil { throw ValidationError("--fit cover needs --viewport WxH (this screen's size)") }
    }

    func run() throws {
        let hubURL = try roomConnection.hubURL
        let mode: LatencyClock =
            switch clock {
            case .auto: hubURL.isLoopback ? .local : .pong
            case .local: .local
            case .pong: .pong
            }
        let command = self
        let status = runBlocking { await command.follow(hubURL, clock: mode) }
        if status != 0 { throw ExitCode(status) }
    }

    /// The backoff of a follower that lost its connection: 0.25 s doubling to 8 s, ±25 %, 10 attempts
    /// (after a drain, the first within a window of 1 ms per client of the room, 0.25…10 s).
    static let reconnect = Backoff(delays: [0.25, 0.5, 1, 2, 4, 8], jitter: 0.25, attempts: 10)

    /// Joins, prints what comes until the duration, Ctrl-C or the room's end, then the summary; the exit status.
    private func follow(_ url: HubURL, clock: LatencyClock) async -> Int32 {
        let room: Room
        do { room = try await hello.join(url, reconnect: Self.reconnect) } catch {
            printErr("camhub follow: \(joinFailure(error, hello, url: url))")
            return 1
        }
        let stop = StopFlag()
        stop.installSignalHandlers()
        var printer = FollowPrinter(
            json: format == .json, quiet: quiet, fit: fit == .cover,
            fitting: FollowFit(mode: fit, own: viewport?.viewport ?? Viewport(width: 1280, height: 720)))
        let runner = FollowRunner(room: room, clock: clock)
        let summary = await runner.run(
            duration: duration, shouldStop: { stop.isSet },
            retrying: { attempt, after, close in
                printErr("camhub follow: \(describe(close)); reconnecting in \(String(format: "%.2f", after)) s (attempt \(attempt) of 10)")
            },
            output: { received, latency in printer.print(received, latency: latency) })
        if case .closed(let error?) = await room.connection { printErr("camhub follow: \(Self.ending(error))") }
        await room.close()
        say(format == .json ? summary.json : summary.text)
        return summary.disconnected != nil ? 1 : 0
    }

    /// Why the room ended, for people: the hub refused the hello again, or the attempts ran out.
    static func ending(_ error: CamHubError) -> String {
        if let code = error.code { return "the hub refused the hello: \(code.rawValue): \(error.message)" }
        return error.message.contains("gave up") ? "gave up reconnecting after 10 attempts" : error.message
    }
}

extension Follow {
    /// A follower's room and token.
    enum Purpose: DefaultRoomPurpose {
        static let room = "demo"
        static let roomHelp = "Room to follow."
        static let tokenHelp = "Token, when the hub requires one of followers (a signed room token)."
    }

}

extension FitMode: ExpressibleByArgument {}

/// `--viewport WxH`: a screen size in px (each side 1…16384, the hub's own rule).
struct ViewportSize: ExpressibleByArgument {
    let viewport: Viewport

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
            let viewport = try? Viewport.validated(width: w, height: h)
        else { return nil }
        self.viewport = viewport
    }
}
