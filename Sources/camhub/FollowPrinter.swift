import CamHubClient
import CamHubKit
import CamHubProtocol
import CameraCore

/// What `camhub follow` prints of each message: the welcome (a line, or its
/// JSON as it came), a rejoin's welcome, frames and events (a line each, or
/// each message's JSON), and with `--fit cover` the camera this screen shows
/// after each frame. One line per write (pipelines such as `jq` see each at once).
struct FollowPrinter {
    let json: Bool
    let quiet: Bool
    /// `--fit cover`: a `shown` line after the welcome and each frame.
    let fit: Bool
    /// The room's view and limits as the welcome and events said (for `--fit cover`).
    var fitting: FollowFit
    private var welcomes = 0

    init(json: Bool, quiet: Bool, fit: Bool, fitting: FollowFit) {
        self.json = json
        self.quiet = quiet
        self.fit = fit
        self.fitting = fitting
    }

    mutating func print(_ received: ReceivedMessage, latency: Double?) {
        if case .welcome = received.message { return welcome(received) }
        if case .event = received.message, let event = try? JSONParser.parse(received.text ?? "") { fitting.note(event) }
        guard !quiet else { return }
        var shows: Camera?
        if fit, case .frame(let f) = received.message { shows = fitting.shown(f.camera) }
        guard json else { return line(FollowRunner.line(received, latency: latency, shows: shows)) }
        line(received.jsonText)
        if let shows, case .frame(let f) = received.message { line(Self.shownLine(seq: f.seq, camera: shows, json: true)) }
    }

    /// The first welcome ("joined …", then what the screen shows), or a rejoin's.
    private mutating func welcome(_ received: ReceivedMessage) {
        guard case .welcome(let w, _) = received.message else { return }
        welcomes += 1
        if let text = received.text, let parsed = try? JSONParser.parse(text) { fitting.note(parsed) }
        guard !quiet else { return }
        if json {
            line(received.jsonText)
        } else if welcomes == 1 {
            line(
                "camhub follow: joined \(w.room) as \(w.client) at \(JSONWriter.plain(w.rate)) frames/s (tick \(JSONWriter.plain(w.tick)) Hz); camera \(w.camera.summary)"
            )
        } else {
            line("camhub follow: rejoined \(w.room) as \(w.client); camera \(w.camera.summary)")
        }
        if fit, welcomes == 1 { line(Self.shownLine(seq: w.seq, camera: fitting.shown(w.camera), json: json)) }
    }

    /// What a screen of `--viewport` shows with `--fit cover` for the frame `seq` (or the welcome's).
    static func shownLine(seq: UInt64, camera: Camera, json: Bool) -> String {
        json ? "{\"type\":\"shown\",\"seq\":\(seq),\"camera\":\(camera.wireJSON)}" : "  shows \(camera.summary)"
    }

    private func line(_ text: String) { writeStdout(text + "\n") }
}
