import CamHubProtocol
import HubCore
import Metrics
import Prometheus
import WebSocketTransport

/// The hub's metrics in swift-metrics, kept in a Prometheus registry of this
/// server's own (so several servers in one process, as in tests, never mix).
/// `flush` moves what the loops' `HubTally`s counted into the counters and
/// histograms and sets the gauges from the hubs' figures: once a second and
/// before each scrape. Everything but `registry` is loop 0's only.
final class HubMetrics {
    let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory
    /// How many rooms get a `camhub_room_ticks_per_second` series (the busiest).
    static let topRooms = 10

    private let framesSent, bytesSent, rateLimited: Metrics.Counter
    private let framesThrottled, framesCoalesced, framesJoined: Metrics.Counter
    private let slowUnacknowledged, slowUndrained: Metrics.Counter
    private let recordingsDropped, redisFramesShed, redisInboxShed: Metrics.Counter
    private let loopBatchesDepth, hubMailboxDepth, roomStoreDepth, recorderDepth, redisDepth, redisInboxDepth: Metrics.Gauge
    /// By loop (`loop` label): each loop's hub ticks on its own.
    private var tickDuration: [Int: Metrics.Timer] = [:]
    private var sendPassDuration: [Int: Metrics.Timer] = [:]
    private let rooms, awakeRooms, members, ticksPerSecond: Metrics.Gauge
    private var connections: [String: Metrics.Gauge] = [:]
    private var labelled: [String: [String: Metrics.Counter]] = [:]
    private var roomTicks: [String: Metrics.Gauge] = [:]
    private var lastTransport = TransportTotals()
    private var lastRecordingsDropped = 0
    private var lastRedisFramesShed = 0
    private var lastRedisInboxShed = 0

    /// `loops`: the hub's loops, each with its own series of the tick histograms.
    init(loops: Int = 1) {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Fine between 1 and 16.7 ms (a tick at 60 Hz), where a loaded hub's ticks fall.
        let tickBuckets: [Duration] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
            .milliseconds(1), .microseconds(1_500), .milliseconds(2), .milliseconds(3), .milliseconds(4),
            .milliseconds(5), .milliseconds(6), .milliseconds(8), .milliseconds(10), .microseconds(12_500),
            .milliseconds(15), .milliseconds(20), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        ]
        factory.durationHistogramBuckets = [
            "camhub_tick_duration_seconds": tickBuckets,
            "camhub_send_pass_duration_seconds": tickBuckets,
        ]
        self.factory = factory
        framesSent = Metrics.Counter(label: "camhub_frames_sent_total", factory: factory)
        bytesSent = Metrics.Counter(label: "camhub_bytes_sent_total", factory: factory)
        rateLimited = Metrics.Counter(label: "camhub_rate_limited_total", factory: factory)
        framesThrottled = Metrics.Counter(label: "camhub_frames_skipped_total", dimensions: [("reason", "throttle")], factory: factory)
        framesCoalesced = Metrics.Counter(label: "camhub_frames_skipped_total", dimensions: [("reason", "coalesced")], factory: factory)
        framesJoined = Metrics.Counter(label: "camhub_frames_joined_total", factory: factory)
        slowUnacknowledged = Metrics.Counter(
            label: "camhub_slow_client_closes_total", dimensions: [("reason", "unacknowledged")], factory: factory)
        slowUndrained = Metrics.Counter(label: "camhub_slow_client_closes_total", dimensions: [("reason", "undrained")], factory: factory)
        recordingsDropped = Metrics.Counter(label: "camhub_recording_dropped_total", factory: factory)
        redisFramesShed = Metrics.Counter(label: "camhub_redis_frames_shed_total", factory: factory)
        redisDepth = Metrics.Gauge(label: "camhub_queue_depth", dimensions: [("queue", "redis")], factory: factory)
        redisInboxShed = Metrics.Counter(label: "camhub_redis_inbox_frames_shed_total", factory: factory)
        redisInboxDepth = Metrics.Gauge(label: "camhub_queue_depth", dimensions: [("queue", "redis_inbox")], factory: factory)
        loopBatchesDepth = Metrics.Gauge(label: "camhub_queue_depth", dimensions: [("queue", "loop_batches")], factory: factory)
        hubMailboxDepth = Metrics.Gauge(label: "camhub_queue_depth", dimensions: [("queue", "hub_mailbox")], factory: factory)
        roomStoreDepth = Metrics.Gauge(label: "camhub_queue_depth", dimensions: [("queue", "room_store")], factory: factory)
        recorderDepth = Metrics.Gauge(label: "camhub_queue_depth", dimensions: [("queue", "recorder")], factory: factory)
        rooms = Metrics.Gauge(label: "camhub_rooms", factory: factory)
        awakeRooms = Metrics.Gauge(label: "camhub_rooms_awake", factory: factory)
        members = Metrics.Gauge(label: "camhub_members", factory: factory)
        ticksPerSecond = Metrics.Gauge(label: "camhub_ticks_per_second", factory: factory)
        for loop in 0..<loops {
            _ = Self.timer(&tickDuration, "camhub_tick_duration_seconds", loop: loop, factory)
            _ = Self.timer(&sendPassDuration, "camhub_send_pass_duration_seconds", loop: loop, factory)
        }
        for role in Self.roleLabels {
            connections[role] = Metrics.Gauge(label: "camhub_connections", dimensions: [("role", role)], factory: factory)
        }
    }

    /// `none`: connected, not joined yet.
    static let roleLabels = Role.allCases.map(\.rawValue) + ["none"]

    /// Moves `tally` (the loops' counts since the last flush) into the metrics
    /// and sets the gauges from `figures` (read off the hubs). `transport` holds the transport's running totals
    /// (coalesced frames, slow clients closed), `queues` what waits in the hand-overs.
    func flush(tally: TallyCounts, figures: HubFigures, transport: TransportTotals, queues: QueueFigures) {
        framesSent.increment(by: tally.framesSent)
        bytesSent.increment(by: tally.frameBytes + tally.messageBytes)
        rateLimited.increment(by: tally.rateLimited)
        framesThrottled.increment(by: tally.framesThrottled)
        framesCoalesced.increment(by: transport.framesReplaced - lastTransport.framesReplaced)
        framesJoined.increment(by: transport.framesJoined - lastTransport.framesJoined)
        slowUnacknowledged.increment(by: transport.slowCloses.unacknowledged - lastTransport.slowCloses.unacknowledged)
        slowUndrained.increment(by: transport.slowCloses.undrained - lastTransport.slowCloses.undrained)
        lastTransport = transport
        recordingsDropped.increment(by: queues.recordingsDropped - lastRecordingsDropped)
        lastRecordingsDropped = queues.recordingsDropped
        redisFramesShed.increment(by: queues.redisFramesShed - lastRedisFramesShed)
        lastRedisFramesShed = queues.redisFramesShed
        redisInboxShed.increment(by: queues.redisInboxShed - lastRedisInboxShed)
        lastRedisInboxShed = queues.redisInboxShed
        redisInboxDepth.record(queues.redisInbox)
        redisDepth.record(queues.redis)
        loopBatchesDepth.record(queues.loopBatches)
        hubMailboxDepth.record(queues.hubMailbox)
        roomStoreDepth.record(queues.roomStore)
        recorderDepth.record(queues.recorder)
        add(tally.messagesByType, to: "camhub_messages_sent_total", label: "type")
        if tally.framesSent > 0 { counter("camhub_messages_sent_total", "type", "frame").increment(by: tally.framesSent) }
        add(tally.commandsByType, to: "camhub_commands_received_total", label: "type")
        add(tally.errorsByCode, to: "camhub_errors_sent_total", label: "code")
        add(tally.closesByCode, to: "camhub_closes_total", label: "code")
        for (loop, durations) in tally.tickDurations {
            let timer = Self.timer(&tickDuration, "camhub_tick_duration_seconds", loop: loop, factory)
            for d in durations { timer.recordNanoseconds(Self.nanoseconds(d)) }
        }
        for (loop, durations) in tally.sendPassDurations {
            let timer = Self.timer(&sendPassDuration, "camhub_send_pass_duration_seconds", loop: loop, factory)
            for d in durations { timer.recordNanoseconds(Self.nanoseconds(d)) }
        }

        rooms.record(figures.rooms)
        members.record(figures.members)
        awakeRooms.record(figures.awakeRooms)
        ticksPerSecond.record(figures.ticksPerSecond)
        let byRole = figures.connectionsByRole
        for role in Role.allCases { connections[role.rawValue]?.record(byRole[role] ?? 0) }  // `init` made one per role and "none"
        connections["none"]?.record(byRole[nil] ?? 0)
        recordTopRooms(figures.busyRooms)
    }

    /// Keeps one gauge per busy room, for the `topRooms` busiest (ties by name),
    /// and removes the series of rooms that left the top or went to rest.
    private func recordTopRooms(_ rates: [String: Int]) {
        let top = rates.filter { $0.value > 0 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(Self.topRooms)
        let keep = Set(top.map(\.key))
        for (room, gauge) in roomTicks where !keep.contains(room) {
            gauge.destroy()
            roomTicks[room] = nil
        }
        for (room, rate) in top {
            if let gauge = roomTicks[room] {
                gauge.record(rate)
            } else {
                let gauge = Metrics.Gauge(label: "camhub_room_ticks_per_second", dimensions: [("room", room)], factory: factory)
                roomTicks[room] = gauge
                gauge.record(rate)
            }
        }
    }

    private func add(_ counts: [String: Int], to name: String, label: String) {
        for (value, count) in counts where count > 0 { counter(name, label, value).increment(by: count) }
    }

    private func counter(_ name: String, _ label: String, _ value: String) -> Metrics.Counter {
        if let counter = labelled[name]?[value] { return counter }
        let counter = Metrics.Counter(label: name, dimensions: [(label, value)], factory: factory)
        labelled[name, default: [:]][value] = counter
        return counter
    }

    /// Loop `loop`'s series of the histogram `label`, made on first use.
    private static func timer(
        _ timers: inout [Int: Metrics.Timer], _ label: String, loop: Int, _ factory: PrometheusMetricsFactory
    ) -> Metrics.Timer {
        if let timer = timers[loop] { return timer }
        let timer = Metrics.Timer(label: label, dimensions: [("loop", String(loop))], factory: factory)
        timers[loop] = timer
        return timer
    }

    private static func nanoseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000
    }

    /// The Prometheus text exposition of everything recorded so far.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}

/// The transport's running totals over every loop, read by the metrics' flush.
struct TransportTotals {
    /// Frames dropped from a connection's frame lane before being written (the newest wins).
    var framesReplaced = 0
    /// Frames written in a send with others: the loop was behind, and a
    /// follower's owed frames left together (`BatchedSendStats.joinedFrames`).
    var framesJoined = 0
    /// Clients closed 1008 "too slow", by what showed they stopped reading.
    var slowCloses = SlowCloses()
}

/// What waits in the hub's hand-overs to other threads, and what they dropped.
struct QueueFigures {
    /// Batches from the hubs' loops not yet applied by the other loops (each at most `maxQueuedBatches`).
    var loopBatches = 0
    /// Client messages waiting for the hub of another loop (each loop's at most `hubQueue`).
    var hubMailbox = 0
    /// Rooms waiting for the room store's writer (at most one write per room).
    var roomStore = 0
    /// Entries waiting for the recorder's writer (at most `Recorder.queueLimit`).
    var recorder = 0
    /// Entries the recorder dropped so far because its writer was that far behind.
    var recordingsDropped = 0
    /// Redis commands in flight (queued or unanswered; 0 without Redis).
    var redis = 0
    /// Moving frames shed so far because `redisQueue` commands were in flight.
    var redisFramesShed = 0
    /// Events from the Redis thread waiting for the hub's loop (0 without Redis).
    var redisInbox = 0
    /// Other hubs' moving frames shed so far because `redisInbox` events were waiting.
    var redisInboxShed = 0
}
