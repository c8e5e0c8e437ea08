import CameraCore

/// Instantaneous gestures: taps and long presses are reported; double tap,
/// two-finger tap and scroll zoom around a point with a short animation.
extension GestureEngine {
    mutating func instantaneous(
        _ input: GestureInput, client: GestureClient, manager: inout AnimatorManager,
        at now: Double
    ) -> Result<GestureOutcome, CommandError> {
        let owner = client.owner
        if input.kind == .longPress { return longPress(input, client: client, manager: manager) }
        if input.kind == .tap {
            let effect: GestureEffect = client.disabled.contains(input.kind) ? .disabled : .reported
            return .success(reported(input, client: client, manager: manager, effect: effect))
        }
        if client.disabled.contains(input.kind) {
            return .success(reported(input, client: client, manager: manager, effect: .disabled))
        }

        let viewport = client.viewport
        let point = input.point ?? ViewPoint(x: viewport.width / 2, y: viewport.height / 2)
        let change: Double
        let duration: Double
        let curve: TimingCurve
        let id: String
        switch input.kind {
        case .doubleTap:
            (change, duration, curve, id) = (settings.tapZoomStep, settings.tapZoomDuration, settings.tapZoomCurve, Self.doubleTapID)
        case .twoFingerTap:
            (change, duration, curve, id) = (-settings.tapZoomStep, settings.tapZoomDuration, settings.tapZoomCurve, Self.twoFingerTapID)
        case .scroll:
            let limit = settings.scrollMaxZoomPerEvent
            change = min(max(-input.delta! * settings.scrollZoomRate, -limit), limit)
            (duration, curve, id) = (settings.scrollZoomDuration, settings.scrollZoomCurve, Self.scrollID)
        default:
            return .failure(Self.bad("\(input.label): not an instantaneous gesture"))
        }

        // Successive zooms accumulate onto the target of the client's zoom
        // animation still under way, not onto wherever it has got to.
        var base = manager.camera.zoom
        if let pending = pendingZoom[owner.client], manager.animationIDs(of: owner.client).contains(pending.id) {
            base = pending.zoom
        }
        let target = min(max(base + change, manager.limits.minZoom), manager.limits.maxZoom)

        // Beginning the gesture: cancels overlapping animations (reason
        // `gesture`) or is refused by a higher rank or another client's gesture.
        switch manager.beginInteraction(input.kind.rawValue, claims: input.kind.claims(), owner: owner, at: now) {
        case .failure(let error): return .failure(error)
        case .success(let handle): manager.endInteraction(handle, at: now)
        }
        let request = EaseRequest(update: CameraUpdate(zoom: target), duration: duration, curve: curve, around: point, viewport: viewport)
        switch Self.start(request, id: id, owner: owner, manager: &manager, at: now) {
        case .failure(let error): return .failure(error)
        case .success: pendingZoom[owner.client] = PendingZoom(id: id, zoom: target)
        }
        return .success(
            GestureOutcome(
                effect: .animation(id: id),
                event: GestureEvent(
                    client: owner.client, input: input, geo: ViewTransform(camera: manager.camera, viewport: viewport).ground(point), point: point)))
    }

    /// A long press: no camera action; its phases are checked as a sequence
    /// per client (`change`, `end`, `cancel` need a `begin`; no second
    /// `begin` while one is down) and reported with the point, or the last
    /// point when `end`/`cancel` has none.
    private mutating func longPress(
        _ input: GestureInput, client: GestureClient,
        manager: AnimatorManager
    ) -> Result<GestureOutcome, CommandError> {
        let id = client.owner.client
        var point = input.point
        switch input.phase {
        case nil:
            break
        case .begin?:
            if longPresses[id] != nil { return .failure(Self.bad("\(input.label) while this client's longPress is active")) }
            longPresses[id] = point
        case .change?:
            guard longPresses[id] != nil else { return .failure(Self.bad("\(input.label) without begin")) }
            longPresses[id] = point
        case .end?, .cancel?:
            guard let last = longPresses.removeValue(forKey: id) else { return .failure(Self.bad("\(input.label) without begin")) }
            point = point ?? last
        }
        let effect: GestureEffect = client.disabled.contains(.longPress) ? .disabled : .reported
        let geo = point.flatMap(ViewTransform(camera: manager.camera, viewport: client.viewport).ground)
        return .success(
            GestureOutcome(
                effect: effect,
                event: GestureEvent(
                    client: id, input: input, geo: geo, point: point,
                    disabled: effect == .disabled)))
    }
}
