import CamHubClient
import CamHubProtocol
import Foundation
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

    /// The hub's tick histograms now (`/metrics`; nil when it cannot be read).
    /// Read as the window begins and ends, they give the ticks over exactly
    /// the window and each loop's median tick (`TickReading`).
    static func ticks(_ url: HubURL) -> TickReading? {
        guard !url.secure, url.host == "127.0.0.1" || url.host == "localhost" else { return nil }
        guard let response = try? RawHTTP.request(port: url.port, path: "/metrics"), response.status == 200 else { return nil }
        let reading = TickReading(exposition: String(decoding: response.body, as: UTF8.self))
        return reading.loops.isEmpty ? nil : reading
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

/// A camhub hub's tick-duration histogram (`camhub_tick_duration_seconds{loop}`)
/// at one moment: per loop, its cumulative buckets (upper bound in seconds → ticks).
public struct TickReading: Sendable, Equatable {
    var loops: [String: [(le: Double, count: Double)]]

    public static func == (a: TickReading, b: TickReading) -> Bool {
        a.loops.keys == b.loops.keys
            && a.loops.allSatisfy { loop, buckets in
                b.loops[loop].map { $0.elementsEqual(buckets) { $0.le == $1.le && $0.count == $1.count } } ?? false
            }
    }

    init(exposition text: String) {
        let prefix = "camhub_tick_duration_seconds_bucket{"
        var loops: [String: [(le: Double, count: Double)]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            guard let close = line.firstIndex(of: "}"), let count = Double(line[line.index(after: close)...].drop { $0 == " " }) else { continue }
            var loop = "0"
            var le: Double?
            for label in line[line.index(line.startIndex, offsetBy: prefix.count)..<close].split(separator: ",") {
                let parts = label.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                if parts[0] == "loop" { loop = value }
                if parts[0] == "le" { le = value == "+Inf" ? .infinity : Double(value) }
            }
            if let le { loops[loop, default: []].append((le, count)) }
        }
        self.loops = loops.mapValues { $0.sorted { $0.le < $1.le } }
    }

    /// Ticks so far, on average over the loops (each loop's hub ticks on its own clock).
    var meanCount: Double {
        let totals = loops.values.compactMap { $0.last?.count }
        return totals.isEmpty ? 0 : totals.reduce(0, +) / Double(totals.count)
    }

    /// Each loop's median tick (ms) between `earlier` and this reading, in
    /// loop order, interpolated within its bucket (nil: no tick in between).
    func medianMilliseconds(since earlier: TickReading) -> [Double?] {
        loops.keys.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { loop in
            let now = loops[loop] ?? []
            let before = earlier.loops[loop] ?? []
            let counts = now.enumerated().map { i, bucket in bucket.count - (i < before.count ? before[i].count : 0) }
            guard let total = counts.last, total > 0 else { return nil }
            var lower = 0.0
            var below = 0.0
            for (i, bucket) in now.enumerated() {
                if counts[i] >= total / 2 {
                    guard bucket.le.isFinite else { return lower * 1000 }
                    let share = counts[i] > below ? (total / 2 - below) / (counts[i] - below) : 0
                    return (lower + share * (bucket.le - lower)) * 1000
                }
                lower = bucket.le
                below = counts[i]
            }
            return nil
        }
    }
}
