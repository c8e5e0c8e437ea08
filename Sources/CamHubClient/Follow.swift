import CamHubKit
import CamHubProtocol
import CameraCore

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
    /// How the connection ended when the follower stopped without it (nil: it was open).
    public var lastClose: ConnectionClose?
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
