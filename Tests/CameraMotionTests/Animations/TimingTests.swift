import CameraCore
import Testing

@testable import CameraMotion

/// A script of commands at fixed times, run with any tick rate.
private func run(tickRate: Double, sampleAt samples: [Double]) -> [Camera] {
    var m = AnimatorManager(camera: Camera(latitude: 10, longitude: 170, zoom: 3))
    let commands: [(Double, (inout AnimatorManager, Double) -> Void)] = [
        (
            0.013,
            { m, t in _ = m.ease(EaseRequest(update: CameraUpdate(longitude: -170, zoom: 5, bearing: 300), duration: 1.7), id: "a", owner: driver, at: t) }
        ),
        (0.4, { m, t in _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 40, longitude: -120, zoom: 7)), id: "b", owner: driver2, at: t) }),
        (
            0.41,
            { m, t in
                _ = m.ease(
                    EaseRequest(update: CameraUpdate(tilt: 50), duration: 0.9, curve: .cubicBezier(0.3, -0.2, 0.7, 1.3), after: "b"), id: "c", owner: driver2,
                    at: t)
            }
        ),
        (0.5, { m, t in _ = m.ease(EaseRequest(update: CameraUpdate(bearing: 20), duration: 0.33, delay: 0.777), id: "d", owner: driver, at: t) }),
        (2.2, { m, t in _ = m.track(.followDirection, location: TrackedLocation(latitude: 41, longitude: -119, heading: 45), owner: presenter, at: t) }),
        (2.9, { m, t in _ = m.track(.followDirection, location: TrackedLocation(latitude: 41.01, longitude: -119.02, heading: 50), owner: presenter, at: t) }),
        (3.3, { m, t in _ = m.set(CameraUpdate(zoom: 9), owner: presenter, at: t) }),
    ]
    var pending = commands[...]
    var out: [Camera] = []
    var nextSample = samples[...]
    var tick = 0
    while let sample = nextSample.first {
        let t = Double(tick) / tickRate
        // Commands arrive at their own times, between ticks.
        while let (when, command) = pending.first, when <= min(t, sample) {
            command(&m, when)
            pending = pending.dropFirst()
        }
        if sample <= t {
            m.advance(to: sample)
            out.append(m.camera)
            nextSample = nextSample.dropFirst()
            continue
        }
        m.advance(to: t)
        tick += 1
    }
    return out
}

@Suite("Animator manager: time, not ticks")
struct TimingTests {
    @Test("the same commands ticked at 10 Hz and at 240 Hz give the same camera at the same times")
    func tickRateIndependent() {
        let samples = stride(from: 0.05, through: 6, by: 0.05).map { $0 }
        let slow = run(tickRate: 10, sampleAt: samples)
        let fast = run(tickRate: 240, sampleAt: samples)
        let odd = run(tickRate: 37.3, sampleAt: samples)
        #expect(slow.count == samples.count)
        for i in samples.indices {
            expectClose(slow[i], fast[i], 1e-9)
            expectClose(odd[i], fast[i], 1e-9)
        }
    }

    @Test("a chained animation starts exactly when its predecessor ends")
    func chainStartsAtPredecessorEnd() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 5), duration: 1.234), id: "a", owner: driver, at: 0)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 2), duration: 1, curve: .linear, after: "a"), id: "b", owner: driver, at: 0.1)
        m.advance(to: 1.5)  // one coarse tick past the end of "a"
        let reports = m.takeReports()
        let aEnd = reports.first { $0.id == "a" && $0.status == .finished }
        let bStart = reports.first { $0.id == "b" && $0.status == .started }
        #expect(aEnd?.time == 1.234 && bStart?.time == 1.234)
        #expect(bStart?.camera.zoom == 5)
        #expect(abs(m.camera.zoom - (5 - 3 * (1.5 - 1.234))) < 1e-12)
    }

    @Test("after an unknown animation is unknown_animation")
    func afterUnknown() {
        var m = AnimatorManager()
        #expect(m.ease(EaseRequest(update: CameraUpdate(zoom: 2), after: "ghost"), owner: driver, at: 0).failureValue?.code == .unknownAnimation)
    }

    @Test("a chain whose predecessor is cancelled is cancelled too, without starting")
    func chainCancelledWithPredecessor() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 5)), id: "a", owner: driver, at: 0)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 2), after: "a"), id: "b", owner: driver, at: 0)
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 7), after: "b"), id: "c", owner: driver, at: 0)
        _ = m.cancel(id: "a", owner: driver, at: 0.5)
        let reports = m.takeReports()
        #expect(reports.filter { $0.id == "b" }.map(\.status) == [.cancelled])
        #expect(reports.filter { $0.id == "c" }.map(\.status) == [.cancelled])
        #expect(reports.first { $0.id == "b" }?.reason == "predecessorEnded")
    }

    @Test("a delay starts the animation exactly delay seconds after the command")
    func delayStartsLater() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 4), duration: 1, delay: 0.75), id: "a", owner: driver, at: 0.2)
        m.advance(to: 0.9)
        #expect(m.camera.zoom == 3 && m.takeReports().isEmpty)
        m.advance(to: 1.0)
        #expect(m.takeReports().first?.time == 0.95)
    }

    @Test("after plus delay waits the delay after the predecessor finishes")
    func afterPlusDelay() {
        var m = AnimatorManager(camera: Camera(zoom: 3))
        _ = m.ease(EaseRequest(update: CameraUpdate(zoom: 4), duration: 1), id: "a", owner: driver, at: 0)
        _ = m.ease(EaseRequest(update: CameraUpdate(tilt: 20), duration: 1, delay: 0.5, after: "a"), id: "b", owner: driver, at: 0)
        m.advance(to: 3)
        #expect(m.takeReports().first { $0.id == "b" && $0.status == .started }?.time == 1.5)
    }

    @Test("every animation gets exactly one completion, whatever happens")
    func exactlyOneCompletion() {
        var rng = SplitMix(seed: 42)
        let owners = [presenter, driver, driver2]
        var m = AnimatorManager(camera: Camera(zoom: 4))
        var ids: [String] = []
        var reports: [AnimationReport] = []
        var t = 0.0
        for step in 0..<600 {
            t += rng.next(in: 0...0.08)
            let owner = owners[Int(rng.next(in: 0...2.999))]
            let id = "s\(step)"
            let update: CameraUpdate = [
                CameraUpdate(zoom: rng.next(in: 1...10)), CameraUpdate(tilt: rng.next(in: 0...60)),
                CameraUpdate(latitude: rng.next(in: -60...60), longitude: rng.next(in: -180...180)),
                CameraUpdate(bearing: rng.next(in: 0...360), anchor: Anchor(x: 0.5, y: rng.next(in: 0.3...0.7))),
            ][Int(rng.next(in: 0...3.999))]
            let choice = rng.next(in: 0...1)
            var accepted = false
            if choice < 0.35 {
                accepted =
                    m.ease(
                        EaseRequest(update: update, duration: rng.next(in: 0...0.6), after: ids.last.flatMap { rng.next(in: 0...1) < 0.3 ? $0 : nil }), id: id,
                        owner: owner, at: t
                    ).isSuccess
            } else if choice < 0.55 {
                accepted =
                    m.fly(FlyRequest(update: update, duration: rng.next(in: 0...0.8), delay: rng.next(in: 0...0.2)), id: id, owner: owner, at: t).isSuccess
            } else if choice < 0.65, let victim = ids.randomElement(using: &rng) {
                _ = m.cancel(id: victim, owner: owner, at: t)
            } else if choice < 0.7 {
                m.ownerLeft(owner.client, at: t)
            } else if choice < 0.75 {
                _ = m.set(update, owner: owner, at: t)
            } else if choice < 0.8 {
                if case .success(let handle) = m.beginInteraction("pan", claims: .center, owner: owner, at: t) { m.endInteraction(handle, at: t + 0.01) }
            } else {
                m.advance(to: t)
            }
            if accepted { ids.append(id) }
            reports += m.takeReports()
        }
        _ = m.cancelAnimations(of: nil, by: "p1", at: t + 1)
        m.advance(to: t + 10)
        reports += m.takeReports()
        let terminal = reports.filter { $0.status != .started }
        for id in ids {
            let ends = terminal.filter { $0.id == id }
            #expect(ends.count == 1, "\(id): \(ends.map(\.status))")
            #expect(reports.filter { $0.id == id && $0.status == .started }.count <= 1)
        }
        #expect(Set(terminal.map(\.id)).isSubset(of: Set(ids)))
    }
}

/// A small deterministic generator, so the fuzz-style test is reproducible.
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
    mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
