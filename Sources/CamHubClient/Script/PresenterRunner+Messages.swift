import CamHubKit
import CamHubProtocol

/// What the hub sends while a script runs: frames, our animations' reports,
/// errors (a refused command, or `unavailable`: sent again), the barrier's pong.
extension PresenterRunner {
    /// Handles what comes until `deadline` (monotonic seconds) or `stopWhen`;
    /// true if `stopWhen` became true.
    @discardableResult
    func pump(until deadline: Double, progress: ((Double) -> Void)? = nil, stopWhen: (() -> Bool)? = nil) async -> Bool {
        guard let inputs else { return false }
        let waking = inputs.wake(at: deadline)
        defer { waking.cancel() }
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
            for retry in retries.take(at: now) { await send(retry.message) }
            if now >= deadline { return false }
            guard let input = await pending?.next() else {
                await noteClosed()
                return false
            }
            switch input {
            case .message(let received): handle(received)
            case .ended: await noteClosed()
            case .change, .tick: break
            }
        }
    }

    /// The room ended for good (a script does not rejoin): how, for the report.
    func noteClosed() async {
        guard !closed else { return }
        closed = true
        guard case .closed(let error) = await room.connection, case .closed(let close)? = error?.kind else {
            report.disconnected = "the connection ended"
            return
        }
        report.disconnected = describe(close)
        report.lastClose = close
    }

    private func handle(_ received: ReceivedMessage) {
        switch received.message {
        case .frame(let frame):
            report.lastFrame = frame
            camera = frame.camera
            onFrame(frame, received.receivedAt)
        case .animation(let a, _):
            animationReport(a)
        case .pong(let t, _):
            if let t, t == pongMarker { pongSeen = true }
        case .error(let e) where e.code == .unavailable && retry(e):
            return
        case .error(let e):
            refused(e)
        default:
            break
        }
    }

    private func animationReport(_ a: AnimationMessage) {
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
    }

    /// The hub refused a command: the error is the report's, and an animation it would have started never ends.
    private func refused(_ e: ProtocolError) {
        var step: Int?
        if let ref = e.ref {
            step = lastStepOfRef[ref]
            if var tracked = animations[ref], tracked.step == step, tracked.ended == nil {
                tracked.ended = "refused"
                animations[ref] = tracked
                report.completions.append(
                    Completion(
                        step: tracked.step, id: ref, status: "refused", by: nil, seconds: monotonicSeconds() - tracked.sentAt,
                        lost: [], clamped: [], reason: "\(e.code.rawValue): \(e.message)", camera: nil))
            }
        }
        report.errors.append((step, e))
        onEvent(.hubError(e, step: step))
    }

    /// Schedules the command `e` answers again; false when it is not ours or out of attempts.
    private func retry(_ e: ProtocolError) -> Bool {
        guard let ref = e.ref, let retry = retries.unavailable(ref: ref, at: monotonicSeconds()) else { return false }
        report.retried += 1
        onEvent(.retrying(ref: ref, step: lastStepOfRef[ref], attempt: retry.attempt, after: retry.at - monotonicSeconds()))
        return true
    }
}
