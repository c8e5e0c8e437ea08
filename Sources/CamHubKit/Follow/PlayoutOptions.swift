/// The playout clock's and the follower buffer's settings: the JavaScript
/// client's `PLAYOUT_DEFAULTS` and the buffer's defaults, same values.
/// Times in milliseconds.
public struct PlayoutOptions: Hashable, Sendable {
    /// Frames per second asked for: the first interval guess.
    public var rate = 30.0
    /// The lateness percentile allowed for (nearest rank; the largest of the window is skipped).
    public var percentile = 0.995
    /// Samples whose lateness is ranked.
    public var latenessWindow = 240
    /// Frames over which the smallest raw offset is taken.
    public var offsetWindow = 600
    /// The lateness allowance until `minSamples` samples were seen.
    public var initialJitterMs = 60.0
    public var minSamples = 20
    /// Moving intervals averaged (the last 4 alone may widen it sooner).
    public var intervalWindow = 20
    public var minIntervalMs = 4.0
    public var maxIntervalMs = 1000.0
    public var marginMs = 2.0
    /// Headroom above the target when the goal is set: max(growBandMs, growBand × interval) …
    public var growBandMs = 10.0
    public var growBand = 0.2
    /// … lowered when the target is max(shrinkBandMs, shrinkBand × interval) below that …
    public var shrinkBandMs = 15.0
    public var shrinkBand = 0.25
    /// … but not within this long of its last growth.
    public var shrinkHoldMs = 10_000.0
    /// The playout clock runs at 1 ± this of real time (0.97…1.03).
    public var maxRateChange = 0.03
    /// Speed − 1 per second of difference from the goal.
    public var speedGain = 0.8
    /// No speed change for a difference under this.
    public var deadbandMs = 20.0
    /// A new speed at most this often, ramped to linearly over `speedRampMs`.
    public var speedUpdateMs = 1000.0
    public var speedRampMs = 300.0
    /// A larger difference is closed at once (a declared re-sync).
    public var resyncMs = 250.0
    /// Intervals an underrun may raise the goal by at once.
    public var underrunGrowth = 1.0
    /// How far a stall past the extrapolation allowance may grow the delay.
    public var maxStallMs = 250.0
    /// Display frames further apart than this: the display slept (a re-sync).
    public var sleepMs = 1000.0
    /// Frames further apart (hub time) than max(minGapMs, gapFactor × interval) are not one motion.
    public var gapFactor = 4.0
    public var minGapMs = 250.0
    /// Past the newest moving frame, the picture goes on for at most this many intervals.
    public var maxExtrapolationIntervals = 2.0
    /// A monotone cubic between moving frames (else straight lines).
    public var cubic = true
    /// A correction (frames revealed a different path than was shown) fades out over this.
    public var correctionMs = 150.0
    public var maxFrames = 240
    /// Frames kept behind the render time.
    public var keepMs = 1500.0

    public init() {}
}

/// The q-quantile (0…1) of `values` (nearest rank); 0 for none. At most the
/// (`skipLargest` + 1)-th largest while there are more values than that.
func percentile(_ values: [Double], _ q: Double, skipLargest: Int = 0) -> Double {
    if values.isEmpty { return 0 }
    let sorted = values.sorted()
    var rank = min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
    if sorted.count > skipLargest { rank = min(rank, sorted.count - 1 - skipLargest) }
    return sorted[rank]
}
