/// A declared re-sync of the playout clock: the delay changed at once.
public struct PlayoutResync: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable {
        /// The display slept (frames further apart than `sleepMs`).
        case slept
        /// The delay was further than `resyncMs` from the goal (a clock step).
        case far
        /// The buffer ran dry.
        case underrun
    }

    /// Display time (ms) and the delay before and after (ms).
    public var at: Double
    public var from: Double
    public var to: Double
    public var reason: Reason
}

/// The follower's playout clock: which hub time to show at a display time,
/// a measured delay behind the hub that changes only by playing within
/// 1 ± `maxRateChange` (3 %) of real time, or by a declared re-sync. Pure:
/// every time is an argument (ms; display and receive times on one local
/// clock, hub times on the hub's). The JavaScript client's `PlayoutClock`
/// (clients/js/src/follow/playout.js), whose header explains the rule.
public struct PlayoutClock: Sendable {
    public let options: PlayoutOptions
    /// The rate (frames/s) asked for or granted: the first interval guess.
    public internal(set) var rate: Double
    /// Re-syncs so far, and the last 100 of them.
    public internal(set) var resyncs = 0
    public internal(set) var resyncLog: [PlayoutResync] = []

    var raws: [Double] = []
    var lateness: [Double] = []
    var intervals: [Double] = []
    /// The lead of the last advance (display to paint, ms).
    public internal(set) var lead: Double?
    /// displayAt − render time (nil until the first advance).
    var total: Double?
    /// The delay aimed for (ms behind the hub clock at paint time, beyond the clock offset).
    public internal(set) var goal: Double?
    var holdUntil: Double?
    var shrinking = false
    /// The playout clock's speed now (hub ms per display ms).
    public internal(set) var speed = 1.0
    var speedTo = 1.0
    var speedFrom = 1.0
    var speedAt: Double?
    var decidedAt: Double?
    var lastAt: Double?
    var stall: Stall?
    /// Whether the render time stands still now (a re-sync to a longer delay, or a stall).
    public internal(set) var stalled = false
    var wasPast = false
    var stallFrom = 0.0
    var freezeTo: Double?

    enum Stall { case holding, done }

    public init(options: PlayoutOptions = PlayoutOptions()) {
        self.options = options
        rate = options.rate
    }

    /// Forgets every measurement (keeps the rate and the count of re-syncs).
    public mutating func reset() {
        let (rate, resyncs, log) = (self.rate, self.resyncs, self.resyncLog)
        self = PlayoutClock(options: options)
        (self.rate, self.resyncs, self.resyncLog) = (rate, resyncs, log)
    }

    /// The rate (frames/s) asked for or granted; it replaces the interval measurements.
    public mutating func setRate(_ rate: Double) {
        guard rate.isFinite, rate > 0 else { return }
        if rate != self.rate { intervals = [] }
        self.rate = rate
    }

    /// A hub message stamped `time` (hub ms) received at local `receivedAt` (for the clock offset).
    public mutating func observe(time: Double, receivedAt: Double) {
        guard time.isFinite, receivedAt.isFinite else { return }
        raws.append(receivedAt - time)
        if raws.count > options.offsetWindow { raws.removeFirst() }
    }

    /// What a sample for a paint at local `paintAt` saw while the camera
    /// moves: `newest` is the hub time of the newest (moving) frame in hand.
    public mutating func observeSample(paintAt: Double, newest: Double) {
        guard let offset = clockOffset, paintAt.isFinite, newest.isFinite else { return }
        lateness.append(max(0, paintAt - offset - (newest + interval)))
        if lateness.count > options.latenessWindow { lateness.removeFirst() }
    }

    /// The hub time between two consecutive moving frames.
    public mutating func observeInterval(_ dt: Double) {
        guard dt > 0 else { return }
        intervals.append(min(options.maxIntervalMs, max(options.minIntervalMs, dt)))
        if intervals.count > options.intervalWindow { intervals.removeFirst() }
    }

    /// Expected hub ms between moving frames.
    public var interval: Double {
        if intervals.isEmpty { return 1000 / rate }
        let all = intervals.reduce(0, +) / Double(intervals.count)
        guard intervals.count >= 4 else { return all }
        return max(all, intervals.suffix(4).reduce(0, +) / 4)
    }

    /// Local clock minus hub clock as the least-delayed recent frame shows it (nil before any).
    public var clockOffset: Double? { raws.min() }

    /// The lateness allowance: a high percentile of recent samples' lateness, never their largest.
    public var jitter: Double {
        let p = percentile(lateness, options.percentile, skipLargest: 1)
        return lateness.count < options.minSamples ? max(p, options.initialJitterMs + (lead ?? 0)) : p
    }

    /// The delay aimed for before the bands (ms).
    public var targetDelay: Double { jitter + interval + options.marginMs }

    var growBand: Double { max(options.growBandMs, options.growBand * interval) }
    var shrinkBand: Double { max(options.shrinkBandMs, options.shrinkBand * interval) }

    /// The delay in use: paint time minus the hub time shown, beyond the clock offset (nil before the first frame).
    public var delay: Double? {
        guard let total, let offset = clockOffset else { return nil }
        return total + (lead ?? 0) - offset
    }
}
