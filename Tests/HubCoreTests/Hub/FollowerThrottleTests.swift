import Testing

@testable import HubCore

/// A room ticking at `tick` Hz whose camera moves on the ticks where
/// `moving(k)` is true: `seq` advances on every moving tick and once more on
/// the tick where the camera comes to rest (the `moving: false` frame).
struct SimulatedRoom {
    let tick: Double
    let ticks: Int
    let moving: (Int) -> Bool
    /// Seconds of jitter added to tick k's clock reading.
    var jitter: (Int) -> Double = { _ in 0 }

    struct Sent: Equatable {
        var tick: Int
        var time: Double
        var seq: UInt64
    }
    struct Rest {
        var tick: Int
        var seq: UInt64
    }

    /// Runs one client through the room; returns what it was sent and when the room came to rest.
    func run(rate: Double, staggered: Bool = false) -> (sent: [Sent], rests: [Rest]) {
        var throttle = FollowerThrottle(rate: rate, tick: tick, staggered: staggered)
        var seq: UInt64 = 0
        var wasMoving = false
        var sent: [Sent] = []
        var rests: [Rest] = []
        for k in 0..<ticks {
            let now = Double(k) / tick + jitter(k)
            let isMoving = moving(k)
            if isMoving || wasMoving { seq += 1 }
            if wasMoving && !isMoving { rests.append(Rest(tick: k, seq: seq)) }
            wasMoving = isMoving
            if throttle.take(roomSeq: seq, now: now) { sent.append(Sent(tick: k, time: now, seq: seq)) }
        }
        return (sent, rests)
    }
}

@Suite("Follower throttle")
struct FollowerThrottleTests {
    static let combos: [(tick: Double, rate: Double)] = [
        (60, 60), (60, 30), (60, 25), (60, 24), (60, 7), (60, 1), (60, 13.7),
        (30, 30), (30, 25), (30, 7), (30, 1), (50, 30), (120, 25), (20, 7),
    ]
    /// Each of `combos` for a plain and a staggered throttle.
    static let withStagger: [(tick: Double, rate: Double, staggered: Bool)] = combos.flatMap { c in
        [false, true].map { (c.tick, c.rate, $0) }
    }

    @Test(
        "continuous motion for a simulated minute: the rate is met, never exceeded, never two frames in one tick",
        arguments: withStagger)
    func rateOverAMinute(tick: Double, rate: Double, staggered: Bool) {
        let room = SimulatedRoom(tick: tick, ticks: Int(60 * tick), moving: { _ in true })
        let sent = room.run(rate: rate, staggered: staggered).sent
        // No drift below the rate from tick quantization, and no excess.
        let expected = rate * 60
        #expect(Double(sent.count) >= expected - 1, "tick \(tick) rate \(rate): \(sent.count) frames")
        #expect(Double(sent.count) <= expected + 1, "tick \(tick) rate \(rate): \(sent.count) frames")
        // Never two frames in one tick.
        for (a, b) in zip(sent, sent.dropFirst()) { #expect(b.tick > a.tick) }
        // Any one-second window [t, t + 1) holds at most ⌈rate⌉ frames.
        var start = 0
        var worst = 0
        for end in sent.indices {
            while sent[end].time - sent[start].time >= 1 - 1e-9 { start += 1 }
            worst = max(worst, end - start + 1)
        }
        #expect(Double(worst) <= rate.rounded(.up), "tick \(tick) rate \(rate): \(worst) frames in one second")
        // Frames are spread evenly: no gap longer than one interval plus one tick.
        for (a, b) in zip(sent, sent.dropFirst()) {
            #expect(b.time - a.time <= 1 / rate + 1 / tick + 1e-9)
        }
    }

    @Test("when the camera comes to rest the final frame arrives within 1/rate", arguments: withStagger)
    func finalStateDelivered(tick: Double, rate: Double, staggered: Bool) {
        var generator = SplitMix(seed: UInt64(tick * 1000 + rate * 10))
        // Random episodes of motion (1 tick … 3 s) separated by rests long enough to deliver.
        let restTicks = Int((tick / rate).rounded(.up)) + 1
        var pattern: [Bool] = []
        while pattern.count < Int(120 * tick) {
            pattern += Array(repeating: false, count: restTicks + Int(generator.next() % UInt64(tick)))
            pattern += Array(repeating: true, count: 1 + Int(generator.next() % UInt64(3 * tick)))
        }
        pattern += Array(repeating: false, count: restTicks + 1)
        let room = SimulatedRoom(tick: tick, ticks: pattern.count, moving: { pattern[$0] })
        let (sent, rests) = room.run(rate: rate, staggered: staggered)
        #expect(rests.count > 10)
        for rest in rests {
            let delivery = sent.first { $0.seq == rest.seq }
            #expect(delivery != nil, "rest at tick \(rest.tick) never delivered (tick \(tick) rate \(rate))")
            if let delivery {
                let latency = delivery.time - Double(rest.tick) / tick
                #expect(latency <= 1 / rate + 1e-9, "tick \(tick) rate \(rate): final frame after \(latency) s")
            }
        }
        // The last frame sent is always the final state.
        #expect(sent.last?.seq == rests.last?.seq)
    }

    @Test func aStaggeredClientStartingFromRestRunsOneTickApartFromAPlainOne() {
        let room = SimulatedRoom(tick: 60, ticks: 120, moving: { _ in true })
        let plain = room.run(rate: 30).sent.map(\.tick)
        let staggered = room.run(rate: 30, staggered: true).sent.map(\.tick)
        #expect(Array(plain.prefix(3)) == [0, 2, 4])
        #expect(Array(staggered.prefix(3)) == [1, 3, 5], "one tick later, then the same rate")
        #expect(plain.count == staggered.count)
    }

    @Test func atMoreThanHalfTheTickRateAStaggeredClientIsNotDelayed() {
        let room = SimulatedRoom(tick: 60, ticks: 60, moving: { _ in true })
        #expect(room.run(rate: 60, staggered: true).sent.map(\.tick) == Array(0..<60))
        #expect(room.run(rate: 40, staggered: true).sent.first?.tick == 0)
    }

    @Test func aStaggeredSlowClientStillTakesTheFrameAtAChangeOfCourseAtOnce() {
        var throttle = FollowerThrottle(rate: 10, tick: 60, staggered: true)
        throttle.didSend(seq: 1, now: 0)
        // Much later the camera starts to move: the first frame is a corner frame (rule 4).
        let sent = throttle.take(roomSeq: 2, promptSeq: 2, now: 5)
        #expect(sent)
    }

    @Test("nothing is sent when nothing changed")
    func idle() {
        var t = FollowerThrottle(rate: 30, tick: 60)
        #expect(take(&t, roomSeq: 5, now: 0))
        for k in 1..<600 { #expect(!take(&t, roomSeq: 5, now: Double(k) / 60)) }
        #expect(take(&t, roomSeq: 6, now: 10))
        #expect(!t.shouldSend(roomSeq: 5, now: 20))  // an older seq never goes out
    }

    @Test("after welcome (didSend of the welcome seq) the same state is not sent again")
    func afterWelcome() {
        var t = FollowerThrottle(rate: 30, tick: 30)
        t.didSend(seq: 17, now: 100)
        #expect(!t.shouldSend(roomSeq: 17, now: 100.5))
        #expect(t.shouldSend(roomSeq: 18, now: 100.5))
    }

    @Test("a pause does not turn into a burst")
    func noBurstAfterPause() {
        var t = FollowerThrottle(rate: 1, tick: 60)
        #expect(take(&t, roomSeq: 1, now: 0))
        // Motion resumes half-way to where the next slot would have been overdue.
        #expect(take(&t, roomSeq: 2, now: 1.5))
        #expect(!take(&t, roomSeq: 3, now: 2.0))
        #expect(!take(&t, roomSeq: 4, now: 2.49))
        #expect(take(&t, roomSeq: 5, now: 2.5))
    }

    @Test(
        "clock jitter of ±2 ms in `now` costs no frames and adds at most one frame to a window",
        arguments: [(60.0, 30.0), (60.0, 25.0), (30.0, 30.0), (60.0, 7.0), (60.0, 13.7), (60.0, 60.0)])
    func jitter(tick: Double, rate: Double) {
        var generator = SplitMix(seed: 7)
        let offsets = (0..<Int(60 * tick)).map { _ in (Double(generator.next() % 4001) - 2000) / 1_000_000 }
        var room = SimulatedRoom(tick: tick, ticks: offsets.count, moving: { _ in true })
        room.jitter = { offsets[$0] }
        let sent = room.run(rate: rate).sent
        let count = Double(sent.count)
        #expect(count >= rate * 60 * 0.99 && count <= rate * 60 + 1, "tick \(tick) rate \(rate): \(count)")
        var start = 0
        for end in sent.indices {
            // Jitter may move single frames by a tick: one extra frame per window at most.
            // (Hence the advice to pass the tick's scheduled time as `now`.)
            while sent[end].time - sent[start].time >= 1 { start += 1 }
            #expect(Double(end - start + 1) <= rate.rounded(.up) + 1, "tick \(tick) rate \(rate): window ending \(sent[end].time)")
        }
    }

    @Test("rate is clamped to 1…tick and can change")
    func clamping() {
        #expect(FollowerThrottle(rate: 90, tick: 60).rate == 60)
        #expect(FollowerThrottle(rate: 0.1, tick: 60).rate == 1)
        #expect(FollowerThrottle(rate: .nan, tick: 60).rate == 60)
        var t = FollowerThrottle(rate: 1, tick: 60)
        #expect(take(&t, roomSeq: 1, now: 0))
        t.setRate(10)
        #expect(!take(&t, roomSeq: 2, now: 0.05))
        #expect(take(&t, roomSeq: 3, now: 0.1))
    }
}

/// Deterministic generator for reproducible simulations.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("FollowerThrottle: frames at a change of course")
struct FollowerThrottlePromptTests {
    /// A 10 Hz client of a 60 Hz room that got frame 1 at time 0.
    func tenHertzAfterAFrame() -> FollowerThrottle {
        var throttle = FollowerThrottle(rate: 10, tick: 60)
        throttle.didSend(seq: 1, now: 0)
        return throttle
    }

    @Test func aSlowClientTakesAPromptFrameBeforeItsDueTime() {
        var throttle = tenHertzAfterAFrame()
        let plain = throttle.take(roomSeq: 2, now: 1 / 60)
        let prompt = throttle.take(roomSeq: 3, promptSeq: 3, now: 2 / 60)
        let samePromptLater = throttle.take(roomSeq: 4, promptSeq: 3, now: 3 / 60)
        let beforeNewSchedule = throttle.take(roomSeq: 5, now: 2 / 60 + 0.1 - 1 / 60)
        let onNewSchedule = throttle.take(roomSeq: 6, now: 2 / 60 + 0.1)
        #expect(!plain, "not due, and the frame is not a prompt one")
        #expect(prompt, "a prompt frame goes at once")
        #expect(!samePromptLater, "a prompt frame already sent does not send a later one early")
        #expect(!beforeNewSchedule, "the schedule starts afresh from the prompt frame")
        #expect(onNewSchedule)
    }

    @Test func aPromptFrameStillNeverComesTwiceInOneTick() {
        var throttle = tenHertzAfterAFrame()
        let sent = throttle.take(roomSeq: 2, promptSeq: 2, now: 0.001)
        #expect(!sent)
    }

    @Test(arguments: [30.0, 40])
    func clientsAtHalfTheTickRateOrFasterIgnorePromptFrames(rate: Double) {
        var throttle = FollowerThrottle(rate: rate, tick: 60)
        throttle.didSend(seq: 1, now: 0)
        let sent = throttle.take(roomSeq: 2, promptSeq: 2, now: 1 / 60)
        #expect(!throttle.getsPromptFrames)
        #expect(!sent)
    }
}
