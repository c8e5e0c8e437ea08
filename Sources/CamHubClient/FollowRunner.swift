import CamHubKit
import CamHubProtocol
import CameraCore

/// Receives a room's frames and events on a joined CamHubKit `Room` (a
/// follower), measures each frame's latency, and says when the room reconnects
/// (the room joins again by itself: `CamHub.connect(reconnect:)`). Used by one
/// task; `run` consumes the room's `messages` and `changes`.
public final class FollowRunner {
    public let room: Room
    public let clock: LatencyClock
    private var histogram = LatencyHistogram()
    private var offset = ClockOffset()
    private var summary = FollowSummary()
    private var pingsSent = 0
    private var nextPing = 0.0
    /// The close that cost the room its connection while it is reconnecting.
    private var lost: ConnectionClose?

    public init(room: Room, clock: LatencyClock) {
        self.room = room
        self.clock = clock
        summary.clock = clock
    }

    /// One received message (welcomes included) with its latency (frames only;
    /// nil when unknown). Our own pongs are not passed on.
    public typealias Output = (ReceivedMessage, Double?) -> Void
    /// The room lost its connection (`lastClose`) and tries again: attempt `attempt` in `after` seconds.
    public typealias Retrying = (_ attempt: Int, _ after: Double, _ lastClose: ConnectionClose) -> Void

    /// Runs until `duration` seconds pass (nil: no limit), `shouldStop`, or the room ends.
    public func run(
        duration: Double?, shouldStop: () -> Bool, retrying: Retrying = { _, _, _ in }, output: Output
    ) async -> FollowSummary {
        let start = monotonicSeconds()
        let end = duration.map { start + $0 }
        let inputs = RoomInputs(room)
        defer { inputs.stop() }
        let waking = end.map { inputs.wake(at: $0) }
        defer { waking?.cancel() }
        var pending = inputs.stream.makeAsyncIterator()
        var ended = false
        while !shouldStop(), !ended {
            let now = monotonicSeconds()
            if let end, now >= end { break }
            if clock == .pong && now >= nextPing { await ping(now) }
            switch await pending.next() {
            case .message(let received)?: handle(received, output: output)
            case .change(.connection(.reconnecting(_, let close)))?: lost = close
            case .change(.retrying(let attempt, let after))?: retrying(attempt, after, lost ?? ConnectionClose(code: CloseCode.dropped))
            case .change(.connection(.open))?: lost = nil
            case .ended?, nil: ended = true
            case .change?, .tick?: break
            }
        }
        await noteEnd(roomEnded: ended)
        summary.seconds = monotonicSeconds() - start
        summary.latency = histogram.summary
        summary.offset = offset.offset
        summary.offsetError = offset.offset == nil ? nil : offset.bestRoundTrip / 2
        return summary
    }

    /// How the run ended for the summary: the room's close when it ended or is between connections.
    private func noteEnd(roomEnded: Bool) async {
        summary.reconnects = await room.reconnects
        var close = lost
        if roomEnded, case .closed(let error) = await room.connection, case .closed(let final)? = error?.kind { close = final }
        if roomEnded, close == nil { close = ConnectionClose(code: CloseCode.dropped) }
        summary.lastClose = close
        summary.disconnected = close.map(describe)
    }

    private func ping(_ now: Double) async {
        // A burst of five at the start (a good first estimate), then one every 2 s.
        pingsSent += 1
        nextPing = now + (pingsSent < 5 ? 0.05 : 2)
        try? await room.send(.ping(t: ReceivedMessage.wallClock()))  // (not joined now: the next one goes)
    }

    private func handle(_ r: ReceivedMessage, output: Output) {
        switch r.message {
        case .frame(let f):
            summary.frames += 1
            if summary.firstSeq == nil { summary.firstSeq = f.seq }
            summary.lastFrame = f
            var latency: Double?
            switch clock {
            case .local: latency = r.receivedAt - f.time
            case .pong: latency = offset.offset.map { r.receivedAt + $0 - f.time }
            }
            if let latency { histogram.record(milliseconds: latency) }
            output(r, latency)
        case .pong(let t, let time):
            if let t { offset.add(sent: t, hubTime: time, received: r.receivedAt) }
        case .welcome:
            nextPing = 0
            output(r, nil)
        case .event, .unknownEvent:
            summary.events += 1
            output(r, nil)
        case .error:
            summary.errors += 1
            output(r, nil)
        default:
            summary.otherMessages += 1
            output(r, nil)
        }
    }
}

extension FollowRunner {
    /// A human line for a received message (text format); `shows`: the camera
    /// this client shows for a frame when it fits it to its screen (`--fit cover`).
    public static func line(_ r: ReceivedMessage, latency: Double?, shows: Camera? = nil) -> String {
        switch r.message {
        case .frame(let f):
            var s = "frame seq \(f.seq)  \(f.camera.summary)  \(f.moving ? "moving" : "at rest")"
            if let by = f.by { s += "  by \(by)" }
            switch f.pointer {
            case .shown(let p): s += "  pointer \(fixed(p.latitude, 5)),\(fixed(p.longitude, 5)) by \(p.by)"
            case .hidden: s += "  pointer hidden"
            case .none: break
            }
            if let latency { s += "  latency \(fixed(latency, 2)) ms" }
            if let shows { s += "\n  shows \(shows.summary)" }
            return s
        case .event, .unknownEvent:
            var fields = (try? JSONParser.parse(r.text ?? ""))?.objectValue ?? [:]
            let name = fields["event"]?.stringValue ?? "?"
            for k in ["type", "event", "time"] { fields[k] = nil }
            return "event \(name)  \(JSONValue.object(fields).text)"
        case .error(let e):
            return "error \(e.code.rawValue)\(e.ref.map { " (ref \($0))" } ?? ""): \(e.message)"
        default:
            return r.jsonText
        }
    }
}

extension ReceivedMessage {
    /// The message as JSON text: as it came, or for a binary frame the JSON frame that says the same.
    public var jsonText: String {
        if let text { return text }
        if case .frame(let frame) = message { return String(decoding: frame.json, as: UTF8.self) }
        return ""
    }
}
