import CamHubClient
import CamHubKit
import CamHubProtocol
import Foundation
import WebSocketTransport

/// Runs one benchmark: N followers, a presenter, a measuring window. `run`
/// reads as its phases, in order: the hub's process, the presenter, the
/// followers' connections, settling, the other rooms' presenters, the hub at
/// rest, motion, the measured window, the late frames, the report.
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
            throw ClientError("--read-pause-ms must be 0…50 (got \(JSONWriter.plain(o.readPauseMilliseconds)))")
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
        try Self.validate(options)
        var hub = hubProcess()
        let main = try joinPresenter()
        defer { main.presenter.shutdown() }
        let followers = try startFollowers(clockOffset: main.offset)
        defer { followers.shutdown() }
        let connectSeconds = connect(followers)
        settle(followers, hub: &hub)
        let spinners = try presentOtherRooms(hub: &hub)
        defer { spinners?.shutdown() }
        rest(hub: &hub)
        let motion = startMotion(main.presenter, spinners: spinners)
        defer { motion.finish() }
        let window = measure(followers, motion: motion, clockOffset: main.offset, hub: &hub)
        drain(followers, motion: motion)
        return report(
            followers, motion: motion, spinnerErrors: spinners?.errorMessages ?? [], window: window, hub: &hub, clock: main.clock,
            connectSeconds: connectSeconds)
    }

    // MARK: - Phases

    /// The hub's process, when it is on this machine: its pid and memory before any client.
    private func hubProcess() -> BenchReport.Hub {
        let o = options
        var hub = BenchReport.Hub()
        hub.pid = o.hubPID ?? (o.url.isLoopback ? ProcStats.pidListening(onPort: o.url.port) : nil)
        hub.inProcess = hub.pid == getpid()
        if let pid = hub.pid { hub.rssBaselineBytes = ProcStats.rssBytes(pid: pid) }
        return hub
    }

    /// The presenter's connection first: it also tells the hub's tick and clock
    /// (offset: hub − local ms; 0 on this machine).
    private func joinPresenter() throws(ClientError) -> (presenter: HubConnection, offset: Double, clock: String) {
        let o = options
        let presenter = try HubConnection.join(
            o.url,
            hello: HelloOptions(
                room: o.roomNames[0], role: "presenter", name: "bench-presenter",
                token: o.token, rate: o.rate))
        if let tick = presenter.welcome?.tick, o.rate > tick {
            presenter.shutdown()
            throw ClientError(
                "--rate \(JSONWriter.plain(o.rate)) is above the hub's tick (\(JSONWriter.plain(tick)) Hz): start the hub with --tick \(JSONWriter.plain(o.rate)) or more"
            )
        }
        guard !o.url.isLoopback else {
            return (presenter, 0, "local wall clock at receipt − hub time in the frame (same machine, no offset)")
        }
        let offset = Self.measureOffset(presenter)
        return (presenter, offset, "local wall clock + ping/pong offset \(fixed(offset, 2)) ms − hub time in the frame (remote hub)")
    }

    /// The followers' client loops (one per thread), none connected yet.
    private func startFollowers(clockOffset: Double) throws(ClientError) -> BenchFollowers {
        let o = options
        let hellos: [String]
        do {
            hellos = try o.roomNames.map { room throws(ProtocolError) in
                var hello = HelloOptions(room: room, role: "follower", token: o.token, rate: o.rate)
                hello.encoding = o.encoding
                return try hello.text()
            }
        } catch { throw ClientError("hello: \(error.message)") }
        let threads = o.threadCount
        var shards: [FollowerShard] = []
        for i in 0..<threads {
            var target = o.followerURLs[i % o.followerURLs.count]  // shard i serves hub i mod N: round robin over hubs
            // One room: its followers name it in the URL, as the client libraries do (with several, a shard's
            // request is shared by every room's hellos, so they do not).
            if o.roomNames.count == 1 { target = target.naming(room: o.roomNames[0]) }
            do {
                let shard = try FollowerShard(
                    request: target.connectRequest(), hellos: hellos, clockOffset: clockOffset,
                    maxConcurrentConnects: max(8, 256 / threads), tls: target.clientTLS,
                    useLibWebSockets: o.followerClient == .libwebsockets, readPause: o.readPause)
                try shard.start()
                shards.append(shard)
            } catch {
                for s in shards { s.shutdown() }
                throw ClientError("could not start a client loop: \(error)")
            }
        }
        return BenchFollowers(shards: shards)
    }

    /// Connects the followers, paced by --connect-rate with at most 64 handshakes
    /// in flight, until all joined or failed or the connect timeout; returns the seconds it took.
    private func connect(_ followers: BenchFollowers) -> Double {
        let o = options
        let roomCount = o.roomNames.count
        let connectStart = monotonicSeconds()
        let connectDeadline = connectStart + (o.connectTimeout ?? Self.defaultConnectTimeout(o))
        var issued = 0
        var lastLine = connectStart
        while monotonicSeconds() < connectDeadline && !shouldStop() {
            let now = monotonicSeconds()
            var (c, _) = followers.totals()
            var due = min(o.followers, Int((now - connectStart) * o.connectRate) + 1)
            due = min(due, c.joined + c.failed + c.disconnects + 64)
            while issued < due {
                followers.shards[issued % followers.shards.count].connectOne(hello: issued % roomCount)
                issued += 1
            }
            c = followers.totals().0
            if issued == o.followers && c.joined + c.failed + c.disconnects >= o.followers { break }
            if now - lastLine >= 1 {
                lastLine = now
                progress(
                    "connecting: \(issued)/\(o.followers) started, \(c.opened) open, \(c.joined) joined, \(c.failed) failed, \(c.disconnects) dropped, \(c.otherMessages) events received"
                )
            }
            usleep(5_000)
        }
        return monotonicSeconds() - connectStart
    }

    /// Waits for the welcome and audience messages to settle (30 s at most), then reads the hub's memory.
    private func settle(_ followers: BenchFollowers, hub: inout BenchReport.Hub) {
        let settleDeadline = monotonicSeconds() + 30
        var lastOther = -1
        while monotonicSeconds() < settleDeadline && !shouldStop() {
            usleep(500_000)
            let (c, _) = followers.totals()
            if c.otherMessages == lastOther { break }
            lastOther = c.otherMessages
            progress("settling: \(c.joined) joined, \(c.otherMessages) events received")
        }
        if let pid = hub.pid { hub.rssIdleBytes = ProcStats.rssBytes(pid: pid) }
        let connected = followers.totals().0.joined
        if let b = hub.rssBaselineBytes, let i = hub.rssIdleBytes, connected > 0, !hub.inProcess {
            hub.rssPerConnectionBytes = (Double(i) - Double(b)) / Double(connected)
        }
    }

    /// The other rooms' presenters (--rooms), all on one client thread; the
    /// first movingRooms − 1 of them spin once `startSpinning` is called. Nil with one room.
    private func presentOtherRooms(hub: inout BenchReport.Hub) throws(ClientError) -> RoomSpinners? {
        let o = options
        let roomNames = o.roomNames
        guard roomNames.count > 1 else { return nil }
        let movingRooms = o.movingRooms
        let presented = o.restingPresenters ? Array(roomNames.dropFirst()) : Array(roomNames.dropFirst().prefix(max(0, movingRooms - 1)))
        let s = try RoomSpinners(
            request: o.url.connectRequest(), rooms: presented, token: o.token,
            spinning: max(0, movingRooms - 1), tls: o.url.clientTLS)
        let joinDeadline = monotonicSeconds() + Double(roomNames.count) / o.connectRate + 10
        while s.welcomedCount < presented.count && monotonicSeconds() < joinDeadline && !shouldStop() {
            usleep(20_000)
        }
        progress("rooms: \(s.welcomedCount + 1)/\(presented.count + 1) presenters joined")
        if let pid = hub.pid, let b = hub.rssBaselineBytes, !hub.inProcess, let all = ProcStats.rssBytes(pid: pid) {
            hub.rssRoomsIdleBytes = all
            hub.rssPerRoomBytes = (Double(all) - Double(b)) / Double(roomNames.count)
        }
        return s
    }

    /// At rest: every room joined, nothing moving; the hub's CPU over --idle seconds.
    private func rest(hub: inout BenchReport.Hub) {
        guard options.idleSeconds > 0, let pid = hub.pid, let a = CPUSample(pid: pid) else { return }
        let idleEnd = monotonicSeconds() + options.idleSeconds
        while monotonicSeconds() < idleEnd && !shouldStop() { usleep(100_000) }
        if let b = CPUSample(pid: pid), !shouldStop() { hub.idleCores = a.until(b).cores }
        progress("at rest: hub CPU \(fixed((hub.idleCores ?? 0) * 100, 2)) %")
    }

    /// Sets the rooms moving (the main room's presenter on a thread of its own,
    /// the other rooms' spinners), then waits out the warm-up.
    private func startMotion(_ presenter: HubConnection, spinners: RoomSpinners?) -> BenchMotion {
        let o = options
        let motion = BenchMotion()
        let runSeconds = o.warmup + o.duration + o.drain + 10
        let onFrame: @Sendable (HubFrame, Double) -> Void = { [reference = motion.reference, window = motion.window] frame, _ in
            guard let w = window.withLock({ $0 }) else { return }
            reference.withLock { _ = $0.admit(frame.time, w) }
        }
        let stop = motion.stop
        switch o.presenter {
        case .spin where o.movingRooms == 0:
            motion.presenterName = "none (every room at rest)"
            motion.presenterDone.signal()
        case .spin:
            motion.presenterName = "spin"
            Thread.detachNewThread { [errors = motion.presenterErrors, done = motion.presenterDone] in
                let found = Spin.run(
                    presenter, deadline: monotonicSeconds() + runSeconds,
                    shouldStop: { stop.withLock { $0 } }, onFrame: onFrame)
                errors.withLock { $0 = found }
                done.signal()
            }
        case .script(let script, let name):
            motion.presenterName = name
            // A script runs in a CamHubKit room (as `camhub present` does), which takes over
            // presenting from the connection that measured the clock.
            presenter.shutdown()
            let hello = HelloOptions(room: o.roomNames[0], role: "presenter", name: "bench-presenter", token: o.token, rate: o.rate)
            Thread.detachNewThread { [url = o.url, errors = motion.presenterErrors, done = motion.presenterDone] in
                let found = runBlocking {
                    let room: Room
                    do { room = try await hello.join(url, reconnect: nil) } catch { return ["the script's presenter could not join: \(error)"] }
                    let runner = PresenterRunner(room: room, script: script, shouldStop: { stop.withLock { $0 } }, onFrame: onFrame)
                    let report = await runner.run(loop: true)
                    await room.close()
                    return report.errors.map { "\($0.failure.code): \($0.failure.message)" } + report.problems
                }
                errors.withLock { $0 = found }
                done.signal()
            }
        }
        spinners?.startSpinning()
        let warmupEnd = monotonicSeconds() + o.warmup
        while monotonicSeconds() < warmupEnd && !shouldStop() {
            usleep(100_000)
        }
        return motion
    }

    /// The measured window: every shard counts its followers' frames of it; a
    /// status line each second; CPU, send syscalls, memory and ticks around it.
    private func measure(
        _ followers: BenchFollowers, motion: BenchMotion, clockOffset: Double, hub: inout BenchReport.Hub
    ) -> BenchWindow {
        let o = options
        let period = 1000 / o.rate
        let length = (o.duration * o.rate).rounded() * period
        let w = MeasureWindow(start: wallClockMilliseconds() + clockOffset + 1, length: length, period: period)
        let seconds = Int((length / 1000).rounded(.up))
        for s in followers.shards { s.begin(w, seconds: seconds, measuredRooms: o.movingRooms) }
        motion.window.withLock { $0 = w }
        let eligible = followers.shards.reduce(0) { $0 + $1.eligibleCount }  // joined, in a moving room
        var window = BenchWindow(measure: w, length: length, seconds: seconds, eligible: eligible, joined: followers.totals().0.joined)
        _ = followers.totals(resetInterval: true)
        window.hubStart = hub.pid.flatMap { CPUSample(pid: $0) }
        var sendCounter: SendSyscallCounter?
        if o.countSends, let pid = hub.pid, !hub.inProcess {
            do { sendCounter = try SendSyscallCounter(pid: pid) } catch { hub.sendsUnavailable = error.description }
        }
        let messagesAtStart = followers.totals().0.messagesTotal
        let ticksAtStart = hub.pid == nil ? nil : HubHealth.ticks(o.url).map { (reading: $0, at: monotonicSeconds()) }
        window.selfStart = CPUSample(pid: getpid())
        window.machineStart = ProcStats.machineJiffies()
        window.start = monotonicSeconds()
        let health = watch(followers, window: window, hub: hub)
        window.hubEnd = hub.pid.flatMap { CPUSample(pid: $0) }
        if let start = ticksAtStart, let end = HubHealth.ticks(o.url) {
            let seconds = monotonicSeconds() - start.at
            if seconds > 0 { hub.ticksOverWindow = (end.meanCount - start.reading.meanCount) / seconds }
            hub.tickMedianPerLoopMilliseconds = end.medianMilliseconds(since: start.reading)
        }
        if let sendCounter {
            let messages = followers.totals().0.messagesTotal - messagesAtStart
            let sends = sendCounter.count()
            sendCounter.close()
            hub.sendSyscalls = sends
            hub.messagesReceived = messages
            if messages > 0 { hub.sendsPerMessage = Double(sends) / Double(messages) }
        }
        window.selfEnd = CPUSample(pid: getpid())
        window.machineEnd = ProcStats.machineJiffies()
        if let pid = hub.pid { hub.rssEndBytes = ProcStats.rssBytes(pid: pid) }
        var allHealth = health
        if hub.pid != nil { allHealth.add(HubHealth.read(o.url)) }  // after the window's CPU sample: not counted
        if let ticks = allHealth.ticks {
            hub.ticksPerSecond = ticks.mean
            hub.ticksPerSecondMin = ticks.min
            hub.connectionsPerLoop = allHealth.samples.last?.connectionsPerLoop
        }
        return window
    }

    /// Until the window ends: a status line about once per second (frames,
    /// latency, hub CPU, ticks when they are cheap to read); the hub's health samples.
    private func watch(_ followers: BenchFollowers, window: BenchWindow, hub: BenchReport.Hub) -> HubHealth {
        let o = options
        let windowEnd = window.start + window.length / 1000
        var lastFrames = followers.totals().0.framesTotal
        var lastTick = window.start
        var lastHub = window.hubStart
        var health = HubHealth()
        while monotonicSeconds() < windowEnd && !shouldStop() {
            usleep(UInt32(min(1, max(0.01, windowEnd - monotonicSeconds())) * 1_000_000))
            let now = monotonicSeconds()
            guard now - lastTick >= 0.99 || now >= windowEnd else { continue }
            let (c, interval) = followers.totals(resetInterval: true)
            let rate = Double(c.framesTotal - lastFrames) / (now - lastTick)
            var line =
                "t \(Int(now - window.start))/\(Int(o.duration)) s  followers \(c.joined)  frames/s \(Int(rate))/\(Int(Double(window.eligible) * o.rate)) expected"
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
        return health
    }

    /// Late frames of the window still count: waits --drain seconds, then freezes the counts and stops the motion.
    private func drain(_ followers: BenchFollowers, motion: BenchMotion) {
        let drainEnd = monotonicSeconds() + options.drain
        while monotonicSeconds() < drainEnd && !shouldStop() { usleep(50_000) }
        for s in followers.shards { s.freeze() }
        motion.finish()
    }

    /// The report: frames owed and received, latency, the hub's and the generator's CPU, the verdict.
    private func report(
        _ followers: BenchFollowers, motion: BenchMotion, spinnerErrors: [String], window: BenchWindow, hub: inout BenchReport.Hub,
        clock: String, connectSeconds: Double
    ) -> BenchReport {
        let o = options
        let perFollower = window.measure.expectedPerFollower
        var tally = BenchTally(followers.shards, expectedPerFollower: perFollower, seconds: window.seconds)
        var presenterNote = motion.presenterName
        let referenceFrames = Int(motion.reference.withLock { $0.count })
        if case .script = o.presenter {
            // A script pauses: what the presenter itself received is the reference.
            presenterNote += " (expected = the presenter's own \(referenceFrames) frames per follower)"
            tally.recount(followers.shards, expectedPerFollower: referenceFrames)
        }
        let lastSecondShare = (window.length / 1000) - Double(window.seconds - 1)
        let timeline = tally.perSecond.enumerated().map { i, received in
            BenchReport.Second(
                second: i, expected: Int((Double(window.eligible) * o.rate * (i == window.seconds - 1 ? lastSecondShare : 1)).rounded()),
                received: received)
        }
        // CPU over a window cut short by an interrupt means nothing.
        let windowRan = (window.hubEnd?.wall ?? window.selfEnd?.wall ?? window.start) - window.start >= 1
        if windowRan, let a = window.hubStart, let b = window.hubEnd {
            let (used, cores) = a.until(b)
            hub.cpuSeconds = used
            hub.cpuCores = cores
            if tally.counted > 0 { hub.cpuPerFrameMicros = used / Double(tally.counted) * 1e6 }
        }
        var machineBusy: Double?
        if windowRan, let a = window.machineStart, let b = window.machineEnd, b.total > a.total {
            machineBusy = Double(b.busy - a.busy) / Double(b.total - a.total) * 100
        }
        let delivered = tally.expected > 0 ? Double(tally.counted) / Double(tally.expected) * 100 : 0
        let failed = o.followers - window.joined
        let (passed, verdict) = verdict(tally, failed: failed)
        let counters = tally.counters
        let (cpuName, cpuCount) = ProcStats.cpuModel()
        return BenchReport(
            url: o.followerURLs.map(\.description).joined(separator: " + "), room: o.room, rooms: o.rooms, movingRooms: o.movingRooms,
            idleSeconds: hub.idleCores == nil ? nil : o.idleSeconds, restingPresenters: o.restingPresenters, presenter: presenterNote,
            followersRequested: o.followers,
            connected: window.joined, failed: failed, connectSeconds: connectSeconds, rate: o.rate, encoding: o.encoding.rawValue,
            durationSeconds: window.length.rounded() / 1000, threads: followers.shards.count,
            followerClient: o.usesEpollClient ? "epoll" : "libwebsockets",
            readPauseMs: o.usesEpollClient ? o.readPauseMilliseconds : nil, clock: clock,
            expectedFrames: tally.expected, receivedFrames: tally.counted, excessFrames: tally.excess, deliveredPercent: delivered,
            bytesPerFrame: counters.windowFrames > 0 ? Double(counters.windowFrameBytes) / Double(counters.windowFrames) : nil,
            shortFollowers: tally.short, silentFollowers: tally.silent, referenceFrames: referenceFrames,
            expectedPerFollower: perFollower, perSecond: timeline, latencyMs: tally.histogram.summary,
            hub: hub, loadGeneratorCores: windowRan ? window.selfStart.flatMap { a in window.selfEnd.map { a.until($0).cores } } : nil,
            machineBusyPercent: machineBusy, cpuModel: cpuName, cpus: cpuCount,
            disconnects: counters.disconnects, errorMessages: counters.errorMessages, otherMessages: counters.otherMessages,
            errorSamples: counters.errorSamples, failureSamples: counters.failureSamples,
            disconnectSamples: counters.disconnectSamples,
            presenterErrors: motion.presenterErrors.withLock { $0 } + spinnerErrors, passed: passed, verdict: verdict)
    }

    /// PASS when every follower got every frame of the window (or, with every room at rest, stayed connected).
    private func verdict(_ tally: BenchTally, failed: Int) -> (passed: Bool, verdict: String) {
        let idleRun = options.movingRooms == 0
        let passed =
            (tally.expected > 0 || idleRun) && tally.counted == tally.expected && failed == 0 && tally.counters.disconnects == 0 && !shouldStop()
        if passed && idleRun { return (true, "PASS: every follower stayed connected with every room at rest.") }
        if passed { return (true, "PASS: every follower got every frame of the window.") }
        var why: [String] = []
        if tally.counted < tally.expected { why.append("\(tally.expected - tally.counted) frames missing (\(tally.short) followers short)") }
        if failed > 0 { why.append("\(failed) followers not connected") }
        if tally.counters.disconnects > 0 { why.append("\(tally.counters.disconnects) disconnects") }
        if shouldStop() { why.append("interrupted") }
        if tally.expected == 0 && !idleRun { why.append("nothing was expected (no followers, or the camera never moved)") }
        return (false, "FAIL: " + why.joined(separator: "; "))
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
