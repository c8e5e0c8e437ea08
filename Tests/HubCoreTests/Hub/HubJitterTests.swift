import CameraCore
import Testing

@testable import HubCore

/// The follower contract under a real clock: ticks that fire late by varying
/// amounts, clients that join between ticks, a presenter's chain of animators.
@Suite("Hub: frames under a jittery clock")
struct HubJitterTests {
    struct SplitMix {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    func segment(_ k: Int) -> String {
        let after = k > 1 ? #","after":"s\#(k - 1)""# : ""
        return #"{"type":"animate","id":"s\#(k)","to":{"bearing":\#((k * 90) % 360),"lon":\#((k * 30) % 180)},"duration":1,"curve":"linear"\#(after)}"#
    }

    /// `offset`: where the timer's grid sits against the hub clock's (in ticks);
    /// `maxLateness`: how late (s) each timer fires beyond it, at random.
    @Test(arguments: [(0.0, 0.0), (0.0, 0.003), (0.0, 0.009), (0.45, 0.0017), (0.49, 0.0005), (0.3, 0.012)])
    func everyFollowerGetsItsRateWhileTheCameraMoves(offset: Double, maxLateness: Double) {
        var rng = SplitMix(state: 42)
        let bench = HubBench()
        let p = bench.join(role: "presenter", rate: 30)
        var followers: [ConnectionKey] = []
        for _ in 0..<40 {
            bench.wait(rng.next() * 0.02)
            followers.append(bench.join(role: "follower", rate: 30).key)
        }
        for k in 1...8 { bench.send(segment(k), from: p.key) }
        let start = (bench.now * bench.tick).rounded(.up)
        var measured: [ConnectionKey: Int] = [:]
        for i in 1...(60 * 6) {
            bench.now = (start + Double(i) + offset) / bench.tick + rng.next() * maxLateness
            bench.tickOnce()
            if i == 60 { bench.clear() }  // measure seconds 1…6
        }
        for key in followers { measured[key] = bench.frames(key).count }
        let counts = measured.values.sorted()
        #expect(counts.first! >= 148, "5 s at 30 frames a second, at most 2 lost at the edges: \(counts)")
    }
}
