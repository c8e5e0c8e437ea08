import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

@testable import CamHubBench
@testable import CamHubClient

/// A real hub on 127.0.0.1, port 0, in this process.
private func startHub(tick: Double = 60) throws -> (HubServer, HubURL) {
    var configuration = HubServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.webRoot = nil
    configuration.hub.tick = tick
    let server = try HubServer(configuration: configuration)
    let port = try server.start()
    return (server, HubURL(host: "127.0.0.1", port: port))
}

/// Tests against a live hub share one serialized suite (two cores).
@Suite(.serialized, .timeLimit(.minutes(1)), SocketSuiteLock())
struct LiveHubTests {
    /// The next `animation` report on `connection` (skipping frames and events; nil at an
    /// error or the close), waiting up to `timeout` seconds.
    static func nextAnimation(on connection: HubConnection, timeout: Double = 20) -> AnimationMessage? {
        let deadline = monotonicSeconds() + timeout
        while let item = connection.next(timeout: deadline - monotonicSeconds()) {
            guard case .message(let received) = item else { return nil }
            switch received.message {
            case .animation(let animation, _): return animation
            case .error: return nil
            default: continue
            }
        }
        return nil
    }

    @Test func presentThenFollowEndsExactlyOnTheScriptsTarget() async throws {
        let (server, url) = try startHub()
        defer { server.shutdown() }

        // The follower joins first and records everything.
        let follower = try await HelloOptions(room: "trip", role: "follower", rate: 30).join(url, reconnect: nil)
        let frames = Locked<[HubFrame]>([])
        let stop = Locked(false)
        let following = Task {
            await FollowRunner(room: follower, clock: .local).run(duration: 30, shouldStop: { stop.withLock { $0 } }) { received, _ in
                if case .frame(let f) = received.message { frames.withLock { $0.append(f) } }
            }
        }

        let script = try PresenterScript.parse(
            """
            [{"type":"set","camera":{"lat":10,"lon":170,"zoom":3,"bearing":0,"tilt":0}},
             {"type":"animate","id":"long","to":{"bearing":180},"duration":5},
             {"type":"ease","id":"take","camera":{"bearing":90},"duration":0.3},
             {"type":"waitFor","id":"take"},
             {"type":"gesture","kind":"pan","from":{"x":640,"y":360},"to":{"x":540,"y":300},"duration":0.3},
             {"type":"fly","id":"f","camera":{"lat":-33.8688,"lon":-170.5,"zoom":5.25,"bearing":45,"tilt":30},"duration":1},
             {"type":"waitFor","id":"f"},
             {"type":"cancel","id":"f"}]
            """)
        let presenter = try await HelloOptions(room: "trip", role: "presenter", name: "p").join(url, reconnect: nil)
        let me = await presenter.client
        var events: [PresenterEvent] = []
        let report = await PresenterRunner(room: presenter, script: script, onEvent: { events.append($0) }).run()
        await presenter.close()

        let target = Camera(latitude: -33.8688, longitude: -170.5, zoom: 5.25, tilt: 30, bearing: 45)
        // Completions: the long animation lost its bearing to the ease; the others finished.
        let byID = Dictionary(report.completions.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byID["long"]?.status == "superseded")
        #expect(byID["long"]?.by == me)
        #expect(byID["long"]?.lost == ["bearing"])
        #expect(byID["take"]?.status == "finished")
        #expect(byID["f"]?.status == "finished")
        #expect(byID["f"]?.camera == target)
        #expect(report.count("finished") == 2 && report.count("superseded") == 1 && report.count("cancelled") == 0)
        // Cancelling a finished animation is the hub's error, attributed to step 8.
        #expect(report.errors.count == 1)
        #expect(report.errors.first?.step == 8)
        #expect(report.errors.first?.failure.code == .unknownAnimation)
        #expect(report.problems.isEmpty && report.disconnected == nil && !report.interrupted)
        #expect(report.lastFrame?.camera == target && report.lastFrame?.moving == false)
        #expect(events.contains { if case .stepDone(let s, let note) = $0 { s.number == 7 && note.hasPrefix("f finished") } else { false } })

        // The follower's last resting frame is the script's final target, bit for bit.
        #expect(
            await waitUntilAsync(seconds: 20) { frames.withLock { $0.last.map { !$0.moving && $0.camera == target } ?? false } },
            "the follower comes to rest on the target")
        stop.withLock { $0 = true }
        let s = await following.value
        await follower.close()
        let all = frames.withLock { $0 }
        let rest = all.last { !$0.moving }
        #expect(rest?.camera == target)
        #expect(all.last?.moving == false)
        #expect(all.contains { $0.moving }, "the follower saw the camera move, not just its end: \(all.count) frames")
        // Frames only move forward, and the pan moved the camera before the flight.
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.seq < $1.seq })
        #expect(all.contains { $0.by == me && $0.camera.latitude != 10 && $0.camera.bearing == 90 })
        #expect(s.frames == all.count)
        #expect(s.latency.count == UInt64(all.count))
        #expect(s.disconnected == nil && s.reconnects == 0)
        // How low the latency is on this machine is a benchmark figure (camhub bench), not asserted here.
        #expect(s.latency.p50 >= 0 && s.latency.p50 <= s.latency.p99)
    }

    /// An animation that loses some of its properties to a later command is
    /// `interrupted` and runs on: `waitFor` waits for its end, and the report
    /// holds one completion for it, the real one.
    @Test func waitForOutlastsAnInterruptionAndCountsOneEnd() async throws {
        let (server, url) = try startHub()
        defer { server.shutdown() }
        let presenter = try await HelloOptions(room: "part", role: "presenter").join(url, reconnect: nil)
        let script = try PresenterScript.parse(
            #"[{"type":"animate","id":"long","to":{"zoom":6,"bearing":90},"duration":2},{"type":"ease","id":"turn","camera":{"bearing":180},"duration":0.2},{"type":"waitFor","id":"long","timeout":30}]"#
        )
        var events: [PresenterEvent] = []
        let started = monotonicSeconds()
        let report = await PresenterRunner(room: presenter, script: script, onEvent: { events.append($0) }).run()
        await presenter.close()
        let interrupted = events.contains {
            if case .animation(let a, _, _) = $0 { a.id == "long" && a.status == .interrupted } else { false }
        }
        #expect(interrupted, "the ease took the bearing from the long animation")
        #expect(monotonicSeconds() - started >= 1.5, "waitFor waited for the long animation's end, not its interruption")
        #expect(report.completions.filter { $0.id == "long" }.map(\.status) == ["finished"])
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func presenterWaitsAndReportsARefusedCommand() async throws {
        let (server, url) = try startHub()
        defer { server.shutdown() }
        // A driver cannot take what a presenter holds: its ease is refused with conflict.
        let boss = try HubConnection.join(url, hello: HelloOptions(room: "r", role: "presenter"))
        defer { boss.shutdown() }
        // Held all through the test (the hub shuts down long before it would end).
        boss.send(#"{"type":"animate","id":"hold","to":{"zoom":4},"duration":60}"#)
        #expect(Self.nextAnimation(on: boss)?.status == .started, "the presenter holds zoom before the driver asks")
        let driver = try await HelloOptions(room: "r", role: "driver").join(url, reconnect: nil)
        let script = try PresenterScript.parse(
            #"[{"type":"wait","seconds":0.2},{"type":"ease","id":"mine","camera":{"zoom":8},"duration":0.5},{"type":"waitFor","id":"mine","timeout":60}]"#)
        let started = monotonicSeconds()
        let report = await PresenterRunner(room: driver, script: script).run()
        await driver.close()
        #expect(monotonicSeconds() - started < 30, "waitFor ends at the refusal, not at its 60 s timeout")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.completions.map(\.status) == ["refused"])
        #expect(report.errors.first?.step == 2 && report.errors.first?.failure.code == .conflict)
        #expect(!report.succeeded)
    }

    /// A presenter whose hub restarts under it stops, and its report says the script
    /// was cut short by the hub going away (a script cannot resume where it was).
    @Test func aPresenterWhoseHubStopsEndsWithTheCloseInItsReport() async throws {
        let (server, url) = try startHub()
        let presenter = try await HelloOptions(room: "gone", role: "presenter").join(url, reconnect: nil)
        let script = try PresenterScript.parse(#"[{"type":"fly","id":"slow","camera":{"zoom":8},"duration":20},{"type":"waitFor","id":"slow"}]"#)
        let resting = await presenter.camera.zoom
        let running = Task { await PresenterRunner(room: presenter, script: script).run() }
        #expect(await waitUntilAsync(seconds: 20) { await presenter.camera.zoom != resting }, "the flight began")
        server.shutdown(restarting: true)
        let report = await running.value
        await presenter.close()
        #expect(report.disconnected != nil && report.hubWentAway, "\(String(describing: report.lastClose))")
        #expect(PresentPrinter.summary(report).contains("a script cannot resume where it was"))
        #expect(!report.succeeded)
    }

    @Test func shortBenchReportIsConsistent() throws {
        let (server, url) = try startHub()
        defer { server.shutdown() }
        var options = BenchOptions(url: url)
        options.followers = 200
        options.rate = 30
        options.duration = 3
        options.warmup = 1
        options.drain = 1
        options.connectRate = 2000
        options.threads = 2
        let lines = Locked<[String]>([])
        let report = try BenchRunner(options: options, progress: { line in lines.withLock { $0.append(line) } }).run()

        #expect(report.followersRequested == 200)
        #expect(report.connected + report.failed == report.followersRequested)
        #expect(report.connected > 190, "\(report.text)")
        #expect(report.expectedFrames == report.connected * 90)
        #expect(report.receivedFrames <= report.expectedFrames)
        #expect(report.deliveredPercent == Double(report.receivedFrames) / Double(report.expectedFrames) * 100)
        // How many frames arrive on time on this machine is the benchmark's figure, not asserted here.
        #expect(report.receivedFrames > 0, "\(report.text)")
        #expect(report.latencyMs.count == UInt64(report.receivedFrames + report.excessFrames))
        #expect(report.perSecond.count == 3)
        #expect(report.perSecond.reduce(0) { $0 + $1.received } == report.receivedFrames + report.excessFrames)
        #expect(report.perSecond.allSatisfy { $0.expected == report.connected * 30 })
        let l = report.latencyMs
        #expect(0 <= l.p50 && l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max)
        #expect(report.hub.inProcess && report.hub.pid == getpid())
        #expect((report.hub.cpuSeconds ?? -1) > 0)
        #expect(report.hub.rssPerConnectionBytes == nil)  // not meaningful in-process
        // The hub's own pace, read off its /healthz each second: never above its tick rate.
        let ticks = try #require(report.hub.ticksPerSecond, "a local camhub hub reports its ticks")
        #expect(ticks > 0 && ticks <= 61 && (report.hub.ticksPerSecondMin ?? 0) > 0, "\(ticks)")
        #expect(report.hub.connectionsPerLoop?.count == 1, "one event loop (the library default)")
        #expect(lines.withLock { $0.contains { $0.contains("ticks/s") } })
        #expect(report.passed == (report.receivedFrames == report.expectedFrames && report.failed == 0 && report.disconnects == 0))
        #expect(report.presenterErrors.isEmpty, "\(report.presenterErrors)")
        #expect(lines.withLock { $0.contains { $0.hasPrefix("t 1/3 s") } })
        // The JSON form round-trips.
        let data = try JSONEncoder().encode(report)
        let back = try JSONDecoder().decode(BenchReport.self, from: data)
        #expect(back.receivedFrames == report.receivedFrames && back.latencyMs == report.latencyMs)
    }

    @Test func benchSpreadsFollowersOverRoomsEachWithItsOwnPresenter() throws {
        let (server, url) = try startHub()
        defer { server.shutdown() }
        var options = BenchOptions(url: url)
        options.followers = 30
        options.rooms = 3
        options.rate = 10
        options.duration = 2
        options.warmup = 1
        options.drain = 1
        let report = try BenchRunner(options: options).run()
        #expect(report.rooms == 3 && report.connected == 30, "\(report.text)")
        #expect(report.silentFollowers == 0, "every room moves, so every follower gets frames: \(report.text)")
        #expect(report.expectedFrames == 30 * 20 && report.receivedFrames <= report.expectedFrames, "\(report.text)")
        #expect(report.perSecond.reduce(0) { $0 + $1.received } == report.receivedFrames + report.excessFrames)
        #expect(report.presenterErrors.isEmpty, "\(report.presenterErrors)")
        #expect(report.text.contains("3 rooms bench-0…2"))
    }

    @Test func benchWithAMovingShareOwesFramesOnlyToMovingRoomsAndMeasuresRest() throws {
        let (server, url) = try startHub()
        defer { server.shutdown() }
        var options = BenchOptions(url: url)
        options.followers = 24
        options.rooms = 6
        options.moving = 0.5
        options.idleSeconds = 1
        options.rate = 10
        options.duration = 2
        options.warmup = 1
        options.drain = 1
        let report = try BenchRunner(options: options).run()
        #expect(report.rooms == 6 && report.movingRooms == 3 && report.connected == 24, "\(report.text)")
        #expect(report.expectedFrames == 12 * 20, "only the 12 followers of the 3 moving rooms are owed frames: \(report.text)")
        #expect(report.silentFollowers == 0, "each of them gets frames: \(report.text)")
        #expect(report.perSecond.reduce(0) { $0 + $1.received } == report.receivedFrames + report.excessFrames)
        #expect(report.hub.idleCores != nil && report.idleSeconds == 1, "\(report.text)")
        #expect(report.text.contains("6 rooms bench-0…5 (3 moving)"))
        #expect(report.text.contains("hub at rest"))
        #expect(report.presenterErrors.isEmpty, "\(report.presenterErrors)")
    }

    @Test func benchWithEveryRoomAtRestPassesWithoutFrames() throws {
        let (server, url) = try startHub()
        defer { server.shutdown() }
        var options = BenchOptions(url: url)
        options.followers = 8
        options.rooms = 4
        options.moving = 0
        options.idleSeconds = 1
        options.duration = 1
        options.warmup = 0
        options.drain = 0
        let report = try BenchRunner(options: options).run()
        #expect(report.expectedFrames == 0 && report.connected == 8, "\(report.text)")
        #expect(report.passed, "\(report.text)")
    }

    @Test func benchRefusesMoreRoomsThanFollowersAndRoomsWithAScript() throws {
        var options = BenchOptions(url: try HubURL(parsing: "ws://127.0.0.1:8080/hub"))
        options.followers = 2
        options.rooms = 3
        #expect(throws: ClientError.self) { try BenchRunner.validate(options) }
        options.rooms = 2
        try BenchRunner.validate(options)
        options.presenter = .script(try PresenterScript.parse(#"[{"type":"wait","seconds":1}]"#), name: "s.json")
        #expect(throws: ClientError.self) { try BenchRunner.validate(options) }
        options.presenter = .spin
        options.moving = 1.5
        #expect(throws: ClientError.self) { try BenchRunner.validate(options) }
        options.rooms = 1
        options.moving = 0.5
        #expect(throws: ClientError.self, "a moving share needs several rooms") { try BenchRunner.validate(options) }
    }

    @Test func benchRefusesAReadPauseOutsideZeroToFiftyMilliseconds() throws {
        var options = BenchOptions(url: try HubURL(parsing: "ws://127.0.0.1:8080/hub"))
        for refused in [-1, 50.5, .nan] {
            options.readPauseMilliseconds = refused
            #expect(throws: ClientError.self, "\(refused) ms") { try BenchRunner.validate(options) }
        }
        for allowed in [0, 1, 50.0] {
            options.readPauseMilliseconds = allowed
            try BenchRunner.validate(options)
        }
    }

    @Test func benchRefusesRemoteHubs() throws {
        let options = BenchOptions(url: try HubURL(parsing: "ws://192.0.2.1:8080/hub"))
        #expect(throws: ClientError.self) { try BenchRunner.validate(options) }
        var allowed = options
        allowed.allowRemote = true
        try BenchRunner.validate(allowed)
    }
}
