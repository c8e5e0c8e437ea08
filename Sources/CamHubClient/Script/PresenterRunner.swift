import CamHubKit
import CamHubProtocol
import CameraCore
import CameraMotion

/// Runs a `PresenterScript` in a joined CamHubKit `Room`: each command step is
/// sent as it is (`Room.send`), waits and strokes keep their timing, and what
/// the hub answers (animation reports, errors, frames) is read from the room's
/// `messages` all along. Used by one task; `run` consumes the room's
/// `messages` and `changes` (a room runs one script).
public final class PresenterRunner {
    public let room: Room
    public let script: PresenterScript
    let onEvent: (PresenterEvent) -> Void
    let shouldStop: () -> Bool
    /// Every frame the presenter receives, with its local arrival time (ms since 1970).
    let onFrame: (HubFrame, Double) -> Void

    struct Tracked {
        var step: Int
        var sentAt: Double
        var planned: Double?
        var ended: String?
    }
    var animations: [String: Tracked] = [:]
    /// The last step sent with each `ref` (its id, else its type): hub errors name it.
    var lastStepOfRef: [String: Int] = [:]
    var viewport = Viewport(width: 1280, height: 720)
    var camera: Camera?
    var report = PresentReport()
    var closed = false
    var pongMarker: Double?
    var pongSeen = false
    var retries = UnavailableRetries()
    var inputs: RoomInputs?
    var pending: AsyncStream<RoomInputs.Input>.Iterator?

    public init(
        room: Room, script: PresenterScript, viewport: Viewport? = nil,
        shouldStop: @escaping () -> Bool = { false },
        onFrame: @escaping (HubFrame, Double) -> Void = { _, _ in },
        onEvent: @escaping (PresenterEvent) -> Void = { _ in }
    ) {
        self.room = room
        self.onFrame = onFrame
        self.script = script
        self.shouldStop = shouldStop
        self.onEvent = onEvent
        if let viewport { self.viewport = viewport }
    }

    /// Runs the script once (or `iterations` times; nil with `loop` = until
    /// `shouldStop`), then waits for the animations it started to end.
    public func run(loop: Bool = false, iterations: Int? = nil) async -> PresentReport {
        let started = monotonicSeconds()
        let inputs = RoomInputs(room)
        self.inputs = inputs
        pending = inputs.stream.makeAsyncIterator()
        defer { inputs.stop() }
        camera = await room.camera
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
                await execute(step, iteration: iteration)
                report.stepsRun += 1
            }
        }
        if !report.interrupted && !closed { await finish() }
        report.seconds = monotonicSeconds() - started
        return report
    }

    // MARK: steps

    private func execute(_ step: ScriptStep, iteration: Int) async {
        onEvent(.stepStarted(step, iteration: iteration))
        let begin = monotonicSeconds()
        switch step.action {
        case .command(_, let message, let id):
            lastStepOfRef[message.ref] = step.number
            if case .viewport(let v) = message { viewport = v }
            if let id { animations[id] = Tracked(step: step.number, sentAt: begin, planned: planned(message, sentAt: begin), ended: nil) }
            retries.sent(message)
            await send(message)
            onEvent(.stepDone(step, note: "sent"))
        case .wait(let seconds):
            await pump(until: begin + seconds) { now in self.onEvent(.progress(step, elapsed: now - begin, total: seconds)) }
            onEvent(.stepDone(step, note: "waited \(fixed(seconds, 1)) s"))
        case .waitFor(let id, let timeout):
            await waitFor(id, timeout: timeout, step: step, begin: begin)
        case .stroke(let stroke):
            lastStepOfRef["gesture"] = step.number
            for message in stroke.messages {
                await pump(until: begin + message.offset) { now in self.onEvent(.progress(step, elapsed: now - begin, total: stroke.duration)) }
                if closed || report.interrupted { break }
                await send(message.message)
            }
            onEvent(.stepDone(step, note: "\(stroke.messages.count) gesture messages"))
        }
    }

    /// Seconds the animation `message` starts should take (nil: unknown); a chained
    /// animation starts when its predecessor is planned to end.
    private func planned(_ message: ClientMessage, sentAt begin: Double) -> Double? {
        var planned: Double? =
            switch message {
            case .ease(let e): e.duration
            case .animate(let a): a.delay + a.duration
            case .fly(let f): f.duration ?? camera.flatMap { FlightEstimate.duration(from: $0, command: f, viewport: viewport) }
            default: nil
            }
        if case .animate(let a) = message, let after = a.after, let p = animations[after],
            p.ended == nil, let pPlanned = p.planned, let own = planned
        {
            planned = max(0, p.sentAt + pPlanned - begin) + own
        }
        return planned
    }

    private func waitFor(_ id: String, timeout: Double, step: ScriptStep, begin: Double) async {
        let sentAt = animations[id]?.sentAt ?? begin
        let done = await pump(
            until: begin + timeout,
            progress: { now in self.onEvent(.progress(step, elapsed: now - sentAt, total: self.animations[id]?.planned)) },
            stopWhen: { self.animations[id]?.ended != nil })
        if done, let ended = animations[id]?.ended {
            onEvent(.stepDone(step, note: "\(id) \(ended) after \(fixed(monotonicSeconds() - sentAt, 2)) s"))
        } else if !closed && !report.interrupted {
            report.problems.append("step \(step.number) (waitFor): \(id) did not end within \(JSONWriter.plain(timeout)) s")
            onEvent(.stepDone(step, note: "timed out after \(JSONWriter.plain(timeout)) s"))
        }
    }

    /// After the last step: wait for every animation still running (bounded),
    /// then for the frame where the camera came to rest.
    private func finish() async {
        let running = animations.filter { $0.value.ended == nil }
        if !running.isEmpty {
            onEvent(.waitingForAnimations(running.count))
            let now = monotonicSeconds()
            let longest = running.values.map { max(0, ($0.planned ?? 60) - (now - $0.sentAt)) }.max() ?? 0
            await pump(until: now + min(longest + 10, 3600), stopWhen: { self.animations.values.allSatisfy { $0.ended != nil } })
            for (id, t) in animations where t.ended == nil {
                report.problems.append("\(id) (step \(t.step)) had not ended when the script gave up waiting")
            }
        }
        // Commands the hub could not run yet go again (bounded: 5 attempts each,
        // about 8 s in all), until the hub has answered them all.
        repeat {
            await pump(until: monotonicSeconds() + 10, stopWhen: { self.retries.due.isEmpty })
            await awaitAnswers()
        } while !retries.due.isEmpty && !closed && !report.interrupted
        // The resting frame comes within one frame interval of the end of the script's last
        // animation. When that animation finished, the camera rests unless someone else moves
        // it: wait for the rest frame itself (the deadline only counts on a stalled hub); else
        // (nothing of ours moved, or someone else holds the camera) give it a second.
        let lastFinished = animations.values.max { $0.sentAt < $1.sentAt }?.ended == "finished"
        await pump(until: monotonicSeconds() + (lastFinished ? 10 : 1), stopWhen: { self.report.lastFrame.map { !$0.moving } ?? false })
    }

    /// A ping as a barrier: the hub answers in order, so once its pong is here
    /// every answer to the script's commands (errors included) is too.
    private func awaitAnswers() async {
        let marker = -Double(UInt32.random(in: 1...UInt32.max))
        pongSeen = false
        pongMarker = marker
        await send(.ping(t: marker))
        await pump(until: monotonicSeconds() + 10, stopWhen: { self.pongSeen })
    }

    /// Sends `message`; a room that is no longer joined ends the script (its close comes as `ended`).
    func send(_ message: ClientMessage) async {
        do { try await room.send(message) } catch { await noteClosed() }
    }
}
