import CamHubKit
import CameraCore
import CameraMotion
import Testing

/// Frames in, cameras out: the follower buffer's key cases, ported from
/// clients/js/test/interpolation.test.mjs (deterministic, no sockets; ms).
@Suite("Playout (snapshot interpolation)")
struct PlayoutTests {
    static let frameMs = 1000.0 / 30

    static func cam(latitude: Double = 10, longitude: Double = 20, zoom: Double = 5, bearing: Double = 0, tilt: Double = 0) -> Camera {
        Camera(latitude: latitude, longitude: longitude, zoom: zoom, tilt: tilt, bearing: bearing)
    }

    static func frame(_ seq: UInt64, _ time: Double, _ camera: Camera, moving: Bool = true, corner: Bool = false) -> TimedCamera {
        TimedCamera(seq: seq, time: time, camera: camera, moving: moving, corner: corner, by: "c1")
    }

    /// A motion of `n` frames along `at(0…1)` then a resting frame, delivered `latency` ms late, sampled at 60 Hz.
    static func followed(
        _ playout: inout Playout, n: Int = 10, latency: Double = 40, along at: (Double) -> Camera, after: Double = 500
    ) -> [PlayoutSample] {
        let t0 = 100_000.0
        let deliveries = (0...n).map { i in
            (frame(UInt64(i + 1), t0 + Double(i) * frameMs, at(Double(i) / Double(n)), moving: i != n), t0 + Double(i) * frameMs + 5000 + latency)
        }
        var pending = deliveries[...]
        var samples: [PlayoutSample] = []
        var now = deliveries[0].1
        while now <= deliveries.last!.1 + after {
            while let next = pending.first, next.1 <= now {
                playout.push(next.0, receivedAt: next.1)
                pending = pending.dropFirst()
            }
            if let s = playout.sample(displayAt: now) { samples.append(s) }
            now += 1000.0 / 60
        }
        return samples
    }

    @Test func anEmptyPlayoutSamplesNothingAndAFirstFrameIsShownAtOnce() {
        var playout = Playout()
        let none = playout.sample(displayAt: 0)
        #expect(none == nil)
        let c = Self.cam(latitude: 1.5)
        playout.push(Self.frame(1, 1000, c, moving: false), receivedAt: 1050)
        let shown = [1050.0, 5000].map { playout.sample(displayAt: $0)?.camera }
        #expect(shown == [c, c])
    }

    @Test func itLandsExactlyOnTheRestingFrameWhenItsTimeComesAndHoldsIt() {
        var playout = Playout()
        let start = Self.cam()
        let end = Self.cam(latitude: 48.8566, longitude: 2.3522, zoom: 12.3, bearing: 33.3, tilt: 41.7)
        let samples = Self.followed(&playout) { CameraCurves.linear(start, end, $0 * $0) }
        #expect(samples.last?.camera == end && samples.last?.moving == false)
        let firstExact = samples.firstIndex { !$0.moving }!
        #expect(samples[firstExact].time >= 100_000 + 10 * Self.frameMs, "not before the resting frame's time")
        #expect(samples[firstExact...].allSatisfy { $0.camera == end })
    }

    @Test func longitudeGoesTheShortWayAcrossTheAntimeridian() {
        var playout = Playout()
        let samples = Self.followed(&playout, n: 6) { t in Self.cam(longitude: t < 0.5 ? 179.4 + 1.2 * t : -180.6 + 1.2 * t) }
        #expect(samples.count > 10)
        #expect(samples.allSatisfy { abs($0.camera.longitude) >= 179.39 && $0.camera.longitude < 180 })
        #expect(CameraCurves.linear(Self.cam(longitude: 179.5), Self.cam(longitude: -179.5), 0.5).longitude == -180)
    }

    @Test func bearingTurnsTheShortWayThroughNorth() {
        #expect(CameraCurves.linear(Self.cam(bearing: 350), Self.cam(bearing: 10), 0.5).bearing == 0)
        #expect(CameraCurves.linear(Self.cam(bearing: 10), Self.cam(bearing: 350), 0.75).bearing == 355)
    }

    @Test func noOvershootAndMonotonicAlongAnEase() {
        var playout = Playout()
        let start = Self.cam(latitude: 0, zoom: 3)
        let end = Self.cam(latitude: 30, zoom: 9, tilt: 60)
        let samples = Self.followed(&playout, n: 30) { t in CameraCurves.linear(start, end, t * t * (3 - 2 * t)) }
        for (a, b) in zip(samples, samples.dropFirst()) {
            #expect((3...9).contains(b.camera.zoom) && (0...60).contains(b.camera.tilt))
            #expect(b.camera.zoom >= a.camera.zoom - 1e-12 && b.camera.latitude >= a.camera.latitude - 1e-12, "monotonic")
        }
        #expect(samples.last?.camera == end)
    }

    @Test func aMotionACommandStartedIsDrawnOverTheOneTickBeforeItsCornerFrame() {
        var o = PlayoutOptions()
        o.rate = 10
        var playout = Playout(options: o)
        playout.tick = 60
        playout.push(Self.frame(1, 0, Self.cam(longitude: 0), moving: false), receivedAt: 50)
        playout.push(Self.frame(2, 3000, Self.cam(longitude: 0.1), corner: true), receivedAt: 3050)
        let tick = 1000.0 / 60
        // drawn from 3000 − tick to 3000 at 0.1° per tick, and on at that speed past it
        #expect(abs(playout.camera(atHubTime: 3000 - tick / 2).longitude - 0.05) < 1e-9)
        #expect(abs(playout.camera(atHubTime: 3000 + tick).longitude - 0.2) < 1e-9)
        #expect(playout.camera(atHubTime: 3000 - tick - 1).longitude == 0, "at rest before that tick")
    }

    @Test func aDryPlayoutExtrapolatesAlongTheNewestFramesVelocity() {
        var o = PlayoutOptions()
        o.rate = 10
        var playout = Playout(options: o)
        var a = Self.frame(1, 0, Self.cam(longitude: 0))
        a.velocity = CameraVelocity(latitude: 0, longitude: 1, zoom: 0, bearing: 0, tilt: 0)
        var b = Self.frame(2, 100, Self.cam(longitude: 0.2))
        b.velocity = CameraVelocity(latitude: 0, longitude: 3, zoom: 0, bearing: 0, tilt: 0)
        playout.push(a, receivedAt: 5)
        playout.push(b, receivedAt: 105)
        #expect(abs(playout.camera(atHubTime: 150).longitude - (0.2 + 3 * 0.05)) < 1e-9, "the hub's 3°/s, not the secant's 2")
    }

    @Test func aJumpBetweenTwoRestingFramesIsAStepAtTheNewFramesTime() {
        var playout = Playout()
        playout.push(Self.frame(1, 0, Self.cam(longitude: 0), moving: false), receivedAt: 50)
        playout.push(Self.frame(2, 3000, Self.cam(longitude: 10), moving: false), receivedAt: 3050)
        var now = 3050.0
        while now < 3600 {
            let s = playout.sample(displayAt: now)!
            let expected: Double = s.time < 3000 ? 0 : 10
            #expect(s.camera.longitude == expected, "at \(s.time)")
            now += 5
        }
    }

    @Test func duplicateAndOutOfOrderFramesAreIgnored() {
        var playout = Playout()
        let taken = [
            Self.frame(5, 100, Self.cam()), Self.frame(5, 133, Self.cam(longitude: 50)), Self.frame(4, 133, Self.cam(longitude: 50)),
            Self.frame(6, 90, Self.cam(longitude: 50)),
        ].map { playout.push($0, receivedAt: 140) }
        #expect(taken == [true, false, false, false], "a repeated seq, an older seq, an older time")
        #expect(playout.frames.count == 1)
        playout.reset()
        let none = playout.sample(displayAt: 1000)
        #expect(none == nil)
    }
}
