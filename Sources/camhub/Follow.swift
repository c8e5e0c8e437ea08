import ArgumentParser
import CamHubClient
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
        let connection: HubConnection
        do {
            connection = try HubConnection.join(hubURL, hello: hello)
        } catch {
            printErr("camhub follow: \(joinFailure(error, hello))")
            throw ExitCode(1)
        }
        defer { connection.shutdown() }
        let w = connection.welcome!
        let json = format == .json
        if !quiet {
            if json {
                say(connection.welcomeText ?? "")
            } else {
                say(
                    "camhub follow: joined \(w.room) as \(w.client) at \(JSONWriter.plain(w.rate)) frames/s (tick \(JSONWriter.plain(w.tick)) Hz); camera \(w.camera.summary)"
                )
            }
        }
        let stop = StopFlag()
        stop.installSignalHandlers()
        let out = LineWriter()
        let runner = FollowRunner(connection: connection, clock: mode)
        var fitting = FollowFit(mode: fit, own: viewport?.viewport ?? Viewport(width: 1280, height: 720))
        /// Clients in the room as the hub last said (welcome, `audience` events): how widely to spread a return after a drain.
        var audience = 0
        func note(_ message: JSONValue) {
            fitting.note(message)
            if let clients = message["clients"]?.numberValue { audience = Int(clients) }
        }
        if let text = connection.welcomeText, let welcome = try? JSONParser.parse(text) { note(welcome) }
        if fit == .cover, !quiet { out.line(shownLine(seq: w.seq, camera: fitting.shown(w.camera), json: json)) }
        let end = duration.map { monotonicSeconds() + $0 }
        var summary: FollowSummary
        while true {
            summary = runner.run(
                duration: end.map { max(0, $0 - monotonicSeconds()) }, shouldStop: { stop.isSet },
                output: { received, latency in
                    if case .event = received.message, let event = try? JSONParser.parse(received.text) { note(event) }
                    guard !quiet else { return }
                    var shows: Camera?
                    if fit == .cover, case .frame(let f) = received.message { shows = fitting.shown(f.camera) }
                    guard json else { return out.line(FollowRunner.line(received, latency: latency, shows: shows)) }
                    out.line(received.text)
                    if let shows, case .frame(let f) = received.message { out.line(shownLine(seq: f.seq, camera: shows, json: true)) }
                })
            guard let close = summary.lastClose, Reconnect.worthRetrying(close),
                let again = rejoin(
                    hubURL, after: summary.disconnected ?? "closed", drainedAudience: Reconnect.isDrain(close) ? audience : nil, until: end,
                    stop: stop)
            else { break }
            runner.resume(with: again)
            if let text = again.welcomeText, let welcome = try? JSONParser.parse(text) { note(welcome) }
            if !quiet {
                say(
                    json
                        ? again.welcomeText ?? ""
                        : "camhub follow: rejoined \(again.welcome!.room) as \(again.welcome!.client); camera \(again.welcome!.camera.summary)")
            }
        }
        out.flush()
        say(json ? summary.json : summary.text)
        if summary.disconnected != nil { throw ExitCode(1) }
    }
}

extension Follow {
    /// A follower's room and token.
    enum Purpose: DefaultRoomPurpose {
        static let room = "demo"
        static let roomHelp = "Room to follow."
        static let tokenHelp = "Token, when the hub requires one of followers (a signed room token)."
    }

    /// What a screen of `--viewport` shows with `--fit cover` for the frame `seq` (or the welcome's).
    func shownLine(seq: UInt64, camera: Camera, json: Bool) -> String {
        json ? "{\"type\":\"shown\",\"seq\":\(seq),\"camera\":\(camera.wireJSON)}" : "  shows \(camera.summary)"
    }

    /// After the hub closed with 1001/1012 or the connection dropped: joins the
    /// same room again, waiting `Reconnect.delay` between attempts (backoff with
    /// jitter; the first after a drain spread over the room's audience,
    /// `drainedAudience`), until `end`, a stop signal, a refused hello, or 10 failed attempts.
    func rejoin(_ url: HubURL, after why: String, drainedAudience: Int?, until end: Double?, stop: StopFlag) -> HubConnection? {
        for attempt in 0..<10 {
            let wait = attempt == 0 && drainedAudience != nil ? Reconnect.drainWait(audience: drainedAudience ?? 0) : Reconnect.delay(attempt: attempt)
            if let end, monotonicSeconds() + wait >= end { return nil }
            printErr("camhub follow: \(why); reconnecting in \(String(format: "%.2f", wait)) s (attempt \(attempt + 1) of 10)")
            let until = monotonicSeconds() + wait
            while monotonicSeconds() < until {
                if stop.isSet { return nil }
                usleep(20_000)
            }
            do {
                return try HubConnection.join(url, hello: hello, timeout: 5)
            } catch {
                if error.hubError != nil {
                    printErr("camhub follow: \(joinFailure(error, hello))")
                    return nil
                }
            }
        }
        printErr("camhub follow: gave up reconnecting after 10 attempts")
        return nil
    }
}

/// Standard output, one write per line (frames come at most 240 times a second;
/// pipelines such as `jq` see each line at once).
final class LineWriter {
    func line(_ text: String) {
        writeStdout(text + "\n")
    }

    func flush() {}
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
