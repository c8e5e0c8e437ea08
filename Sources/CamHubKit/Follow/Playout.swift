import CamHubProtocol
import CameraCore

/// What the playout shows for one display frame.
public struct PlayoutSample: Hashable, Sendable {
    public var camera: Camera
    /// False once the newest resting frame is shown exactly (and no correction fades).
    public var moving: Bool
    /// The frame shown or interpolated from, and who moved it.
    public var seq: UInt64
    public var by: String?
    /// The hub time shown (ms since 1970, the hub's clock).
    public var time: Double
    /// Past the newest frame while it moves (extrapolated: the buffer ran dry).
    public var dry: Bool
}

/// Frames in, cameras for display times out: snapshot interpolation of the
/// hub's frames behind the adaptive delay of a `PlayoutClock`. A resting
/// frame is reached exactly (its own camera, to the bit) and held. Pure: every
/// time is an argument (ms; `receivedAt` and `displayAt` on one local clock).
/// The JavaScript client's `SnapshotBuffer` (clients/js/src/follow/interpolation.js),
/// less its error estimate.
public struct Playout: Sendable {
    public let options: PlayoutOptions
    public internal(set) var clock: PlayoutClock
    /// The hub's tick rate (Hz): a motion a command started begins within the tick before its `corner` frame.
    public var tick: Double?
    /// The frames in hand, oldest first.
    public internal(set) var frames: [TimedCamera] = []
    /// Samples past the newest moving frame, and the runs of them (underruns).
    public internal(set) var underruns = 0
    public internal(set) var drySamples = 0
    var lastSeq: UInt64?
    var last: Shown?
    var correction: Correction?
    var changed = false
    var underrunPending = false
    var lastDisplayAt: Double?

    /// The previous sample: its hub time, the path's camera then, and whether it was dry.
    struct Shown {
        var time: Double
        var raw: Camera
        var dry: Bool
    }

    /// A difference between what was shown and the path frames revealed later, fading out from hub time `at`.
    struct Correction {
        var delta: CameraDelta
        var at: Double
    }

    public init(options: PlayoutOptions = PlayoutOptions()) {
        self.options = options
        clock = PlayoutClock(options: options)
    }

    /// Forgets the frames and the clock's estimates (a new welcome); keeps the rate.
    public mutating func reset() {
        let (clock, tick) = (self.clock, self.tick)
        self = Playout(options: options)
        self.clock = clock
        self.clock.reset()
        self.tick = tick
    }

    /// The frame rate asked for or granted (frames/s).
    public mutating func setRate(_ rate: Double) { clock.setRate(rate) }

    /// Frames further apart than this (hub ms) are not one motion.
    public var gapThreshold: Double { max(options.minGapMs, options.gapFactor * clock.interval) }

    /// Adds a frame received at local `receivedAt` (ms); false (ignored) for one
    /// whose seq or time is not after the newest.
    @discardableResult
    public mutating func push(_ frame: HubFrame, receivedAt: Double) -> Bool {
        push(
            TimedCamera(
                seq: frame.seq, time: frame.time, camera: frame.camera, moving: frame.moving, corner: frame.corner,
                velocity: frame.velocity, by: frame.by), receivedAt: receivedAt)
    }

    @discardableResult
    public mutating func push(_ frame: TimedCamera, receivedAt: Double) -> Bool {
        if let lastSeq, frame.seq <= lastSeq { return false }
        if let newest = frames.last, frame.time < newest.time { return false }
        lastSeq = frame.seq
        // only the gap between two moving frames (no corner) is a frame interval
        if let newest = frames.last, newest.moving, frame.moving, !frame.corner {
            let dt = frame.time - newest.time
            if dt >= 0.6 * (1000 / clock.rate) && dt <= gapThreshold { clock.observeInterval(dt) }
        }
        clock.observe(time: frame.time, receivedAt: receivedAt)
        frames.append(frame)
        if frames.count > options.maxFrames { frames.removeFirst() }
        changed = true
        return true
    }

    /// Index of the last frame at or before hub time `time` (nil: none).
    func index(at time: Double) -> Int? {
        guard let first = frames.first, first.time <= time else { return nil }
        var (lo, hi) = (0, frames.count - 1)
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if frames[mid].time <= time { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// When the motion from frame `a` to the next, `b`, began (hub ms): at `a`,
    /// but after a rest or a gap within the one interval before `b` (the one
    /// hub tick when `b` is a corner).
    func motionStart(_ a: TimedCamera, _ b: TimedCamera) -> Double {
        if a.moving && b.time - a.time <= gapThreshold { return a.time }
        let lead = !a.moving && b.corner && tick != nil ? 1000 / tick! : clock.interval
        return max(a.time, b.time - lead)
    }
}
