import CamHubClient
import CamHubProtocol
import Foundation
import HubCore
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
    /// How the followers' frames come (`hello.encoding`).
    public var encoding = FrameEncoding.binary
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
        /// The hub's ticks per second over exactly the window: its tick count in
        /// `/metrics`, read as the window begins and as it ends.
        public var ticksOverWindow: Double?
        /// Each loop's median tick over the window (ms; from the hub's
        /// `camhub_tick_duration_seconds{loop}` buckets, interpolated; nil: no tick).
        public var tickMedianPerLoopMilliseconds: [Double?]?
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
    /// The followers' frame encoding, `json` or `binary` (nil in reports from before binary frames).
    public var encoding: String?
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
    /// What a follower receives per frame of the window: payload and WebSocket header, bytes
    /// (nil in reports from before it was counted). × rate: its bytes per second while moving.
    public var bytesPerFrame: Double?
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
        return " (\(followerClient), reading every \(JSONWriter.plain(pause)) ms)"
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
            "camhub bench: \(followersRequested) followers × \(JSONWriter.plain(rate)) Hz\(encoding.map { " (\($0) frames)" } ?? "") for \(JSONWriter.plain(durationSeconds)) s on \(url) \(rooms), presenter \(presenter), \(threads) client thread\(threads == 1 ? "" : "s")\(clientNote)"
        )
        l.append(
            "connected: \(connected)/\(followersRequested) (failed \(failed)) in \(fixed(connectSeconds, 1)) s; disconnects during the run: \(disconnects)")
        l.append(
            "frames: \(receivedFrames)/\(expectedFrames) expected = \(fixed(deliveredPercent, 3)) % delivered; excess \(excessFrames); followers short: \(shortFollowers), silent: \(silentFollowers)"
        )
        l.append("reference (the presenter's own connection at the same rate): \(referenceFrames)/\(expectedPerFollower) frames of the window")
        if let bytesPerFrame {
            l.append(
                "bytes per frame on the wire: \(fixed(bytesPerFrame, 1)) = \(fixed(bytesPerFrame * rate, 0)) B/s per follower at \(JSONWriter.plain(rate)) Hz")
        }
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
            if let window = hub.ticksOverWindow {
                t = "hub ticks: \(fixed(window, 1)) per second over the window; \(fixed(ticks, 1)) (lowest \(low)) by /healthz"
            }
            if let medians = hub.tickMedianPerLoopMilliseconds {
                t += "; tick p50 per loop \(medians.map { $0.map { fixed($0, 2) } ?? "-" }.joined(separator: " / ")) ms"
            }
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
