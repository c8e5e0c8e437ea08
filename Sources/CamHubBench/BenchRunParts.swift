import CamHubClient
import Dispatch
import WebSocketTransport

/// The followers' client loops (one `FollowerShard` per thread) and their counters summed.
struct BenchFollowers {
    let shards: [FollowerShard]

    /// Every shard's counters and interval latency, summed (`resetInterval` starts a new interval).
    func totals(resetInterval: Bool = false) -> (ShardCounters, LatencyHistogram) {
        var c = ShardCounters()
        var h = LatencyHistogram()
        for s in shards {
            let (sc, sh) = s.snapshot(resetInterval: resetInterval)
            c.add(sc)
            h.add(sh)
        }
        return (c, h)
    }

    func shutdown() {
        for s in shards { s.shutdown() }
    }
}

/// The main room's presenter at work on a thread of its own: what it was
/// told to stop with, what it reported, and the frames it received in the
/// window (the reference for a script, which pauses). Shared with that thread
/// through `Locked` values and a semaphore.
final class BenchMotion: Sendable {
    let stop = Locked(false)
    let reference = Locked(WindowCounter())
    let window = Locked<MeasureWindow?>(nil)
    let presenterErrors = Locked<[String]>([])
    let presenterDone = DispatchSemaphore(value: 0)
    private let name = Locked("")

    /// What presents the main room ("spin", a script's name, or none).
    var presenterName: String {
        get { name.withLock { $0 } }
        set { name.withLock { $0 = newValue } }
    }

    /// Stops the presenter and waits for its thread (3 s at most). Safe to call twice.
    func finish() {
        stop.withLock { $0 = true }
        _ = presenterDone.wait(timeout: .now() + 3)
        presenterDone.signal()  // a second finish() does not wait again
    }
}

/// The measured window and the samples taken around it (monotonic seconds; CPU and jiffies).
struct BenchWindow {
    /// What the shards count frames against.
    let measure: MeasureWindow
    /// Milliseconds.
    let length: Double
    /// Whole seconds the window spans (its timeline's length).
    let seconds: Int
    /// Followers joined in a moving room when the window began: each is owed every frame.
    let eligible: Int
    /// Followers joined when the window began.
    let joined: Int
    var start = 0.0
    var hubStart: CPUSample?
    var hubEnd: CPUSample?
    var selfStart: CPUSample?
    var selfEnd: CPUSample?
    var machineStart: (busy: UInt64, total: UInt64)?
    var machineEnd: (busy: UInt64, total: UInt64)?

    init(measure: MeasureWindow, length: Double, seconds: Int, eligible: Int, joined: Int) {
        self.measure = measure
        self.length = length
        self.seconds = seconds
        self.eligible = eligible
        self.joined = joined
    }
}

/// The window's frames summed over the shards: owed, received, beyond what
/// was owed, followers short or silent, latency, frames per second.
struct BenchTally {
    var expected = 0
    var counted = 0
    var excess = 0
    var short = 0
    var silent = 0
    var histogram = LatencyHistogram()
    var perSecond: [Int]
    var counters = ShardCounters()

    init(_ shards: [FollowerShard], expectedPerFollower: Int, seconds: Int) {
        perSecond = Array(repeating: 0, count: seconds)
        for s in shards {
            let r = s.results(expectedPerFollower: expectedPerFollower)
            count(owed: r.expected, counted: r.counted, excess: r.excess, short: r.short, silent: r.silent)
            histogram.add(r.histogram)
            for (i, v) in r.perSecond.enumerated() where i < perSecond.count { perSecond[i] += v }
            counters.add(r.counters)
        }
    }

    /// Counts owed and received again against another reference (a script's own frames per follower).
    mutating func recount(_ shards: [FollowerShard], expectedPerFollower: Int) {
        (expected, counted, excess, short, silent) = (0, 0, 0, 0, 0)
        for s in shards {
            let r = s.results(expectedPerFollower: expectedPerFollower)
            count(owed: r.expected, counted: r.counted, excess: r.excess, short: r.short, silent: r.silent)
        }
    }

    private mutating func count(owed: Int, counted: Int, excess: Int, short: Int, silent: Int) {
        self.expected += owed
        self.counted += counted
        self.excess += excess
        self.short += short
        self.silent += silent
    }
}
