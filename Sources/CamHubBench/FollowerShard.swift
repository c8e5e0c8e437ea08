import CamHubClient
import CamHubProtocol
import Foundation
import HubCore
import Synchronization
import WebSocketTransport

/// The measuring window, in hub wall-clock milliseconds.
struct MeasureWindow: Sendable {
    /// Hub time at which the window opens.
    var start: Double
    /// Window length (ms): each follower counts frames in [its first frame, first + length − period/2).
    var length: Double
    /// Frame period (ms) = 1000 / rate.
    var period: Double

    /// Frames one follower should get in the window.
    var expectedPerFollower: Int { Int((length / period).rounded()) }
}

/// Counts one connection's frames in the window: from its first frame at or
/// after `start` (if that comes within 1.5 periods; later starts count from
/// `start`, so a late first frame costs frames) up to `length − period/2`
/// after it. With evenly spaced frames this is exactly `length / period`
/// frames whatever the connection's phase; half a period of jitter at either
/// end changes nothing.
struct WindowCounter: Sendable {
    var first = Double.nan
    var count: Int32 = 0

    /// True when the frame (hub `time`) falls inside this connection's window.
    mutating func admit(_ time: Double, _ w: MeasureWindow) -> Bool {
        guard time >= w.start else { return false }
        if first.isNaN { first = time - w.start <= 1.5 * w.period ? time : w.start }
        guard time < first + w.length - 0.5 * w.period else { return false }
        count += 1
        return true
    }

    /// Which second (0..<seconds) of this connection's own window an admitted frame
    /// falls in. Counted from the connection's first frame, not from `start`: a window
    /// that opens up to 1.5 periods late ends as late, and its last frame still
    /// belongs to the last second. Frames are placed by their slot (half a period of
    /// slack), so jitter or rounding never moves a frame into the neighbouring second.
    func second(of time: Double, _ w: MeasureWindow, seconds: Int) -> Int {
        let s = Int(((time - first + 0.5 * w.period) / 1000).rounded(.down))
        return min(max(s, 0), seconds - 1)
    }
}

/// A frame's `seq` and `time` read straight from the hub's bytes: a binary
/// frame's fixed fields (`BinaryFrame`: seq at offset 2, time at 10), or the
/// JSON frame's first two (`{"type":"frame","seq":N,"time":T,...`); nil for
/// other messages.
enum FrameScan {
    private static let prefix = WirePrefix.bytes(WirePrefix.frame)
    private static let timeKey = WirePrefix.bytes(WirePrefix.frameTime)
    private static let binaryHead = WirePrefix.binaryHead

    static func isFrame(_ b: UnsafeBufferPointer<UInt8>) -> Bool { isBinaryFrame(b) || (hasPrefix(b, prefix) && b.count > prefix.count) }

    static func isBinaryFrame(_ b: UnsafeBufferPointer<UInt8>) -> Bool { b.count >= binaryHead && b[0] == BinaryFrame.kind }

    static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard b.count >= prefix.count else { return false }
        for i in 0..<prefix.count where b[i] != prefix[i] { return false }
        return true
    }

    static func scan(_ b: UnsafeBufferPointer<UInt8>) -> (seq: UInt64, time: Double)? {
        if isBinaryFrame(b) {
            let raw = UnsafeRawBufferPointer(b)
            let seq = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: WirePrefix.binarySeqOffset, as: UInt64.self))
            let time = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: WirePrefix.binaryTimeOffset, as: UInt64.self)))
            return (seq, time)
        }
        guard isFrame(b) else { return nil }
        var i = prefix.count
        var seq: UInt64 = 0
        while i < b.count, b[i] >= 48, b[i] <= 57 {
            seq = seq &* 10 &+ UInt64(b[i] - 48)
            i += 1
        }
        guard b.count - i > timeKey.count else { return nil }
        for k in 0..<timeKey.count where b[i + k] != timeKey[k] { return nil }
        i += timeKey.count
        // The hub writes time as a plain decimal (ms since the epoch, maybe fractional).
        var whole = 0.0
        var digits = 0
        while i < b.count, b[i] >= 48, b[i] <= 57 {
            whole = whole * 10 + Double(b[i] - 48)
            i += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                whole += Double(b[i] - 48) * scale
                scale *= 0.1
                i += 1
            }
        }
        guard i < b.count, b[i] == UInt8(ascii: ",") || b[i] == UInt8(ascii: "}") else { return nil }  // no exponents here
        return (seq, whole)
    }
}

/// Counters of one shard (and, added up, of the whole bench).
struct ShardCounters: Sendable {
    var opened = 0
    var joined = 0
    var failed = 0
    var disconnects = 0
    var framesTotal = 0
    var windowFrames = 0
    /// Bytes on the wire of the window's frames: payload and WebSocket header (2 bytes up to 125 of payload, else 4).
    var windowFrameBytes = 0
    var otherMessages = 0
    var errorMessages = 0
    var bytes = 0
    var errorSamples: [String] = []
    var failureSamples: [String] = []
    var disconnectSamples: [String] = []

    /// Every message received on the followers' connections: frames, events, errors.
    var messagesTotal: Int { framesTotal + otherMessages + errorMessages }

    mutating func add(_ o: ShardCounters) {
        opened += o.opened
        joined += o.joined
        failed += o.failed
        disconnects += o.disconnects
        framesTotal += o.framesTotal
        windowFrames += o.windowFrames
        windowFrameBytes += o.windowFrameBytes
        otherMessages += o.otherMessages
        errorMessages += o.errorMessages
        bytes += o.bytes
        errorSamples = Array((errorSamples + o.errorSamples).prefix(5))
        failureSamples = Array((failureSamples + o.failureSamples).prefix(5))
        disconnectSamples = Array((disconnectSamples + o.disconnectSamples).prefix(5))
    }
}

/// The sockets a shard's followers use: plain `ws://` on epoll by default,
/// libwebsockets' client for `wss://` or when asked (`camhub bench --client lws`).
enum FollowerSockets: Sendable {
    case epoll(EpollFollowerClient)
    case lws(WebSocketClient)
}

/// Many follower sockets on one loop thread. Each follower says `hello` on
/// open and then only counts what it receives. Handlers run on the loop
/// thread; the bench thread reads snapshots; what both touch is in `guarded`.
final class FollowerShard: Sendable {
    let sockets: FollowerSockets
    private let request: ConnectRequest
    /// One `hello` per room; each follower says the one `connectOne` chose.
    private let hellos: [String]
    /// Local wall clock → hub clock (ms), 0 on the same machine.
    private let clockOffset: Double

    /// The followers' states and counts, shared by the loop thread and the bench thread.
    private struct Guarded {
        var counters = ShardCounters()
        var state: [UInt8] = []  // 0 pending, 1 open, 2 joined, 3 closed
        var eligible: [Bool] = []  // joined when the window opened
        var windows: [WindowCounter] = []
        var window: MeasureWindow?
        var frozen = false
        var stopping = false
        var histogram = LatencyHistogram()
        var interval = LatencyHistogram()
        var perSecond: [Int] = []
        var ids: [ConnectionID] = []
        var helloOf: [Int] = []  // index into `hellos`, per follower
    }
    private let guarded = Mutex(Guarded())

    init(
        request: ConnectRequest, hellos: [String], clockOffset: Double, maxConcurrentConnects: Int, tls: ClientTLS? = nil,
        useLibWebSockets: Bool = false, readPause: Duration = .zero
    ) throws {
        if useLibWebSockets || request.useTLS {
            var configuration = ClientConfiguration()
            configuration.tls = tls
            configuration.maxConcurrentConnects = maxConcurrentConnects
            configuration.connectTimeoutSeconds = 20
            configuration.receiveBufferSize = 2048
            configuration.maxMessageSize = 4 << 20
            sockets = .lws(WebSocketClient(configuration: configuration))
        } else {
            sockets = .epoll(try EpollFollowerClient(request: request, readPause: readPause))
        }
        self.request = request
        self.hellos = hellos
        self.clockOffset = clockOffset
    }

    func start() throws {
        switch sockets {
        case .epoll(let client):
            client.start(
                EpollFollowerClient.Handlers(
                    onOpen: { [unowned self] id in self.opened(id) },
                    onMessage: { [unowned self] id, bytes in self.received(id, bytes) },
                    onClose: { [unowned self] id, event in self.closed(id, event) }))
        case .lws(let client):
            try client.start(
                ClientHandlers(
                    onOpen: { [unowned self] id in self.opened(id) },
                    onMessage: { [unowned self] id, message in
                        guard case .text(var text) = message else { return }
                        text.withUTF8 { self.received(id, $0) }
                    },
                    onClose: { [unowned self] id, event in self.closed(id, event) }))
        }
    }

    private func connect() -> ConnectionID {
        switch sockets {
        case .epoll(let client): client.connect()
        case .lws(let client): client.connect(request)
        }
    }

    private func send(_ text: String, to id: ConnectionID) {
        switch sockets {
        case .epoll(let client): client.send(text: text, to: id)
        case .lws(let client): client.send(.text(text), to: id)
        }
    }

    /// Opens one more follower (any thread).
    func connectOne(hello: Int = 0) {
        guarded.withLock { g in
            g.helloOf.append(hello)
            g.state.append(0)
            g.eligible.append(false)
            g.windows.append(WindowCounter())
        }
        let id = connect()
        guarded.withLock { $0.ids.append(id) }
    }

    private func index(_ id: ConnectionID) -> Int { Int(id.rawValue) - 1 }

    private func opened(_ id: ConnectionID) {
        let i = index(id)
        let hello = guarded.withLock { g in
            if i < g.state.count { g.state[i] = 1 }
            g.counters.opened += 1
            return hellos[i < g.helloOf.count ? g.helloOf[i] : 0]
        }
        send(hello, to: id)
    }

    /// Loop thread: one whole message (JSON text, or a binary frame).
    private func received(_ id: ConnectionID, _ b: UnsafeBufferPointer<UInt8>) {
        let now = wallClockMilliseconds() + clockOffset
        let i = index(id)
        let frame = FrameScan.scan(b)
        guarded.withLock { g in
            g.counters.bytes += b.count
            if let frame {
                g.counters.framesTotal += 1
                guard let w = g.window, !g.frozen, i < g.windows.count, g.eligible[i] else { return }
                if g.windows[i].admit(frame.time, w) {
                    g.counters.windowFrames += 1
                    g.counters.windowFrameBytes += b.count + (b.count < 126 ? 2 : 4)
                    let latency = now - frame.time
                    g.histogram.record(milliseconds: latency)
                    g.interval.record(milliseconds: latency)
                    g.perSecond[g.windows[i].second(of: frame.time, w, seconds: g.perSecond.count)] += 1
                }
                return
            }
            if FrameScan.isFrame(b) {
                g.counters.framesTotal += 1
                return
            }  // unexpected layout: counted, not timed
            if FrameScan.hasPrefix(b, Self.welcomePrefix) {
                if i < g.state.count, g.state[i] == 1 {
                    g.state[i] = 2
                    g.counters.joined += 1
                }
            } else if FrameScan.hasPrefix(b, Self.errorPrefix) {
                g.counters.errorMessages += 1
                if g.counters.errorSamples.count < 5 { g.counters.errorSamples.append(String(decoding: b, as: UTF8.self)) }
            } else {
                g.counters.otherMessages += 1
            }
        }
    }

    private static let welcomePrefix = Array(#"{"type":"welcome""#.utf8)
    private static let errorPrefix = Array(#"{"type":"error""#.utf8)

    private func closed(_ id: ConnectionID, _ event: ClientCloseEvent) {
        let i = index(id)
        guarded.withLock { g in
            let was = i < g.state.count ? g.state[i] : 0
            if i < g.state.count { g.state[i] = 3 }
            if g.stopping { return }
            if event.wasOpen {
                g.counters.disconnects += 1
                if was == 2 { g.counters.joined -= 1 }
                if g.counters.disconnectSamples.count < 5 { g.counters.disconnectSamples.append(describe(event)) }
            } else {
                g.counters.failed += 1
                if g.counters.failureSamples.count < 5 { g.counters.failureSamples.append(describe(event)) }
            }
        }
    }

    /// Opens the window: followers joined now, in one of the first
    /// `measuredRooms` rooms (the moving ones), are measured.
    func begin(_ w: MeasureWindow, seconds: Int, measuredRooms: Int = .max) {
        guarded.withLock { g in
            g.window = w
            g.perSecond = Array(repeating: 0, count: max(1, seconds))
            for i in 0..<g.state.count { g.eligible[i] = g.state[i] == 2 && g.helloOf[i] < measuredRooms }
            g.histogram.reset()
            g.interval.reset()
        }
    }

    /// Stops counting (after the drain).
    func freeze() { guarded.withLock { $0.frozen = true } }

    var eligibleCount: Int { guarded.withLock { g in g.eligible.reduce(0) { $0 + ($1 ? 1 : 0) } } }

    func snapshot(resetInterval: Bool) -> (ShardCounters, LatencyHistogram) {
        guarded.withLock { g in
            let i = g.interval
            if resetInterval { g.interval.reset() }
            return (g.counters, i)
        }
    }

    /// Final per-follower figures: (expected, counted ≤ expected, excess, short followers, silent followers).
    func results(expectedPerFollower e: Int) -> (
        expected: Int, counted: Int, excess: Int, short: Int, silent: Int,
        histogram: LatencyHistogram, perSecond: [Int], counters: ShardCounters
    ) {
        guarded.withLock { g in
            var expected = 0
            var counted = 0
            var excess = 0
            var short = 0
            var silent = 0
            for i in 0..<g.windows.count where g.eligible[i] {
                let c = Int(g.windows[i].count)
                expected += e
                counted += min(c, e)
                excess += max(0, c - e)
                if c < e { short += 1 }
                if c == 0 { silent += 1 }
            }
            return (expected, counted, excess, short, silent, g.histogram, g.perSecond, g.counters)
        }
    }

    func shutdown() {
        guarded.withLock { $0.stopping = true }
        switch sockets {
        case .epoll(let client): client.shutdown()
        case .lws(let client): client.shutdown()
        }
    }
}
