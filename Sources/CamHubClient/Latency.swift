import Histogram

/// Latencies in microseconds in an HdrHistogram (1 µs … 10 min, 3 significant
/// digits). Negative samples (clock skew) are counted apart and recorded as 0.
public struct LatencyHistogram: Sendable {
    public private(set) var histogram = Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
    public private(set) var negative: UInt64 = 0

    public init() {}

    public mutating func record(milliseconds: Double) {
        guard milliseconds.isFinite else { return }
        if milliseconds < 0 { negative += 1 }
        let us = UInt64(min(max(milliseconds * 1000, 0), 600_000_000).rounded())
        _ = histogram.record(us)
    }

    public mutating func add(_ other: LatencyHistogram) {
        histogram.add(other.histogram)
        negative += other.negative
    }

    public mutating func reset() {
        histogram.reset()
        negative = 0
    }

    public var count: UInt64 { histogram.totalCount }

    /// Percentile (0…100) in milliseconds.
    public func milliseconds(at percentile: Double) -> Double {
        Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    public var summary: LatencySummary {
        guard count > 0 else { return LatencySummary() }
        return LatencySummary(
            count: count, p50: milliseconds(at: 50), p90: milliseconds(at: 90), p99: milliseconds(at: 99),
            p999: milliseconds(at: 99.9), max: Double(histogram.max) / 1000, mean: histogram.mean / 1000,
            negative: negative)
    }
}

/// Latency percentiles in milliseconds.
public struct LatencySummary: Codable, Sendable, Equatable {
    public var count: UInt64 = 0
    public var p50: Double = 0
    public var p90: Double = 0
    public var p99: Double = 0
    public var p999: Double = 0
    public var max: Double = 0
    public var mean: Double = 0
    /// Samples below zero (clocks disagree); recorded as 0.
    public var negative: UInt64 = 0

    public init() {}
    public init(count: UInt64, p50: Double, p90: Double, p99: Double, p999: Double, max: Double, mean: Double, negative: UInt64) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
        self.mean = mean
        self.negative = negative
    }

    /// "p50 1.20 ms  p90 2.31 ms  p99 4.50 ms  p99.9 9.10 ms  max 12.00 ms".
    public var text: String {
        count == 0
            ? "no samples"
            : "p50 \(fixed(p50, 2)) ms  p90 \(fixed(p90, 2)) ms  p99 \(fixed(p99, 2)) ms  p99.9 \(fixed(p999, 2)) ms  max \(fixed(max, 2)) ms"
    }
}

/// Hub clock − local clock, from `ping`/`pong` (NTP-style: the sample with
/// the smallest round trip wins; error at most half that round trip).
public struct ClockOffset: Sendable {
    public private(set) var offset: Double?
    public private(set) var bestRoundTrip: Double = .infinity
    public private(set) var samples = 0

    public init() {}

    /// A pong for a ping sent at local `sent` (ms), answered at hub `hubTime`, received at local `received`.
    public mutating func add(sent: Double, hubTime: Double, received: Double) {
        let rtt = received - sent
        guard rtt >= 0 else { return }
        samples += 1
        if rtt < bestRoundTrip {
            bestRoundTrip = rtt
            offset = hubTime - (sent + received) / 2
        }
    }
}
