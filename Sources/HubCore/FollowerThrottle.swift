/// Decides, per client and per room tick, whether the client gets the room's
/// current frame. The follower contract:
///
/// 1. A client gets at most `rate` frames per second, never two within one tick.
/// 2. A client gets a frame only when the room's `seq` advanced since its last one.
/// 3. Throttling never loses the final state: when the camera comes to rest
///    the room emits a frame with `moving: false` (a new `seq`), and every
///    client receives that frame (or a later one) within `1/rate` seconds.
///
/// (3) holds because the throttle always sends the room's *latest* frame
/// when it is due, and a client is due at least every `1/rate` seconds.
///
/// Scheduling is by ideal due time (`due += 1/rate`), not by "last send +
/// interval": a room ticking at 60 Hz serves rate 25 with gaps of 2 or 3 ticks
/// that average exactly 25 frames per second, where "last send + 0.04 s"
/// would always wait 3 ticks (20 fps). A client more than one tick behind its
/// schedule (nothing to send for a while) starts a fresh schedule, so a pause
/// never turns into a burst.
///
/// Pass as `now` the tick's *scheduled* time (tick index × 1/tick, plus a
/// fixed origin), not the clock read when the timer fired: then timer jitter
/// cannot move frames, and no one-second span of ticks holds more than
/// ⌈rate⌉ frames. (With jittered readings the average rate is still met, a
/// quarter tick of slack absorbs early timers, and a window may hold one
/// frame more.)
///
/// 4. **Changes of course come on time.** A client slower than half the tick
///    rate (`getsPromptFrames`) also gets the room's frames on either side of a
///    change of course: the tick before an animation ends or a delayed one
///    starts, and the tick after a motion started, ended or handed over. The
///    room names those frames with `promptSeq`. Linear interpolation between
///    frames 100 ms apart cuts such a corner by up to several pixels; with a
///    frame a tick either side of it, by a fraction of one. Such a frame comes
///    early (still never two within one tick) and the schedule starts afresh
///    from it, so a change of course costs at most two frames more than `rate`.
///
/// Room contract: call `shouldSend` once per tick with the room's current
/// `seq`; the room increments `seq` whenever the frame differs from the
/// previous one (camera or `moving`). After `welcome` (which carries the
/// camera at `seq`), call `didSend(seq:now:)` so the client does not get the
/// same state again as a frame.
public struct FollowerThrottle: Hashable, Sendable {
    /// Frames per second for this client, within 1…tick (clamped by `init`).
    public private(set) var rate: Double
    /// The room's tick rate in Hz.
    public let tick: Double
    private var lastSend: Double = -.infinity
    private var nextDue: Double = -.infinity
    /// The seq of the last frame sent, nil before the first. Declared last:
    /// an optional's extra byte then leaves room for the fields that follow
    /// a throttle in `Room.Member` (56 bytes a member, not 64).
    public private(set) var lastSeq: UInt64?
    /// Whether a schedule that starts afresh from rest starts a tick late (see
    /// `init`). After `lastSeq`, in its spare bytes: a throttle stays 42 bytes.
    public let staggered: Bool

    /// `staggered`: when the camera starts to move after a pause, this client's
    /// first frame waits one tick, so its schedule runs a tick apart from the
    /// clients that are not staggered. Every follower of a room starts afresh
    /// on the same tick, so without it a 30 Hz audience on a 60 Hz hub is due
    /// all at once on every other tick (the pass of a large room outlasts a
    /// tick, and the tick between sends nothing). Only for rates of at most
    /// half the tick rate, and never for a frame at a change of course that a
    /// slow client takes early (rule 4). Rules 1 and 3 hold: the wait is one
    /// tick, at most `interval`, and the schedule after it is the usual one.
    public init(rate: Double, tick: Double, staggered: Bool = false) {
        precondition(tick > 0 && tick.isFinite, "tick must be a positive rate")
        self.tick = tick
        self.rate = min(max(rate.isFinite ? rate : tick, 1), tick)
        self.staggered = staggered
    }

    /// Seconds between frames at this rate.
    public var interval: Double { 1 / rate }
    /// Seconds between ticks.
    public var tickInterval: Double { 1 / tick }
    /// Early-firing slack for tick timer jitter (a quarter tick).
    private var tolerance: Double { 0.25 / tick }

    /// Whether this client gets the frames either side of a change of course
    /// early (rule 4): true below half the tick rate, where frames are more
    /// than two ticks apart. At half the tick rate and above, a corner lies at
    /// most a tick from a frame anyway.
    public var getsPromptFrames: Bool { interval > 2 * tickInterval + tolerance }

    /// True when the room's frame `roomSeq` should go to this client at `now`
    /// (seconds). `promptSeq`: the room's newest frame at a change of course
    /// (0: none), which a client that `getsPromptFrames` takes before its due time.
    public func shouldSend(roomSeq: UInt64, promptSeq: UInt64 = 0, now: Double) -> Bool {
        if let lastSeq, roomSeq <= lastSeq { return false }
        guard now - lastSend >= tickInterval - tolerance else { return false }
        if now >= nextDue - tolerance { return true }
        return getsPromptFrames && promptSeq > (lastSeq ?? 0)
    }

    /// Records that the frame `seq` went to the client at `now`.
    public mutating func didSend(seq: UInt64, now: Double) {
        lastSeq = max(seq, lastSeq ?? 0)
        if now - nextDue > tickInterval + tolerance || now < nextDue - tolerance {
            // Not waiting for this slot (idle, the first frame, or a frame
            // taken early at a change of course): start afresh from it.
            nextDue = now + interval
        } else {
            nextDue += interval
        }
        lastSend = now
    }

    /// `shouldSend` and, when true, `didSend` in one call. `staggering`: whether
    /// a `staggered` client's fresh schedule starts a tick late now (the room
    /// turns it off while its whole audience fits in one tick's pass).
    public mutating func take(roomSeq: UInt64, promptSeq: UInt64 = 0, now: Double, staggering: Bool = true) -> Bool {
        guard shouldSend(roomSeq: roomSeq, promptSeq: promptSeq, now: now) else { return false }
        if staggered, staggering, now - nextDue > tickInterval + tolerance, interval >= 2 * tickInterval - tolerance,
            !(getsPromptFrames && promptSeq > (lastSeq ?? 0))
        {
            nextDue = now + tickInterval  // starting afresh from rest: one tick later
            return false
        }
        didSend(seq: roomSeq, now: now)
        return true
    }

    /// The earliest time (seconds) `shouldSend` can say yes again for a newer
    /// frame: the room need not be visited for this client before then (a
    /// change of course wakes the room itself, rule 4).
    public var nextFrameTime: Double { max(nextDue, lastSend + tickInterval) - tolerance }

    /// Changes the rate (clamped to 1…tick); the next frame is due no later than before.
    public mutating func setRate(_ newRate: Double) {
        rate = min(max(newRate.isFinite ? newRate : tick, 1), tick)
        nextDue = min(nextDue, lastSend + interval)
    }
}
