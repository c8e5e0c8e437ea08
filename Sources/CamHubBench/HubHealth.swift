import CamHubClient
import CamHubProtocol
import HubCore

/// What a camhub hub's `/healthz` says about its own pace, sampled once a
/// second during a bench window (once after it with many rooms): the ticks it achieved (the room clock held
/// at its rate, or not) and how its connections spread over its event loops.
/// Only for a local plain-HTTP hub (127.0.0.1, ws://); other servers (a peer
/// such as uWebSockets, or a TLS hub) have no samples.
struct HubHealth: Sendable {
    struct Sample: Sendable {
        var ticksPerSecond: Int
        var connectionsPerLoop: [Int]?
    }

    private(set) var samples: [Sample] = []

    /// Reads `/healthz` of `url`'s hub (nil when it cannot: not local plain
    /// HTTP, no answer, or not a camhub hub).
    static func read(_ url: HubURL) -> Sample? {
        guard !url.secure, url.host == "127.0.0.1" || url.host == "localhost" else { return nil }
        guard let response = try? RawHTTP.request(port: url.port, path: "/healthz"), response.status == 200,
            case .object(let json)? = try? JSONParser.parse(response.body),
            case .number(let ticks)? = json["ticksPerSecond"]
        else { return nil }
        var perLoop: [Int]?
        if case .array(let loops)? = json["connectionsPerLoop"] {
            perLoop = loops.compactMap { if case .number(let n) = $0 { Int(n) } else { nil } }
        }
        return Sample(ticksPerSecond: Int(ticks), connectionsPerLoop: perLoop)
    }

    /// The hub's ticks so far: the count of its tick-duration histogram in
    /// `/metrics` (constant in size however many rooms; nil when it cannot be read).
    /// Read as the window begins and ends, it gives the ticks over exactly the window.
    static func tickCount(_ url: HubURL) -> Double? {
        guard !url.secure, url.host == "127.0.0.1" || url.host == "localhost" else { return nil }
        guard let response = try? RawHTTP.request(port: url.port, path: "/metrics"), response.status == 200 else { return nil }
        let prefix = "camhub_tick_duration_seconds_count "
        for line in String(decoding: response.body, as: UTF8.self).split(separator: "\n") where line.hasPrefix(prefix) {
            return Double(line.dropFirst(prefix.count))
        }
        return nil
    }

    /// `/healthz` lists every room, so at thousands of rooms reading it once a
    /// second would load the hub being measured: then it is read once, after
    /// the window.
    static func cheapEachSecond(rooms: Int) -> Bool { rooms <= 50 }

    mutating func add(_ sample: Sample?) {
        if let sample { samples.append(sample) }
    }

    /// Mean and lowest ticks per second over the samples.
    var ticks: (mean: Double, min: Int)? {
        guard !samples.isEmpty else { return nil }
        let values = samples.map(\.ticksPerSecond)
        return (Double(values.reduce(0, +)) / Double(values.count), values.min() ?? 0)
    }
}
