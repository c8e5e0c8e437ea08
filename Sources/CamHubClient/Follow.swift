import CamHubProtocol
import CameraCore
import Foundation
import HubCore
import WebSocketTransport

/// How `follow` turns a frame's hub `time` into a latency.
public enum LatencyClock: String, Sendable, CaseIterable, Codable {
    /// Local wall clock − frame time: exact when the hub runs on this machine.
    case local
    /// Local wall clock + (hub − local offset from ping/pong) − frame time.
    case pong
}

/// What `camhub follow` measured.
public struct FollowSummary: Sendable {
    public var frames = 0
    public var events = 0
    public var errors = 0
    public var otherMessages = 0
    public var seconds: Double = 0
    public var latency = LatencySummary()
    public var clock: LatencyClock = .local
    /// For `.pong`: the offset used (hub − local, ms) and its bound (half the best round trip).
    public var offset: Double?
    public var offsetError: Double?
    public var firstSeq: UInt64?
    public var lastFrame: HubFrame?
    public var disconnected: String?
    /// How the last connection ended: whether it was open, and its close code (nil: no close frame).
    public var lastClose: ClientCloseEvent?
    /// Times the follower came back after the hub closed or dropped it.
    public var reconnects = 0

    public var rate: Double { seconds > 0 ? Double(frames) / seconds : 0 }

    /// How the latency was measured, for people.
    public var clockNote: String {
        switch clock {
        case .local: "hub time in frames vs the local wall clock (same machine: no offset)"
        case .pong:
            if let offset, let offsetError {
                "hub time in frames vs the local wall clock corrected by the ping/pong offset \(fixed(offset, 2)) ms (± \(fixed(offsetError, 2)) ms)"
            } else {
                "ping/pong offset not known yet: no latency"
            }
        }
    }

    public var text: String {
        var lines = ["frames: \(frames) in \(fixed(seconds, 1)) s (\(fixed(rate, 2)) per second); events: \(events); errors: \(errors)"]
        lines.append("latency: \(latency.text)")
        lines.append("  (\(clockNote))")
        if latency.negative > 0 { lines.append("  \(latency.negative) samples were negative (clocks disagree) and counted as 0") }
        if let f = lastFrame { lines.append("final camera: \(f.camera.summary) seq \(f.seq)\(f.moving ? " (moving)" : " (at rest)")") }
        if reconnects > 0 { lines.append("reconnected: \(reconnects) time\(reconnects == 1 ? "" : "s")") }
        if let d = disconnected { lines.append("connection ended: \(d)") }
        return lines.joined(separator: "\n")
    }

    public var json: String {
        var o: [String: JSONValue] = [
            "type": .string("summary"),
            "frames": .number(Double(frames)), "events": .number(Double(events)), "errors": .number(Double(errors)),
            "seconds": .number(seconds), "rate": .number(rate), "clock": .string(clock.rawValue),
            "latencyMs": .object([
                "count": .number(Double(latency.count)), "p50": .number(latency.p50), "p90": .number(latency.p90),
                "p99": .number(latency.p99), "p999": .number(latency.p999), "max": .number(latency.max),
                "mean": .number(latency.mean), "negative": .number(Double(latency.negative)),
            ]),
        ]
        if let offset { o["offsetMs"] = .number(offset) }
        if let offsetError { o["offsetErrorMs"] = .number(offsetError) }
        if let f = lastFrame, let camera = try? JSONParser.parse(f.camera.wireJSON) {
            o["camera"] = camera
            o["seq"] = .number(Double(f.seq))
            o["moving"] = .bool(f.moving)
        }
        if let d = disconnected { o["disconnected"] = .string(d) }
        if reconnects > 0 { o["reconnects"] = .number(Double(reconnects)) }
        return JSONValue.object(o).text
    }
}

/// Receives a room's frames and events on a joined follower connection.
public final class FollowRunner {
    /// Replaced by the caller when it reconnects (`run` again goes on counting).
    public var connection: HubConnection
    public let clock: LatencyClock
    private var histogram = LatencyHistogram()
    private var offset = ClockOffset()
    private var summary = FollowSummary()
    private var pingsSent = 0
    private var nextPing = 0.0

    public init(connection: HubConnection, clock: LatencyClock) {
        self.connection = connection
        self.clock = clock
        summary.clock = clock
    }

    /// One received message with its latency (frames only; nil when unknown).
    /// Our own pongs are not passed on.
    public typealias Output = (HubConnection.Received, Double?) -> Void

    /// Runs until `duration` seconds pass (nil: no limit), `shouldStop` or the connection ends.
    public func run(duration: Double?, shouldStop: () -> Bool, output: Output) -> FollowSummary {
        let start = monotonicSeconds()
        let end = duration.map { start + $0 }
        while !shouldStop() {
            let now = monotonicSeconds()
            if let end, now >= end { break }
            if clock == .pong && now >= nextPing { ping(now) }
            let wait = min(0.1, end.map { $0 - now } ?? 0.1)
            guard let item = connection.next(timeout: max(0, wait)) else { continue }
            if case .closed(let event) = item {
                summary.disconnected = describe(event)
                summary.lastClose = event
                break
            }
            guard case .message(let received) = item else { continue }
            handle(received, output: output)
        }
        summary.seconds += monotonicSeconds() - start
        summary.latency = histogram.summary
        summary.offset = offset.offset
        summary.offsetError = offset.offset == nil ? nil : offset.bestRoundTrip / 2
        return summary
    }

    private func ping(_ now: Double) {
        // A burst of five at the start (a good first estimate), then one every 2 s.
        pingsSent += 1
        nextPing = now + (pingsSent < 5 ? 0.05 : 2)
        connection.send("{\"type\":\"ping\",\"t\":\(wallClockMilliseconds().description)}")
    }

    private func handle(_ r: HubConnection.Received, output: Output) {
        switch r.message {
        case .frame(let f):
            summary.frames += 1
            if summary.firstSeq == nil { summary.firstSeq = f.seq }
            summary.lastFrame = f
            var latency: Double?
            switch clock {
            case .local: latency = r.localTime - f.time
            case .pong: latency = offset.offset.map { r.localTime + $0 - f.time }
            }
            if let latency { histogram.record(milliseconds: latency) }
            output(r, latency)
        case .pong(let t, let time):
            if let t { offset.add(sent: t, hubTime: time, received: r.localTime) }
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

    /// A human line for a received message (text format); `shows`: the camera
    /// this client shows for a frame when it fits it to its screen (`--fit cover`).
    public static func line(_ r: HubConnection.Received, latency: Double?, shows: Camera? = nil) -> String {
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
            var fields = (try? JSONParser.parse(r.text))?.objectValue ?? [:]
            let name = fields["event"]?.stringValue ?? "?"
            for k in ["type", "event", "time"] { fields[k] = nil }
            return "event \(name)  \(JSONValue.object(fields).text)"
        case .error(let e):
            return "error \(e.code.rawValue)\(e.ref.map { " (ref \($0))" } ?? ""): \(e.message)"
        default:
            return r.text
        }
    }
}

extension FollowRunner {
    /// Goes on with `connection` after the previous one ended (counted in `reconnects`).
    public func resume(with connection: HubConnection) {
        self.connection.shutdown()
        self.connection = connection
        summary.disconnected = nil
        summary.lastClose = nil
        summary.reconnects += 1
        nextPing = 0
    }
}

/// When a client should come back after its connection ended, and how long to
/// wait: the hub going away (1001), restarting (1012) or the connection dropping
/// without a close frame (1006) are worth retrying; anything else (a refused
/// hello, a protocol error) would fail again.
public enum Reconnect {
    ///
    /// libwebsockets 4.1's client takes 1012 for an invalid close code and
    /// reports 1002 instead (a browser or Python's websockets sees 1012), so
    /// 1002 counts too: the hub itself never closes with it, and the attempts are bounded.
    public static func worthRetrying(_ event: ClientCloseEvent) -> Bool {
        guard event.wasOpen else { return true }  // the hub is not back yet
        guard let code = event.code else { return true }
        return [CloseCode.goingAway, .serviceRestart, .protocolError].contains(code) || code.rawValue == 1006
    }

    /// The hub is draining (going away, restarting: 1001, 1012, and 1002 for
    /// 1012 as libwebsockets' client reports it): its whole audience comes back at once.
    public static func isDrain(_ event: ClientCloseEvent) -> Bool {
        guard event.wasOpen, let code = event.code else { return false }
        return [CloseCode.goingAway, .serviceRestart, .protocolError].contains(code)
    }

    /// Seconds to wait before the first return after a drain: a random time
    /// (`random` in 0…1) within a window that grows with the room's audience,
    /// 1 ms per client, from 0.25 s up to 10 s, so that a room of 10,000 comes
    /// back at ~1,000 joins a second (the hub spreads its closes too: `--drain-spread`).
    public static func drainWait(audience: Int, random: Double = Double.random(in: 0...1)) -> Double {
        random * min(10, max(0.25, Double(audience) / 1000))
    }

    /// Exponential backoff with jitter: 0.25 s doubling per attempt up to 8 s,
    /// each ±25 %, so that many clients of one hub do not come back at once.
    public static func delay(attempt: Int, random: Double = Double.random(in: -1...1)) -> Double {
        let base = min(8, 0.25 * pow(2, Double(min(attempt, 10))))
        return base * (1 + 0.25 * random)
    }
}
