import CameraCore
import Foundation

/// Recent finger positions by client time, for the release velocity.
///
/// The velocity is the displacement over a fixed window of client time
/// ending at the last sample, divided by the window. The position at the
/// window's start is interpolated linearly between the samples around it,
/// so the estimate depends on the finger's motion, not on how often it was
/// sampled (exact for steady motion, within a·dt²/8 px otherwise).
struct PointerTrack: Hashable, Sendable {
    struct Sample: Hashable, Sendable {
        var t: Double  // client ms
        var x: Double
        var y: Double
    }

    private(set) var samples: [Sample] = []
    /// Client time of the last sample whose position differed from the one before.
    private(set) var lastMoveTime: Double?

    /// Adds a sample at client time `t` (not before the last one) and drops
    /// samples no longer needed for a window of `keep` ms.
    mutating func add(t: Double, x: Double, y: Double, keep: Double) {
        if let last = samples.last, last.x != x || last.y != y { lastMoveTime = t }
        samples.append(Sample(t: t, x: x, y: y))
        // Keep one sample at or before the window's start, for interpolation.
        while samples.count > 2 && samples[1].t <= t - keep { samples.removeFirst() }
    }

    var last: ViewPoint? { samples.last.map { ViewPoint(x: $0.x, y: $0.y) } }

    /// Finger position at client time `time` (piecewise linear; before the
    /// first sample its position, after the last one its position).
    func position(at time: Double) -> (x: Double, y: Double)? {
        guard let first = samples.first else { return nil }
        if time <= first.t { return (first.x, first.y) }
        guard let i = samples.lastIndex(where: { $0.t <= time }) else { return (first.x, first.y) }
        let a = samples[i]
        guard i + 1 < samples.count else { return (a.x, a.y) }
        let b = samples[i + 1]
        let f = (time - a.t) / (b.t - a.t)  // b.t > time >= a.t
        return (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
    }

    /// Velocity in px/s over the last `window` ms (shorter when the gesture
    /// is), or nil when no time has passed.
    func velocity(window: Double) -> (x: Double, y: Double)? {
        guard let first = samples.first, let last = samples.last else { return nil }
        let start = max(last.t - window, first.t)
        let span = last.t - start
        guard span > 0, let from = position(at: start) else { return nil }
        return ((last.x - from.x) / span * 1000, (last.y - from.y) / span * 1000)
    }
}

/// A pan's momentum: the grabbed point glides `offset` view px further over
/// `duration` seconds (MapLibre's pan inertia).
struct PanMomentum: Hashable, Sendable {
    var dx: Double
    var dy: Double
    var duration: Double

    var distance: Double { hypot(dx, dy) }

    init?(velocity: (x: Double, y: Double), settings s: GestureSettings) {
        let magnitude = hypot(velocity.x, velocity.y)
        guard magnitude > 0, s.momentumLinearity > 0, s.momentumDeceleration > 0 else { return nil }
        let speed = min(magnitude * s.momentumLinearity, s.momentumMaxSpeed)
        duration = speed / (s.momentumDeceleration * s.momentumLinearity)
        let distance = speed * duration / 2
        dx = velocity.x / magnitude * distance
        dy = velocity.y / magnitude * distance
    }

    /// Shortened by `k` (0…1) in distance and duration alike: the glide
    /// starts at the same speed and stops sooner.
    mutating func scale(by k: Double) {
        dx *= k
        dy *= k
        duration *= k
    }
}
