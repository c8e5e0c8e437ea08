import CameraCore
import Foundation

/// Sampling: the camera the frames give for a hub time, extrapolation past
/// the newest, the correction that keeps the picture continuous, and the
/// sample for a display frame.
extension Playout {
    /// The path's camera at hub time `time`, without correction.
    struct Evaluated {
        var camera: Camera
        var moving: Bool
        var seq: UInt64
        var by: String?
        var dry: Bool
        var rest: Bool
    }

    func evaluate(_ time: Double) -> Evaluated {
        guard let i = index(at: time) else {
            let a = frames[0]
            let alone = frames.count == 1
            return Evaluated(camera: a.camera, moving: alone ? a.moving : true, seq: a.seq, by: a.by, dry: false, rest: alone && !a.moving)
        }
        let a = frames[i]
        if i == frames.count - 1 {
            if !a.moving { return Evaluated(camera: a.camera, moving: false, seq: a.seq, by: a.by, dry: false, rest: true) }
            return Evaluated(camera: extrapolate(i, time), moving: true, seq: a.seq, by: a.by, dry: true, rest: false)
        }
        let b = frames[i + 1]
        let hold = Evaluated(camera: a.camera, moving: true, seq: a.seq, by: a.by, dry: false, rest: false)
        if !a.moving && !b.moving { return hold }  // a jump (`set`): shown at b's time
        let start = motionStart(a, b)
        if time <= start { return hold }
        let t = (time - start) / (b.time - start)
        let p: TimedCamera? = i > 0 ? frames[i - 1] : nil
        let smooth = start == a.time && !a.corner && !b.corner && p.map { $0.moving && a.time - $0.time <= gapThreshold } == true
        let camera: Camera
        if start == a.time && a.velocity != nil && b.velocity != nil && options.cubic {
            camera = CameraCurves.withVelocity(a, b, t)
        } else if smooth && options.cubic, let p {
            camera = CameraCurves.monotone(p, a, b, t)
        } else {
            camera = CameraCurves.linear(a.camera, b.camera, t)
        }
        return Evaluated(camera: camera, moving: true, seq: a.seq, by: b.by, dry: false, rest: false)
    }

    /// Past the newest (moving) frame `i`: along its velocity (the hub's when
    /// it sent one, else the last frames' secant) for one interval, then
    /// slowing to a stop; a decelerating component stops where it would.
    func extrapolate(_ i: Int, _ time: Double) -> Camera {
        let a = frames[i]
        guard i > 0 else { return a.camera }
        let p = frames[i - 1]
        let span = a.time - motionStart(p, a)
        guard span > 0 else { return a.camera }
        let full = clock.interval
        let slow = max(0, options.maxExtrapolationIntervals - 1) * clock.interval
        let e = time - a.time
        var tau = min(e, full)
        if e > full && slow > 0 {
            let s = min(e - full, slow)
            tau += s - s * s / (2 * slow)
        }
        let v = CameraDelta(from: p.camera, to: a.camera).lanes / span
        var acc: SIMD16<Double>?
        if i > 1 {
            let q = frames[i - 2]
            let span0 = p.time - q.time
            if q.moving && p.moving && span0 > 0 && span0 <= gapThreshold {
                let v0 = CameraDelta(from: q.camera, to: p.camera).lanes / span0
                acc = (v - v0) * (2 / (span0 + span))
            }
        }
        let exact = a.velocity.map { CameraCurves.rates(a.camera, $0, secant: v, over: 1) }
        var move = SIMD16<Double>.zero
        for k in CameraDelta.used {
            let ak = acc?[k] ?? 0
            let vk = exact?[k] ?? v[k]
            let va = exact?[k] ?? v[k] + ak * span / 2  // the secant is the velocity half a span back
            if ak != 0 && ak.sign3 != vk.sign3 {
                // decelerating: stop where it would (at once if it already has)
                if va.sign3 != vk.sign3 { continue }
                let t = min(tau, -va / ak)
                move[k] = va * t + ak * t * t / 2
            } else {
                move[k] = vk * tau
            }
        }
        var camera = CameraDelta(lanes: move).applied(to: a.camera)
        camera.tilt = max(0, camera.tilt)
        camera.fov = max(0.1, camera.fov)
        return camera
    }

    /// The correction in effect at hub time `time` (nil once it has faded out): eases out and in.
    func fading(at time: Double) -> CameraDelta? {
        guard let correction else { return nil }
        let u = max(0, time - correction.at) / options.correctionMs
        if u >= 1 { return nil }
        return CameraDelta(lanes: correction.delta.lanes * (0.5 * (1 + cos(.pi * u))))
    }

    /// Drops frames that can no longer matter.
    mutating func prune(_ time: Double) {
        let keepFrom = time - options.keepMs
        var i = 0
        while i + 2 < frames.count && frames[i + 1].time <= keepFrom { i += 1 }
        if i > 0 { frames.removeFirst(i) }
    }
}

extension Double {
    /// −1, 0 or 1 (JavaScript's `Math.sign`).
    var sign3: Int { self > 0 ? 1 : self < 0 ? -1 : 0 }
}

extension Playout {
    /// The frames' camera at hub time `time` (ms), without the playout clock or a correction.
    public func camera(atHubTime time: Double) -> Camera {
        frames.isEmpty ? Camera() : evaluate(time).camera
    }
}
