import CamHubProtocol
import CameraCore
import CameraMotion

/// Commands that move the camera and return the hub's answer.
extension Room {
    /// Jumps the camera (`set`); returns once the hub has it (a refusal throws).
    public func set(_ camera: CameraUpdate) async throws(CamHubError) {
        try await roundTrip(.set(camera))
    }

    /// Flies to `camera` (MapLibre's `flyTo`); returns how the flight ended.
    public func fly(
        to camera: CameraUpdate, duration: Double? = nil, speed: Double = FlyCommand.defaultSpeed,
        curve: Double = FlyCommand.defaultCurve, minZoom: Double? = nil, essential: Bool = false
    ) async throws(CamHubError) -> AnimationReport {
        var command = FlyCommand(id: newID(), camera: camera, duration: duration, speed: speed, curve: curve, minZoom: minZoom)
        command.essential = essential
        return try await animation(.fly(command), id: command.id!)
    }

    /// Eases to `camera` (MapLibre's `easeTo`); returns how the animation ended.
    public func ease(
        to camera: CameraUpdate, duration: Double = EaseCommand.defaultDuration, curve: TimingCurve = .easeInOut,
        essential: Bool = false
    ) async throws(CamHubError) -> AnimationReport {
        var command = EaseCommand(id: newID(), camera: camera, duration: duration, curve: curve)
        command.essential = essential
        return try await animation(.ease(command), id: command.id!)
    }

    /// Animates the properties `to` names (per-property animators); returns how the animation ended.
    public func animate(
        to: CameraUpdate, duration: Double, curve: TimingCurve = .easeInOut, delay: Double = 0, after: String? = nil
    ) async throws(CamHubError) -> AnimationReport {
        let command = AnimateCommand(id: newID(), to: to, duration: duration, curve: curve, delay: delay, after: after)
        return try await animation(.animate(command), id: command.id!)
    }

    /// Goes through the room's storyboard (`next`, `previous`, a step, `play`,
    /// `pause`). A step's `fly` or `ease` is this client's animation: returns how it
    /// ended. A `jump` step (a `set`), `play` and `pause` are not animations: they
    /// return nil once the hub has them. A step outside the storyboard throws the hub's error.
    @discardableResult
    public func step(to: StepTarget) async throws(CamHubError) -> AnimationReport? {
        switch to {
        case .play, .pause:
            try await roundTrip(.step(StepCommand(to: to)))
            return nil
        case .next, .previous, .index:
            return try await move(to: to)
        }
    }

    /// Goes to a step: the hub handles a `step` before the `ping` after it and reports
    /// a move's start as it handles it, so by the pong it is known whether one started.
    private func move(to: StepTarget) async throws(CamHubError) -> AnimationReport? {
        let id = newID("step")
        let me = client
        let ended = answers.expect { reply in
            if case .animation(let report, _) = reply { report.id == id && report.status.isEnd && (report.owner ?? me) == me } else { false }
        }
        let started = answers.expect { reply in
            if case .animation(let report, _) = reply { report.id == id && report.status == .started && (report.owner ?? me) == me } else { false }
        }
        do { try await roundTrip(.step(StepCommand(to: to, id: id))) } catch {
            answers.forget(ended)
            answers.forget(started)
            throw error
        }
        guard answers.take(started) != nil else {
            answers.forget(ended)
            return nil  // a jump: the camera is there already
        }
        let answer = try await wait(for: ended)
        guard case .animation(let report, _) = answer else { throw Self.failure(answer) }
        return report
    }

    /// Stops animations: one of this client's (`.id`), all of its own (`.own`),
    /// or the room's (`.all`, presenters). Returns once the hub has done it.
    public func cancel(_ scope: CancelScope = .own) async throws(CamHubError) {
        try await roundTrip(.cancel(scope))
    }

    /// One gesture as a recognizer made it (drivers and presenters), sent without waiting:
    /// gestures come many a second; one with `seq` is answered with a `gestureAck`, a
    /// refused one with an `error` (neither awaited here).
    public func gesture(_ gesture: GestureInput) async throws(CamHubError) {
        try await send(.gesture(gesture))
    }

    /// Switches gesture kinds off and on for this client; returns the kinds now off.
    @discardableResult
    public func gestures(disable: Set<GestureKind> = [], enable: Set<GestureKind> = []) async throws(CamHubError) -> Set<GestureKind> {
        let answer = try await ask(.gestures(GestureToggle(disable: disable, enable: enable))) { reply in
            switch reply {
            case .gestures: true
            case .error(let error): error.ref == "gestures"
            default: false
            }
        }
        guard case .gestures(let disabled) = answer else { throw Self.failure(answer) }
        return disabled
    }

    /// Tracking: sets the room's mode and/or feeds a location (drivers, presenters).
    public func track(mode: TrackingMode? = nil, location: TrackedLocation? = nil) async throws(CamHubError) {
        try await roundTrip(.track(TrackMessage(mode: mode, location: location)))
    }

    /// Replaces the room's route (`[]` clears it), or extends it (`append`).
    public func route(_ points: [GeoCoordinate], append: Bool = false) async throws(CamHubError) {
        try await roundTrip(.route(RouteMessage(points: points, append: append)))
    }
}
