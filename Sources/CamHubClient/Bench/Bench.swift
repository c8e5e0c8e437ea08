import Foundation
import WebSocketTransport

/// What `camhub bench` does.
public struct BenchOptions: Sendable {
    public enum Presenter: Sendable {
        /// The built-in never-ending animation chain (`Spin`).
        case spin
        /// A presenter script, looped for the whole run.
        case script(PresenterScript, name: String)
    }

    public var url: HubURL
    public var room = "bench"
    /// Rooms the followers are spread over (round robin): 1 uses `room` itself;
    /// more use `room-0` … `room-(N−1)`, each kept moving by its own spin presenter.
    public var rooms = 1
    /// Fraction (0…1) of the rooms kept moving; the others' presenters join and
    /// stay still. Only followers of moving rooms are owed frames.
    public var moving = 1.0
    /// Seconds of hub CPU measured with every room joined and at rest, before
    /// anything moves (0: skip).
    public var idleSeconds = 0.0
    /// Whether the rooms at rest get a presenter too (true), or only the moving
    /// ones (false: half the sockets, for room counts near the open-file limit).
    public var restingPresenters = true
    public var followers = 1000
    /// Frames per second each follower asks for.
    public var rate = 30.0
    /// Seconds measured (the window), after connecting and warming up.
    public var duration = 30.0
    public var presenter = Presenter.spin
    /// New connections per second.
    public var connectRate = 500.0
    /// Client loop threads the followers are spread over (nil: 1 per 2,500 followers, at most 4).
    public var threads: Int?
    /// Seconds of motion before the window opens.
    public var warmup = 2.0
    /// Seconds after the window for late frames of the window to arrive.
    public var drain = 2.0
    /// Longest wait for all followers to join (nil: `BenchRunner.defaultConnectTimeout`).
    public var connectTimeout: Double?
    /// The hub's process id (nil: found by the port when the hub is local).
    public var hubPID: Int32?
    /// Count the local hub's send syscalls over the window (`SendSyscallCounter`).
    /// Off by default: enabling syscall tracepoints puts every syscall of the
    /// hub's threads on the kernel's slower traced path, which costs CPU.
    public var countSends = false
    /// Which WebSocket client the followers use (`wss://` always uses libwebsockets').
    public var followerClient = FollowerClient.epoll
    /// How long the epoll client pauses after reading before it waits for
    /// sockets again, in ms (0: wait at once). It reads in batches, so a hub on
    /// loopback does not pay to wake the load generator for every frame, as it
    /// does not for followers on other machines (`EpollFollowerLoop`).
    public var readPauseMilliseconds = 1.0
    public var token: String?

    /// The followers' WebSocket client.
    public enum FollowerClient: String, Sendable, CaseIterable {
        /// Plain `ws://` sockets on epoll (`EpollFollowerClient`): the cheapest to run.
        case epoll
        /// libwebsockets' client, as `camhub follow` and the presenter use.
        case libwebsockets = "lws"
    }
    public var allowRemote = false

    /// More hubs of one cluster (`camhub serve --redis`) the followers are
    /// spread over with `url`'s hub, round robin (the presenter stays on `url`).
    public var moreURLs: [HubURL] = []

    public init(url: HubURL) { self.url = url }

    /// Every hub the followers connect to, `url` first.
    public var followerURLs: [HubURL] { [url] + moreURLs }

    /// Whether the followers use `EpollFollowerClient` (`wss://` needs libwebsockets').
    var usesEpollClient: Bool { !url.secure && followerClient == .epoll }

    /// `readPauseMilliseconds` as a duration.
    var readPause: Duration { .microseconds(Int((readPauseMilliseconds * 1000).rounded())) }

    /// At least one client thread per hub URL.
    public var threadCount: Int {
        let wanted = threads ?? min(4, max(1, (followers + 2499) / 2500))
        return max(wanted, followerURLs.count)
    }

    /// The rooms' names: `room` alone, or `room-0` … `room-(rooms−1)`.
    public var roomNames: [String] { rooms == 1 ? [room] : (0..<rooms).map { "\(room)-\($0)" } }

    /// How many rooms move (the first ones): `moving` of them, rounded.
    public var movingRooms: Int { Int((moving * Double(rooms)).rounded()) }
}

/// Everything a bench run measured (also written as JSON with `--json`).
public struct BenchReport: Codable, Sendable {
    public struct Second: Codable, Sendable {
        public var second: Int
        public var expected: Int
        public var received: Int
    }

    public struct Hub: Codable, Sendable {
        public var pid: Int32?
        /// The hub runs inside the bench process (tests): its CPU includes the load generator.
        public var inProcess = false
        /// CPU seconds during the window and the average cores used.
        public var cpuSeconds: Double?
        public var cpuCores: Double?
        /// Hub CPU per delivered frame, µs.
        public var cpuPerFrameMicros: Double?
        public var rssBaselineBytes: UInt64?
        public var rssIdleBytes: UInt64?
        public var rssEndBytes: UInt64?
        /// (idle − baseline) / connected followers.
        public var rssPerConnectionBytes: Double?
        /// Hub CPU (cores) with every room joined and at rest (`idleSeconds` > 0).
        public var idleCores: Double?
        /// RSS with every room's presenter and followers joined, at rest.
        public var rssRoomsIdleBytes: UInt64?
        /// (rooms idle − baseline) / rooms.
        public var rssPerRoomBytes: Double?
        /// The hub's own ticks per second over the window (its `/healthz`, read
        /// once a second; camhub hubs on 127.0.0.1 only): mean and lowest.
        public var ticksPerSecond: Double?
        public var ticksPerSecondMin: Int?
        /// Its connections per event loop at the window's end (`--loops`).
        public var connectionsPerLoop: [Int]?
        /// Sends the hub made during the window: send syscalls and io_uring
        /// send requests (`SendSyscallCounter`; a local, separate process).
        public var sendSyscalls: UInt64?
        /// Messages (frames and events) the followers received during the window.
        public var messagesReceived: Int?
        /// sendSyscalls / messagesReceived.
        public var sendsPerMessage: Double?
        /// Why the sends were not counted (no permission, no tracefs), if they were not.
        public var sendsUnavailable: String?
    }

    public var url: String
    public var room: String
    /// Rooms the followers were spread over (reports before `--rooms` had one).
    public var rooms: Int?
    /// Rooms kept moving (reports before `--moving` had all of them).
    public var movingRooms: Int?
    /// Seconds of the idle measurement (nil: none).
    public var idleSeconds: Double?
    /// Rooms at rest had a presenter too (nil in reports before this option).
    public var restingPresenters: Bool?
    public var presenter: String
    public var followersRequested: Int
    /// Followers that were joined (had their `welcome`) when the window opened.
    public var connected: Int
    /// requested − connected: handshakes that failed, hellos never answered, connects not made in time.
    public var failed: Int
    public var connectSeconds: Double
    public var rate: Double
    public var durationSeconds: Double
    public var threads: Int
    /// The followers' WebSocket client (`BenchOptions.FollowerClient`; nil in reports before it was chosen).
    public var followerClient: String?
    /// The epoll client's pause between reads, ms (`BenchOptions.readPauseMilliseconds`;
    /// nil for libwebsockets' client and in reports before it existed).
    public var readPauseMs: Double?
    public var clock: String

    public var expectedFrames: Int
    /// Frames of the window received (at most `expected` per follower).
    public var receivedFrames: Int
    /// Frames beyond `expected` for a follower (the hub sent more than the rate).
    public var excessFrames: Int
    public var deliveredPercent: Double
    public var shortFollowers: Int
    public var silentFollowers: Int
    /// Window frames the presenter's own connection received (it asks for the same
    /// rate): when it misses frames too, the hub did not produce them (ticks
    /// skipped), rather than the followers' sockets losing them.
    public var referenceFrames: Int
    public var expectedPerFollower: Int
    public var perSecond: [Second]
    public var latencyMs: LatencySummary

    public var hub = Hub()
    public var loadGeneratorCores: Double?
    public var machineBusyPercent: Double?
    public var cpuModel: String
    public var cpus: Int

    public var disconnects: Int
    public var errorMessages: Int
    public var otherMessages: Int
    public var errorSamples: [String]
    public var failureSamples: [String]
    public var disconnectSamples: [String]
    public var presenterErrors: [String]
    public var passed: Bool
    public var verdict: String

    /// " (epoll, reading every 1 ms)" or " (libwebsockets)": the followers' client.
    private var clientNote: String {
        guard let followerClient else { return "" }
        guard let pause = readPauseMs, pause > 0 else { return " (\(followerClient))" }
        return " (\(followerClient), reading every \(JSONText.number(pause)) ms)"
    }

    /// A readable multi-line report.
    public var text: String {
        var l: [String] = []
        var rooms = "room \(room)"
        if let n = self.rooms, n > 1 {
            rooms = "\(n) rooms \(room)-0…\(n - 1)"
            if let m = movingRooms, m < n { rooms += " (\(m) moving)" }
        }
        l.append(
            "camhub bench: \(followersRequested) followers × \(JSONText.number(rate)) Hz for \(JSONText.number(durationSeconds)) s on \(url) \(rooms), presenter \(presenter), \(threads) client thread\(threads == 1 ? "" : "s")\(clientNote)"
        )
        l.append(
            "connected: \(connected)/\(followersRequested) (failed \(failed)) in \(fixed(connectSeconds, 1)) s; disconnects during the run: \(disconnects)")
        l.append(
            "frames: \(receivedFrames)/\(expectedFrames) expected = \(fixed(deliveredPercent, 3)) % delivered; excess \(excessFrames); followers short: \(shortFollowers), silent: \(silentFollowers)"
        )
        l.append("reference (the presenter's own connection at the same rate): \(referenceFrames)/\(expectedPerFollower) frames of the window")
        l.append("latency hub→follower (\(latencyMs.count) frames): \(latencyMs.text)")
        l.append("  clock: \(clock)")
        if latencyMs.negative > 0 { l.append("  \(latencyMs.negative) samples negative (clocks disagree), counted as 0") }
        var h = "hub: "
        if let pid = hub.pid {
            h += "pid \(pid)\(hub.inProcess ? " (in this process: CPU includes the load generator)" : "")"
        } else {
            h += "not local (no CPU/RSS)"
        }
        if let c = hub.cpuCores { h += ", CPU \(fixed(c * 100, 1)) % of a core" }
        if let f = hub.cpuPerFrameMicros { h += " = \(fixed(f, 2)) µs per delivered frame" }
        l.append(h)
        if let ticks = hub.ticksPerSecond, let low = hub.ticksPerSecondMin {
            var t = "hub ticks: \(fixed(ticks, 1)) per second (lowest \(low))"
            if let perLoop = hub.connectionsPerLoop { t += "; connections per event loop \(perLoop.map(String.init).joined(separator: " / "))" }
            l.append(t)
        }
        if let perMessage = hub.sendsPerMessage, let sends = hub.sendSyscalls, let messages = hub.messagesReceived {
            l.append(
                "hub sends: \(fixed(perMessage, 3)) per delivered message "
                    + "(\(sends) send syscalls and io_uring sends, \(messages) messages to followers in the window)")
        } else if let why = hub.sendsUnavailable {
            l.append("hub sends: not counted (\(why))")
        }
        if let idle = hub.idleCores, let seconds = idleSeconds {
            var line = "hub at rest (every room joined, nothing moving, \(fixed(seconds, 0)) s): CPU \(fixed(idle * 100, 2)) % of a core"
            if let n = self.rooms { line += " = \(fixed(idle * 1e6 / Double(n), 2)) µs per room per second" }
            l.append(line)
        }
        if let r = hub.rssPerRoomBytes, let all = hub.rssRoomsIdleBytes {
            let who = restingPresenters == false ? "its followers; presenters in moving rooms only" : "its presenter and followers"
            l.append("hub RSS with every room joined: \(mib(all)) → \(fixed(r / 1024, 1)) KiB per room (\(who))")
        }
        if let b = hub.rssBaselineBytes, let i = hub.rssIdleBytes {
            var m = "hub RSS: baseline \(mib(b)), with \(connected) idle followers \(mib(i))"
            if let p = hub.rssPerConnectionBytes { m += " → \(fixed(p / 1024, 1)) KiB per connection" }
            if let e = hub.rssEndBytes { m += ", at the end \(mib(e))" }
            l.append(m)
        }
        var g = "load generator: "
        g += loadGeneratorCores.map { "\(fixed($0 * 100, 1)) % of a core" } ?? "?"
        if let busy = machineBusyPercent { g += "; machine (\(cpus) × \(cpuModel)) busy \(fixed(busy, 1)) %" }
        l.append(g)
        if otherMessages > 0 { l.append("other messages to followers (events: joined/left…): \(otherMessages)") }
        if errorMessages > 0 { l.append("hub errors to followers: \(errorMessages), e.g. \(errorSamples.first ?? "")") }
        if !failureSamples.isEmpty { l.append("connect failures, e.g.: \(failureSamples.joined(separator: "; "))") }
        if !disconnectSamples.isEmpty { l.append("disconnects, e.g.: \(disconnectSamples.joined(separator: "; "))") }
        if !presenterErrors.isEmpty { l.append("presenter: \(presenterErrors.prefix(3).joined(separator: "; "))") }
        l.append(verdict)
        return l.joined(separator: "\n")
    }

    private func mib(_ b: UInt64) -> String { "\(fixed(Double(b) / 1_048_576, 1)) MiB" }
}

/// Runs one benchmark: N followers, a presenter, a measuring window.
public final class BenchRunner {
    public let options: BenchOptions
    private let progress: (String) -> Void
    private let shouldStop: () -> Bool

    /// `progress` gets a status line about once per second.
    public init(options: BenchOptions, shouldStop: @escaping () -> Bool = { false }, progress: @escaping (String) -> Void = { _ in }) {
        self.options = options
        self.progress = progress
        self.shouldStop = shouldStop
    }

    public static func validate(_ o: BenchOptions) throws(ClientError) {
        if let remote = o.followerURLs.first(where: { !$0.isLoopback }), !o.allowRemote {
            throw ClientError("\(remote) is not a loopback address: a benchmark loads only this machine unless --allow-remote is given")
        }
        guard o.followers >= 1 else { throw ClientError("--followers must be at least 1") }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let files = Int(min(limit.rlim_max, 1 << 30))
        guard o.followers + 200 <= files else {
            throw ClientError("--followers \(o.followers) needs more open files than this process may have (\(files)); run several bench processes")
        }
        guard o.followers <= 28_000 else {
            throw ClientError(
                "--followers \(o.followers): one source/destination address pair has about 28,000 ports; run several bench processes against different 127.0.0.x addresses"
            )
        }
        guard o.rate.isFinite, o.rate >= 1, o.rate <= 240 else { throw ClientError("--rate must be 1…240") }
        guard o.duration.isFinite, o.duration >= 1, o.duration <= 3600 else { throw ClientError("--duration must be 1…3600 s") }
        guard o.connectRate.isFinite, o.connectRate >= 1 else { throw ClientError("--connect-rate must be at least 1 per second") }
        if let t = o.threads, !(1...64).contains(t) { throw ClientError("--threads must be 1…64") }
        guard o.readPauseMilliseconds.isFinite, (0...50).contains(o.readPauseMilliseconds) else {
            throw ClientError("--read-pause-ms must be 0…50 (got \(JSONText.number(o.readPauseMilliseconds)))")
        }
        guard o.rooms >= 1, o.rooms <= o.followers, o.rooms <= 20_000 else {
            throw ClientError("--rooms must be 1…min(followers, 20000) (got \(o.rooms))")
        }
        guard o.moving.isFinite, (0...1).contains(o.moving) else { throw ClientError("--moving must be 0…100 % (got \(o.moving * 100) %)") }
        if o.rooms == 1 && o.moving < 1 { throw ClientError("--moving below 100 % needs --rooms above 1") }
        guard o.idleSeconds.isFinite, (0...600).contains(o.idleSeconds) else { throw ClientError("--idle must be 0…600 s") }
        if o.rooms > 1, case .script = o.presenter {
            throw ClientError("--rooms above 1 needs --presenter spin (a script presents one room)")
        }
    }

    public func run() throws(ClientError) -> BenchReport {
        let o = options
        try Self.validate(o)
        let stop = Locked(false)
        let (cpuName, cpuCount) = ProcStats.cpuModel()

        // The hub's process, when it is on this machine.
        var hub = BenchReport.Hub()
        hub.pid = o.hubPID ?? (o.url.isLoopback ? ProcStats.pidListening(onPort: o.url.port) : nil)
        hub.inProcess = hub.pid == getpid()
        if let pid = hub.pid { hub.rssBaselineBytes = ProcStats.rssBytes(pid: pid) }

        // The presenter's connection first: it also tells the hub's tick and clock.
        let roomNames = o.roomNames
        let presenter = try HubConnection.join(
            o.url,
            hello: HelloOptions(
                room: roomNames[0], role: "presenter", name: "bench-presenter",
                token: o.token, rate: o.rate))
        defer { presenter.shutdown() }
        if let tick = presenter.welcome?.tick, o.rate > tick {
            throw ClientError(
                "--rate \(JSONText.number(o.rate)) is above the hub's tick (\(JSONText.number(tick)) Hz): start the hub with --tick \(JSONText.number(o.rate)) or more"
            )
        }
        var offset = 0.0
        var clock = "local wall clock at receipt − hub time in the frame (same machine, no offset)"
        if !o.url.isLoopback {
            offset = Self.measureOffset(presenter)
            clock = "local wall clock + ping/pong offset \(fixed(offset, 2)) ms − hub time in the frame (remote hub)"
        }

        // Followers.
        let hellos = roomNames.map { HelloOptions(room: $0, role: "follower", token: o.token, rate: o.rate).json }
        let threads = o.threadCount
        var shards: [FollowerShard] = []
        for i in 0..<threads {
            let target = o.followerURLs[i % o.followerURLs.count]  // shard i serves hub i mod N: round robin over hubs
            do {
                let shard = try FollowerShard(
                    request: target.connectRequest(), hellos: hellos, clockOffset: offset,
                    maxConcurrentConnects: max(8, 256 / threads), tls: target.clientTLS,
                    useLibWebSockets: o.followerClient == .libwebsockets, readPause: o.readPause)
                try shard.start()
                shards.append(shard)
            } catch { throw ClientError("could not start a client loop: \(error)") }
        }
        defer { for s in shards { s.shutdown() } }
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

        let connectStart = monotonicSeconds()
        let connectDeadline = connectStart + (o.connectTimeout ?? Self.defaultConnectTimeout(o))
        var issued = 0
        var lastLine = connectStart
        while monotonicSeconds() < connectDeadline && !shouldStop() {
            let now = monotonicSeconds()
            var (c, _) = totals()
            // Joins are paced by --connect-rate, with at most 64 handshakes in flight.
            var due = min(o.followers, Int((now - connectStart) * o.connectRate) + 1)
            due = min(due, c.joined + c.failed + c.disconnects + 64)
            while issued < due {
                shards[issued % threads].connectOne(hello: issued % roomNames.count)
                issued += 1
            }
            c = totals().0
            if issued == o.followers && c.joined + c.failed + c.disconnects >= o.followers { break }
            if now - lastLine >= 1 {
                lastLine = now
                progress(
                    "connecting: \(issued)/\(o.followers) started, \(c.opened) open, \(c.joined) joined, \(c.failed) failed, \(c.disconnects) dropped, \(c.otherMessages) events received"
                )
            }
            usleep(5_000)
        }
        let connectSeconds = monotonicSeconds() - connectStart

        // Idle: wait for the welcome and audience messages to settle, then read the hub's memory.
        let settleDeadline = monotonicSeconds() + 30
        var lastOther = -1
        while monotonicSeconds() < settleDeadline && !shouldStop() {
            usleep(500_000)
            let (c, _) = totals()
            if c.otherMessages == lastOther { break }
            lastOther = c.otherMessages
            progress("settling: \(c.joined) joined, \(c.otherMessages) events received")
        }
        if let pid = hub.pid { hub.rssIdleBytes = ProcStats.rssBytes(pid: pid) }
        let connected = totals().0.joined
        if let b = hub.rssBaselineBytes, let i = hub.rssIdleBytes, connected > 0, !hub.inProcess {
            hub.rssPerConnectionBytes = (Double(i) - Double(b)) / Double(connected)
        }

        // The other rooms' presenters (--rooms), all on one client thread; the
        // first movingRooms − 1 of them spin once `startSpinning` is called.
        let movingRooms = o.movingRooms
        var spinners: RoomSpinners?
        if roomNames.count > 1 {
            let presented = o.restingPresenters ? Array(roomNames.dropFirst()) : Array(roomNames.dropFirst().prefix(max(0, movingRooms - 1)))
            let s = try RoomSpinners(
                request: o.url.connectRequest(), rooms: presented, token: o.token,
                spinning: max(0, movingRooms - 1), tls: o.url.clientTLS)
            spinners = s
            let joinDeadline = monotonicSeconds() + Double(roomNames.count) / o.connectRate + 10
            while s.welcomedCount < presented.count && monotonicSeconds() < joinDeadline && !shouldStop() {
                usleep(20_000)
            }
            progress("rooms: \(s.welcomedCount + 1)/\(presented.count + 1) presenters joined")
            if let pid = hub.pid, let b = hub.rssBaselineBytes, !hub.inProcess, let all = ProcStats.rssBytes(pid: pid) {
                hub.rssRoomsIdleBytes = all
                hub.rssPerRoomBytes = (Double(all) - Double(b)) / Double(roomNames.count)
            }
        }
        defer { spinners?.shutdown() }

        // At rest: every room joined, nothing moving.
        if o.idleSeconds > 0, let pid = hub.pid, let a = CPUSample(pid: pid) {
            let idleEnd = monotonicSeconds() + o.idleSeconds
            while monotonicSeconds() < idleEnd && !shouldStop() { usleep(100_000) }
            if let b = CPUSample(pid: pid), !shouldStop() { hub.idleCores = a.until(b).cores }
            progress("at rest: hub CPU \(fixed((hub.idleCores ?? 0) * 100, 2)) %")
        }

        // Motion.
        let reference = Locked(WindowCounter())
        let window = Locked<MeasureWindow?>(nil)
        let runSeconds = o.warmup + o.duration + o.drain + 10
        let presenterErrors = Locked<[String]>([])
        let presenterDone = DispatchSemaphore(value: 0)
        let presenterName: String
        let onFrame: @Sendable (Incoming.Frame, Double) -> Void = { frame, _ in
            guard let w = window.withLock({ $0 }) else { return }
            reference.withLock { _ = $0.admit(frame.time, w) }
        }
        switch o.presenter {
        case .spin where movingRooms == 0:
            presenterName = "none (every room at rest)"
            presenterDone.signal()
        case .spin:
            presenterName = "spin"
            Thread.detachNewThread {
                let errors = Spin.run(
                    presenter, deadline: monotonicSeconds() + runSeconds,
                    shouldStop: { stop.withLock { $0 } }, onFrame: onFrame)
                presenterErrors.withLock { $0 = errors }
                presenterDone.signal()
            }
        case .script(let script, let name):
            presenterName = name
            let box = UncheckedBox(
                PresenterRunner(
                    connection: presenter, script: script,
                    shouldStop: { stop.withLock { $0 } }, onFrame: onFrame))
            Thread.detachNewThread {
                let report = box.value.run(loop: true)
                presenterErrors.withLock { $0 = report.errors.map { "\($0.failure.code): \($0.failure.message)" } + report.problems }
                presenterDone.signal()
            }
        }
        defer {
            stop.withLock { $0 = true }
            _ = presenterDone.wait(timeout: .now() + 3)
        }
        spinners?.startSpinning()

        let warmupEnd = monotonicSeconds() + o.warmup
        while monotonicSeconds() < warmupEnd && !shouldStop() {
            usleep(100_000)
        }

        // The window.
        let period = 1000 / o.rate
        let windowLength = (o.duration * o.rate).rounded() * period
        let w = MeasureWindow(start: wallClockMilliseconds() + offset + 1, length: windowLength, period: period)
        let seconds = Int((windowLength / 1000).rounded(.up))
        for s in shards { s.begin(w, seconds: seconds, measuredRooms: movingRooms) }
        window.withLock { $0 = w }
        let eligible = shards.reduce(0) { $0 + $1.eligibleCount }  // joined, in a moving room
        let joinedAtWindow = totals().0.joined
        _ = totals(resetInterval: true)
        let hubStart = hub.pid.flatMap { CPUSample(pid: $0) }
        var sendCounter: SendSyscallCounter?
        if o.countSends, let pid = hub.pid, !hub.inProcess {
            do { sendCounter = try SendSyscallCounter(pid: pid) } catch { hub.sendsUnavailable = error.description }
        }
        let messagesAtStart = totals().0.messagesTotal
        let selfStart = CPUSample(pid: getpid())
        let machineStart = ProcStats.machineJiffies()
        let windowStart = monotonicSeconds()
        let windowEnd = windowStart + windowLength / 1000
        var lastFrames = totals().0.framesTotal
        var lastTick = windowStart
        var lastHub = hubStart
        var health = HubHealth()
        while monotonicSeconds() < windowEnd && !shouldStop() {
            usleep(UInt32(min(1, max(0.01, windowEnd - monotonicSeconds())) * 1_000_000))
            let now = monotonicSeconds()
            guard now - lastTick >= 0.99 || now >= windowEnd else { continue }
            let (c, interval) = totals(resetInterval: true)
            let rate = Double(c.framesTotal - lastFrames) / (now - lastTick)
            var line =
                "t \(Int(now - windowStart))/\(Int(o.duration)) s  followers \(c.joined)  frames/s \(Int(rate))/\(Int(Double(eligible) * o.rate)) expected"
            line +=
                "  latency p50 \(fixed(interval.milliseconds(at: 50), 1)) p99 \(fixed(interval.milliseconds(at: 99), 1)) max \(fixed(Double(interval.histogram.max) / 1000, 1)) ms"
            if let pid = hub.pid, let a = lastHub, let b = CPUSample(pid: pid) {
                line += "  hub CPU \(Int(a.until(b).cores * 100)) %"
                lastHub = b
            }
            if hub.pid != nil, HubHealth.cheapEachSecond(rooms: o.rooms), let sample = HubHealth.read(o.url) {
                health.add(sample)
                line += "  ticks/s \(sample.ticksPerSecond)"
            }
            if c.disconnects > 0 { line += "  disconnects \(c.disconnects)" }
            progress(line)
            lastFrames = c.framesTotal
            lastTick = now
        }
        let hubEnd = hub.pid.flatMap { CPUSample(pid: $0) }
        if let sendCounter {
            let messages = totals().0.messagesTotal - messagesAtStart
            let sends = sendCounter.count()
            sendCounter.close()
            hub.sendSyscalls = sends
            hub.messagesReceived = messages
            if messages > 0 { hub.sendsPerMessage = Double(sends) / Double(messages) }
        }
        let selfEnd = CPUSample(pid: getpid())
        let machineEnd = ProcStats.machineJiffies()
        if let pid = hub.pid { hub.rssEndBytes = ProcStats.rssBytes(pid: pid) }
        if hub.pid != nil { health.add(HubHealth.read(o.url)) }  // after the window's CPU sample: not counted
        if let ticks = health.ticks {
            hub.ticksPerSecond = ticks.mean
            hub.ticksPerSecondMin = ticks.min
            hub.connectionsPerLoop = health.samples.last?.connectionsPerLoop
        }

        // Late frames of the window still count.
        let drainEnd = monotonicSeconds() + o.drain
        while monotonicSeconds() < drainEnd && !shouldStop() { usleep(50_000) }
        for s in shards { s.freeze() }
        stop.withLock { $0 = true }
        _ = presenterDone.wait(timeout: .now() + 3)

        // Results.
        let perFollower = w.expectedPerFollower
        var expected = 0
        var counted = 0
        var excess = 0
        var short = 0
        var silent = 0
        var histogram = LatencyHistogram()
        var perSecond = Array(repeating: 0, count: seconds)
        var counters = ShardCounters()
        for s in shards {
            let r = s.results(expectedPerFollower: perFollower)
            expected += r.expected
            counted += r.counted
            excess += r.excess
            short += r.short
            silent += r.silent
            histogram.add(r.histogram)
            for (i, v) in r.perSecond.enumerated() where i < perSecond.count { perSecond[i] += v }
            counters.add(r.counters)
        }
        var presenterNote = presenterName
        if case .script = o.presenter {
            // A script pauses: what the presenter itself received is the reference.
            let ref = Int(reference.withLock { $0.count })
            presenterNote += " (expected = the presenter's own \(ref) frames per follower)"
            expected = 0
            counted = 0
            excess = 0
            short = 0
            silent = 0
            for s in shards {
                let r = s.results(expectedPerFollower: ref)
                expected += r.expected
                counted += r.counted
                excess += r.excess
                short += r.short
                silent += r.silent
            }
        }
        let lastSecondShare = (windowLength / 1000) - Double(seconds - 1)
        let timeline = perSecond.enumerated().map { i, received in
            BenchReport.Second(
                second: i, expected: Int((Double(eligible) * o.rate * (i == seconds - 1 ? lastSecondShare : 1)).rounded()),
                received: received)
        }

        // CPU over a window cut short by an interrupt means nothing.
        let windowRan = (hubEnd?.wall ?? selfEnd?.wall ?? windowStart) - windowStart >= 1
        if windowRan, let a = hubStart, let b = hubEnd {
            let (used, cores) = a.until(b)
            hub.cpuSeconds = used
            hub.cpuCores = cores
            if counted > 0 { hub.cpuPerFrameMicros = used / Double(counted) * 1e6 }
        }
        var machineBusy: Double?
        if windowRan, let a = machineStart, let b = machineEnd, b.total > a.total {
            machineBusy = Double(b.busy - a.busy) / Double(b.total - a.total) * 100
        }
        let delivered = expected > 0 ? Double(counted) / Double(expected) * 100 : 0
        let failed = o.followers - joinedAtWindow
        let idleRun = movingRooms == 0
        let passed = (expected > 0 || idleRun) && counted == expected && failed == 0 && counters.disconnects == 0 && !shouldStop()
        var verdict: String
        if passed && idleRun {
            verdict = "PASS: every follower stayed connected with every room at rest."
        } else if passed {
            verdict = "PASS: every follower got every frame of the window."
        } else {
            var why: [String] = []
            if counted < expected { why.append("\(expected - counted) frames missing (\(short) followers short)") }
            if failed > 0 { why.append("\(failed) followers not connected") }
            if counters.disconnects > 0 { why.append("\(counters.disconnects) disconnects") }
            if shouldStop() { why.append("interrupted") }
            if expected == 0 && !idleRun { why.append("nothing was expected (no followers, or the camera never moved)") }
            verdict = "FAIL: " + why.joined(separator: "; ")
        }
        return BenchReport(
            url: o.followerURLs.map(\.description).joined(separator: " + "), room: o.room, rooms: o.rooms, movingRooms: movingRooms,
            idleSeconds: hub.idleCores == nil ? nil : o.idleSeconds, restingPresenters: o.restingPresenters, presenter: presenterNote,
            followersRequested: o.followers,
            connected: joinedAtWindow, failed: failed, connectSeconds: connectSeconds, rate: o.rate,
            durationSeconds: windowLength.rounded() / 1000, threads: threads,
            followerClient: o.usesEpollClient ? "epoll" : "libwebsockets",
            readPauseMs: o.usesEpollClient ? o.readPauseMilliseconds : nil, clock: clock,
            expectedFrames: expected, receivedFrames: counted, excessFrames: excess, deliveredPercent: delivered,
            shortFollowers: short, silentFollowers: silent, referenceFrames: Int(reference.withLock { $0.count }),
            expectedPerFollower: perFollower, perSecond: timeline, latencyMs: histogram.summary,
            hub: hub, loadGeneratorCores: windowRan ? selfStart.flatMap { a in selfEnd.map { a.until($0).cores } } : nil,
            machineBusyPercent: machineBusy, cpuModel: cpuName, cpus: cpuCount,
            disconnects: counters.disconnects, errorMessages: counters.errorMessages, otherMessages: counters.otherMessages,
            errorSamples: counters.errorSamples, failureSamples: counters.failureSamples,
            disconnectSamples: counters.disconnectSamples,
            presenterErrors: presenterErrors.withLock { $0 } + (spinners?.errorMessages ?? []), passed: passed, verdict: verdict)
    }

    /// followers / connect-rate + 30 s.
    public static func defaultConnectTimeout(_ o: BenchOptions) -> Double {
        Double(o.followers) / o.connectRate + 30
    }

    /// Hub − local clock (ms) from a burst of pings on `connection`.
    static func measureOffset(_ connection: HubConnection) -> Double {
        var estimate = ClockOffset()
        for _ in 0..<10 {
            connection.send("{\"type\":\"ping\",\"t\":\(wallClockMilliseconds().description)}")
            let deadline = monotonicSeconds() + 1
            while monotonicSeconds() < deadline, let item = connection.next(timeout: deadline - monotonicSeconds()) {
                if case .message(let r) = item, case .pong(let t?, let time) = r.message {
                    estimate.add(sent: t, hubTime: time, received: r.localTime)
                    break
                }
            }
        }
        return estimate.offset ?? 0
    }
}

/// Hands a non-Sendable value to another thread that becomes its only user.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
