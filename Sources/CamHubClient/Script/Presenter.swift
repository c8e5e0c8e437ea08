import CamHubProtocol
import CameraCore
import CameraMotion
import Foundation
import HubCore
import WebSocketTransport

/// What a running presenter script reports as it goes (for progress output).
public enum PresenterEvent: Sendable {
    case stepStarted(ScriptStep, iteration: Int)
    /// A step that takes time (wait, waitFor, stroke): `elapsed` of `total` seconds (`total` nil: unknown).
    case progress(ScriptStep, elapsed: Double, total: Double?)
    /// The step is over: "sent", "finished after 3.52 s", "timed out after 120 s", …
    case stepDone(ScriptStep, note: String)
    /// An `animation` message for one of our animations (`step`: the step that started it).
    case animation(AnimationMessage, step: Int?, seconds: Double?)
    case hubError(ProtocolError, step: Int?)
    /// The hub answered `unavailable` (no reachable owner right now): the
    /// command goes again `after` seconds from now, as attempt `attempt` of `UnavailableRetries.maxAttempts`.
    case retrying(ref: String, step: Int?, attempt: Int, after: Double)
    /// The script is over; waiting for this many animations still running.
    case waitingForAnimations(Int)
}

/// How one animation of the script ended.
public struct Completion: Sendable, Equatable {
    public var step: Int
    public var id: String
    /// `finished`, `superseded`, `cancelled`, or `refused` (the hub answered the command with an error).
    public var status: String
    public var by: String?
    /// Seconds from sending the command to the end.
    public var seconds: Double
    public var lost: [String]
    public var clamped: [String]
    public var reason: String?
    public var camera: Camera?
}

/// What a presenter run did.
public struct PresentReport: Sendable {
    public var iterations = 0
    public var stepsRun = 0
    public var completions: [Completion] = []
    public var errors: [(step: Int?, failure: ProtocolError)] = []
    /// waitFor steps that timed out, and similar problems on our side.
    public var problems: [String] = []
    /// The last frame the presenter received (its camera is the room's).
    public var lastFrame: HubFrame?
    public var seconds: Double = 0
    public var interrupted = false
    /// Commands sent again after the hub answered `unavailable`.
    public var retried = 0
    /// The connection ended before the script did.
    public var disconnected: String?
    /// How it ended (for telling a hub restart from a refusal).
    public var lastClose: ClientCloseEvent?

    public func count(_ status: String) -> Int { completions.filter { $0.status == status }.count }
    public var succeeded: Bool { errors.isEmpty && problems.isEmpty && disconnected == nil }
}

/// Runs a `PresenterScript` over a joined `HubConnection`.
public final class PresenterRunner {
    public let connection: HubConnection
    public let script: PresenterScript
    private let onEvent: (PresenterEvent) -> Void
    private let shouldStop: () -> Bool
    private let onFrame: (HubFrame, Double) -> Void

    private struct Tracked {
        var step: Int
        var sentAt: Double
        var planned: Double?
        var ended: String?
    }
    private var animations: [String: Tracked] = [:]
    /// The last step sent with each `ref` (its id, else its type): hub errors name it.
    private var lastStepOfRef: [String: Int] = [:]
    private var viewport = Viewport(width: 1280, height: 720)
    private var camera: Camera?
    private var report = PresentReport()
    private var closed = false
    private var pongMarker: Double?
    private var pongSeen = false
    private var retries = UnavailableRetries()

    public init(
        connection: HubConnection, script: PresenterScript, viewport: Viewport? = nil,
        shouldStop: @escaping () -> Bool = { false },
        onFrame: @escaping (HubFrame, Double) -> Void = { _, _ in },
        onEvent: @escaping (PresenterEvent) -> Void = { _ in }
    ) {
        self.connection = connection
        self.onFrame = onFrame
        self.script = script
        self.shouldStop = shouldStop
        self.onEvent = onEvent
        if let viewport { self.viewport = viewport }
        camera = connection.welcome?.camera
    }

    /// Runs the script once (or `iterations` times; nil with `loop` = until
    /// `shouldStop`), then waits for the animations it started to end.
    public func run(loop: Bool = false, iterations: Int? = nil) -> PresentReport {
        let started = monotonicSeconds()
        let rounds = iterations ?? (loop ? Int.max : 1)
        var iteration = 0
        outer: while iteration < rounds {
            iteration += 1
            report.iterations = iteration
            for step in script.steps {
                if shouldStop() {
                    report.interrupted = true
                    break outer
                }
                if closed { break outer }
                execute(step, iteration: iteration)
                report.stepsRun += 1
            }
        }
        if !report.interrupted && !closed { finish() }
        report.seconds = monotonicSeconds() - started
        return report
    }

    // MARK: steps

    private func execute(_ step: ScriptStep, iteration: Int) {
        onEvent(.stepStarted(step, iteration: iteration))
        let begin = monotonicSeconds()
        switch step.action {
        case .command(let text, let message, let id):
            lastStepOfRef[message.ref] = step.number
            if case .viewport(let v) = message { viewport = v }
            var planned = step.plannedAnimationSeconds
            if planned == nil, case .fly(let f) = message, let camera {
                planned = FlightEstimate.duration(from: camera, command: f, viewport: viewport)
            }
            // A chained animation starts when its predecessor is planned to end.
            if case .animate(let a) = message, let after = a.after, let p = animations[after],
                p.ended == nil, let pPlanned = p.planned, let own = planned
            {
                planned = max(0, p.sentAt + pPlanned - begin) + own
            }
            if let id { animations[id] = Tracked(step: step.number, sentAt: begin, planned: planned, ended: nil) }
            retries.sent(text, ref: message.ref)
            connection.send(text)
            drain()  // report whatever arrived meanwhile
            onEvent(.stepDone(step, note: "sent"))
        case .wait(let seconds):
            pump(until: begin + seconds) { now in self.onEvent(.progress(step, elapsed: now - begin, total: seconds)) }
            onEvent(.stepDone(step, note: "waited \(fixed(seconds, 1)) s"))
        case .waitFor(let id, let timeout):
            let tracked = animations[id]
            let sentAt = tracked?.sentAt ?? begin
            let done = pump(
                until: begin + timeout,
                progress: { now in
                    self.onEvent(.progress(step, elapsed: now - sentAt, total: self.animations[id]?.planned))
                }, stopWhen: { self.animations[id]?.ended != nil })
            if done, let ended = animations[id]?.ended {
                onEvent(.stepDone(step, note: "\(id) \(ended) after \(fixed(monotonicSeconds() - sentAt, 2)) s"))
            } else if !closed && !report.interrupted {
                let problem = "step \(step.number) (waitFor): \(id) did not end within \(JSONWriter.plain(timeout)) s"
                report.problems.append(problem)
                onEvent(.stepDone(step, note: "timed out after \(JSONWriter.plain(timeout)) s"))
            }
        case .stroke(let stroke):
            lastStepOfRef["gesture"] = step.number
            for message in stroke.messages {
                pump(until: begin + message.offset) { now in self.onEvent(.progress(step, elapsed: now - begin, total: stroke.duration)) }
                if closed || report.interrupted { break }
                connection.send(message.text)
            }
            onEvent(.stepDone(step, note: "\(stroke.messages.count) gesture messages"))
        }
    }

    /// After the last step: wait for every animation still running (bounded),
    /// then for the frame where the camera came to rest.
    private func finish() {
        let running = animations.filter { $0.value.ended == nil }
        if !running.isEmpty {
            onEvent(.waitingForAnimations(running.count))
            let now = monotonicSeconds()
            let longest = running.values.map { max(0, ($0.planned ?? 60) - (now - $0.sentAt)) }.max() ?? 0
            pump(until: now + min(longest + 10, 3600), stopWhen: { self.animations.values.allSatisfy { $0.ended != nil } })
            for (id, t) in animations where t.ended == nil {
                report.problems.append("\(id) (step \(t.step)) had not ended when the script gave up waiting")
            }
        }
        // Commands the hub could not run yet go again (bounded: 5 attempts each,
        // about 8 s in all), until the hub has answered them all.
        repeat {
            pump(until: monotonicSeconds() + 10, stopWhen: { self.retries.due.isEmpty })
            awaitAnswers()
        } while !retries.due.isEmpty && !closed && !report.interrupted
        // The resting frame comes within one frame interval of the end of the script's last
        // animation. When that animation finished, the camera rests unless someone else moves
        // it: wait for the rest frame itself (the deadline only counts on a stalled hub); else
        // (nothing of ours moved, or someone else holds the camera) give it a second.
        let lastFinished = animations.values.max { $0.sentAt < $1.sentAt }?.ended == "finished"
        pump(until: monotonicSeconds() + (lastFinished ? 10 : 1), stopWhen: { self.report.lastFrame.map { !$0.moving } ?? false })
    }

    /// A ping as a barrier: the hub answers in order, so once its pong is here
    /// every answer to the script's commands (errors included) is too.
    private func awaitAnswers() {
        let marker = -Double(UInt32.random(in: 1...UInt32.max))
        pongSeen = false
        pongMarker = marker
        connection.send("{\"type\":\"ping\",\"t\":\(JSONWriter.plain(marker))}")
        pump(until: monotonicSeconds() + 10, stopWhen: { self.pongSeen })
    }

    // MARK: messages

    /// Handles incoming messages until `deadline` or `stopWhen`; true if `stopWhen` became true.
    @discardableResult
    private func pump(
        until deadline: Double, progress: ((Double) -> Void)? = nil,
        stopWhen: (() -> Bool)? = nil
    ) -> Bool {
        var lastProgress = 0.0
        while true {
            if let stopWhen, stopWhen() { return true }
            if closed { return false }
            if shouldStop() {
                report.interrupted = true
                return false
            }
            let now = monotonicSeconds()
            if let progress, now - lastProgress >= 0.1 {
                progress(now)
                lastProgress = now
            }
            for retry in retries.take(at: now) { connection.send(retry.text) }
            let left = deadline - now
            if left <= 0 { return false }
            guard let item = connection.next(timeout: min(left, 0.1)) else { continue }
            handle(item)
            // Drain what is already queued without waiting.
            while let more = connection.next(timeout: 0) { handle(more) }
        }
    }

    private func drain() {
        while let item = connection.next(timeout: 0) { handle(item) }
    }

    private func handle(_ item: HubConnection.Item) {
        switch item {
        case .closed(let event):
            closed = true
            report.disconnected = describe(event)
            report.lastClose = event
        case .message(let received):
            switch received.message {
            case .frame(let frame):
                report.lastFrame = frame
                camera = frame.camera
                onFrame(frame, received.localTime)
            case .animation(let a, _):
                guard let id = a.id, var tracked = animations[id] else {
                    onEvent(.animation(a, step: nil, seconds: nil))
                    return
                }
                let seconds = monotonicSeconds() - tracked.sentAt
                if a.status.isEnd {
                    tracked.ended = a.status.rawValue
                    animations[id] = tracked
                    report.completions.append(
                        Completion(
                            step: tracked.step, id: id, status: a.status.rawValue, by: a.by, seconds: seconds,
                            lost: a.lost.names, clamped: a.clamped.names, reason: a.reason, camera: a.camera))
                }
                onEvent(.animation(a, step: tracked.step, seconds: seconds))
            case .pong(let t, _):
                if let t, t == pongMarker { pongSeen = true }
            case .error(let e) where e.code == .unavailable && retry(e):
                return
            case .error(let e):
                var step: Int?
                if let ref = e.ref {
                    step = lastStepOfRef[ref]
                    // The command that starts an animation was refused: it will never end.
                    if var tracked = animations[ref], tracked.step == step {
                        if tracked.ended == nil {
                            tracked.ended = "refused"
                            animations[ref] = tracked
                            report.completions.append(
                                Completion(
                                    step: tracked.step, id: ref, status: "refused", by: nil,
                                    seconds: monotonicSeconds() - tracked.sentAt, lost: [], clamped: [],
                                    reason: "\(e.code.rawValue): \(e.message)", camera: nil))
                        }
                    }
                }
                report.errors.append((step, e))
                onEvent(.hubError(e, step: step))
            default:
                break
            }
        }
    }

    /// Schedules the command `e` answers again; false when it is not ours or out of attempts.
    private func retry(_ e: ProtocolError) -> Bool {
        guard let ref = e.ref, let retry = retries.unavailable(ref: ref, at: monotonicSeconds()) else { return false }
        report.retried += 1
        onEvent(.retrying(ref: ref, step: lastStepOfRef[ref], attempt: retry.attempt, after: retry.at - monotonicSeconds()))
        return true
    }
}

/// The duration MapLibre's `flyTo` (and the hub) derives from speed and
/// path length: van Wijk & Nuij's S / V. Only for progress bars.
enum FlightEstimate {
    static func duration(from camera: Camera, command: FlyCommand, viewport: Viewport) -> Double? {
        let to = command.camera
        let lat1 = to.latitude ?? camera.latitude
        var lon1 = to.longitude ?? camera.longitude
        while lon1 - camera.longitude > 180 { lon1 -= 360 }
        while lon1 - camera.longitude < -180 { lon1 += 360 }
        let zoom1 = to.zoom ?? camera.zoom
        let size = WebMercator.worldSize(zoom: camera.zoom)
        let dx = (WebMercator.unitX(longitude: lon1) - WebMercator.unitX(longitude: camera.longitude)) * size
        let dy = (WebMercator.unitY(latitude: min(max(lat1, -85.05), 85.05)) - WebMercator.unitY(latitude: camera.latitude)) * size
        let distance = (dx * dx + dy * dy).squareRoot()
        if let duration = command.duration { return duration }
        // Neither centre nor zoom changes: the hub eases over 0.5 s (MapLibre's default).
        guard
            let path = FlightPath(
                startZoom: camera.zoom, endZoom: zoom1, distance: distance, viewport: viewport,
                rho: command.curve, minZoom: command.minZoom)
        else { return 0.5 }
        return path.duration(speed: command.speed)
    }
}
