import CameraCore
import Foundation

/// Turns one room's client gestures into camera motion on its
/// `AnimatorManager`. A value kept next to the manager; pure: time is passed
/// in, nothing is read from a clock.
///
/// - Continuous gestures (pan, pinch, tilt, rotate) hold what they move as a
///   manager *interaction* from `begin` to `end`/`cancel`, so the manager's
///   conflict rules apply: beginning cancels overlapping animations (reason
///   `gesture`) unless a higher rank holds one of the properties (then the
///   begin is refused with `conflict` and nothing changes); while active,
///   another client of the same rank cannot take those properties; a higher
///   rank can, after which the gesture's changes and end get `conflict` and the
///   client must begin again.
/// - Each change is computed from the camera at `begin` and the cumulative
///   input, so the result does not depend on how often the client samples.
/// - Pan momentum, double/two-finger tap and scroll zooms are ordinary eased
///   animations owned by the client (ids `momentum`, `doubleTap`,
///   `twoFingerTap`, `scroll`): tick-rate independent, and subject to the
///   same conflicts (a new touch claiming the center cancels momentum).
public struct GestureEngine: Sendable {
    /// Reserved animation ids (per client).
    public static let momentumID = "momentum"
    public static let doubleTapID = "doubleTap"
    public static let twoFingerTapID = "twoFingerTap"
    public static let scrollID = "scroll"

    public var settings: GestureSettings

    struct Key: Hashable, Sendable {
        var client: String
        var kind: GestureKind
    }

    /// A continuous gesture between `begin` and `end`/`cancel`.
    struct Active: Sendable {
        let kind: GestureKind
        /// The manager interaction; nil while the gesture is only reported (disabled).
        var handle: Int?
        let claims: CameraProperties
        let startCamera: Camera
        /// The geo point under the finger / focal point / pivot at `begin`
        /// (nil while that point was above the horizon: taken at the first
        /// change that has ground under it).
        var grabbed: GeoCoordinate?
        /// rotate: the fixed point it turns around.
        var pivot: ViewPoint?
        /// False when `begin` came without `t`: then the hub's clock times the
        /// whole gesture (a later `t` is on another clock and is ignored).
        let usesClientClock: Bool
        let beginClientTime: Double
        let beginHubTime: Double
        var lastClientTime: Double
        var track = PointerTrack()
        /// pinch: ± the threshold once the fingers turned past it.
        var rotationOffset: Double?

        /// Client time of `input` in ms: its `t`, or the begin's client time
        /// plus the hub time elapsed since begin.
        func clientTime(of input: GestureInput, at now: Double) -> Double {
            let estimate = beginClientTime + (now - beginHubTime) * 1000
            return usesClientClock ? input.t ?? estimate : estimate
        }
    }

    /// A client's last tap or scroll zoom: its animation and target zoom.
    struct PendingZoom: Sendable {
        var id: String
        var zoom: Double
    }

    var active: [Key: Active] = [:]
    var pendingZoom: [String: PendingZoom] = [:]
    /// Clients whose long press is down, with its last point.
    var longPresses: [String: ViewPoint] = [:]

    public init(settings: GestureSettings = GestureSettings()) {
        self.settings = settings
    }

    /// True when no gesture, pending zoom or long press is under way: the
    /// engine then equals a fresh one with the same settings.
    public var isAtRest: Bool { active.isEmpty && pendingZoom.isEmpty && longPresses.isEmpty }

    /// The continuous gestures `client` has begun and not ended (including
    /// ones taken over by a higher rank, until the client ends or re-begins them).
    public func activeGestures(of client: String) -> [GestureKind] {
        GestureKind.allCases.filter { active[Key(client: client, kind: $0)] != nil }
    }

    /// Applies one gesture input from `client` at hub time `now` (seconds).
    /// On failure nothing changed (except that the manager advanced to `now`).
    public mutating func handle(
        _ input: GestureInput, client: GestureClient, manager: inout AnimatorManager,
        at now: Double
    ) -> Result<GestureOutcome, CommandError> {
        manager.advance(to: now)
        do throws(CommandError) {
            try input.validate()
            do { _ = try Viewport.validated(width: client.viewport.width, height: client.viewport.height) } catch {
                throw CommandError(code: .badInput, message: "viewport: \(error)")
            }
        } catch { return .failure(error) }
        let result =
            input.kind.isContinuous
            ? continuous(input, client: client, manager: &manager, at: now)
            : instantaneous(input, client: client, manager: &manager, at: now)
        // Listeners hear every accepted gesture (HERE: "setting a listener
        // does not affect the default map behaviour"), in the camera it left.
        guard case .success(var outcome) = result, outcome.event == nil else { return result }
        let geo = input.point.flatMap(ViewTransform(camera: manager.camera, viewport: client.viewport).ground)
        outcome.event = GestureEvent(client: client.owner.client, input: input, geo: geo)
        return .success(outcome)
    }

    /// Ends every gesture of `client` (no momentum) and forgets its state. Its
    /// animations (momentum, zooms) are the manager's: `ownerLeft` ends them.
    public mutating func clientLeft(_ client: String, manager: inout AnimatorManager, at now: Double) {
        for kind in GestureKind.allCases {
            guard let gesture = active.removeValue(forKey: Key(client: client, kind: kind)) else { continue }
            if let handle = gesture.handle { manager.endInteraction(handle, at: now) }
        }
        pendingZoom[client] = nil
        longPresses[client] = nil
    }

    // MARK: - Helpers

    static func bad(_ message: String) -> CommandError { CommandError(code: .badInput, message: message) }

    func reported(_ input: GestureInput, client: GestureClient, manager: AnimatorManager, effect: GestureEffect) -> GestureOutcome {
        let geo = input.point.flatMap(ViewTransform(camera: manager.camera, viewport: client.viewport).ground)
        return GestureOutcome(
            effect: effect,
            event: GestureEvent(
                client: client.owner.client, input: input, geo: geo,
                disabled: effect == .disabled))
    }

    /// The error for a change or end of a gesture a newer claim took over.
    func takenOver(_ gesture: Active, _ input: GestureInput, manager: AnimatorManager) -> CommandError {
        let holder = manager.motions.first { $0.isStarted && !$0.held.isDisjoint(with: gesture.claims) }
        let who = holder?.owner.client ?? manager.lastMovedBy
        let by = who.map { " by \($0)" } ?? ""
        return CommandError(
            code: .conflict, message: "\(input.label): the \(gesture.kind.rawValue) gesture was taken over\(by); begin again",
            property: holder.map { $0.held.intersection(gesture.claims) } ?? gesture.claims, holder: who)
    }

    /// Starts `request` as the client's animation `id`, first cancelling a
    /// live animation of the client that already uses the id.
    static func start(
        _ request: EaseRequest, id: String, owner: Owner, manager: inout AnimatorManager,
        at now: Double
    ) -> Result<CommandAccepted, CommandError> {
        if manager.animationIDs(of: owner.client).contains(id) { _ = manager.cancel(id: id, owner: owner, at: now) }
        return manager.animate(request, id: id, owner: owner, at: now)
    }
}

// MARK: - Continuous gestures

extension GestureEngine {
    mutating func continuous(
        _ input: GestureInput, client: GestureClient, manager: inout AnimatorManager,
        at now: Double
    ) -> Result<GestureOutcome, CommandError> {
        let key = Key(client: client.owner.client, kind: input.kind)
        let disabled = client.disabled.contains(input.kind)
        let phase = input.phase!  // validated

        if phase == .begin {
            if let existing = active[key], existing.handle.map(manager.isInteractionActive) ?? true {
                return .failure(Self.bad("\(input.label) while this client's \(input.kind.rawValue) is active"))
            }
            let pivot = input.kind == .rotate ? input.point : nil
            let claims = input.kind.claims(aroundPoint: pivot != nil)
            let clientTime = input.t ?? now * 1000
            var gesture = Active(
                kind: input.kind, handle: nil, claims: claims, startCamera: manager.camera, grabbed: nil, pivot: pivot,
                usesClientClock: input.t != nil, beginClientTime: clientTime, beginHubTime: now, lastClientTime: clientTime)
            if disabled {
                active[key] = gesture
                return .success(reported(input, client: client, manager: manager, effect: .disabled))
            }
            switch manager.beginInteraction(input.kind.rawValue, claims: claims, owner: client.owner, at: now) {
            case .failure(let error): return .failure(error)
            case .success(let handle): gesture.handle = handle
            }
            let transform = ViewTransform(camera: manager.camera, viewport: client.viewport)
            gesture.grabbed = (pivot ?? input.point).flatMap(transform.ground)
            if input.kind == .pan, let p = input.point {
                gesture.track.add(t: clientTime, x: p.x, y: p.y, keep: settings.velocityWindow * 1000)
            }
            active[key] = gesture
            return .success(GestureOutcome(effect: .following, event: nil))
        }

        guard var gesture = active[key] else {
            return .failure(Self.bad("\(input.label) without begin"))
        }
        let clientTime = gesture.clientTime(of: input, at: now)
        guard clientTime >= gesture.lastClientTime else {
            return .failure(Self.bad("\(input.label): t must not decrease within a gesture (got \(clientTime) after \(gesture.lastClientTime))"))
        }
        let ending = phase == .end || phase == .cancel

        guard let handle = gesture.handle else {  // only reported
            gesture.lastClientTime = clientTime
            active[key] = ending ? nil : gesture
            return .success(reported(input, client: client, manager: manager, effect: .disabled))
        }
        if disabled {  // disabled mid-gesture: release what it holds, report from now on
            manager.endInteraction(handle, at: now)
            gesture.handle = nil
            gesture.lastClientTime = clientTime
            active[key] = ending ? nil : gesture
            return .success(reported(input, client: client, manager: manager, effect: .disabled))
        }
        guard manager.isInteractionActive(handle) else {
            if ending { active[key] = nil }
            if phase == .cancel { return .success(GestureOutcome(effect: .ended(momentum: nil), event: nil)) }
            return .failure(takenOver(gesture, input, manager: manager))
        }

        gesture.lastClientTime = clientTime
        if phase == .change || (phase == .end && input.hasChangeFields) {
            apply(input, to: &gesture, handle: handle, clientTime: clientTime, viewport: client.viewport, manager: &manager, at: now)
        }
        if !ending {
            active[key] = gesture
            return .success(GestureOutcome(effect: .following, event: nil))
        }
        active[key] = nil
        manager.endInteraction(handle, at: now)
        var momentum: String?
        if phase == .end && gesture.kind == .pan {
            momentum = startMomentum(gesture, endTime: clientTime, client: client, manager: &manager, at: now)
        }
        return .success(GestureOutcome(effect: .ended(momentum: momentum), event: nil))
    }

    /// Moves the camera for one change: every value from the camera at begin
    /// and the cumulative input, the grabbed point placed under the finger.
    private func apply(
        _ input: GestureInput, to gesture: inout Active, handle: Int, clientTime: Double, viewport: Viewport,
        manager: inout AnimatorManager, at now: Double
    ) {
        let current = manager.camera
        var next = current
        var place: ViewPoint?
        switch gesture.kind {
        case .pan:
            let p = input.point!
            gesture.track.add(t: clientTime, x: p.x, y: p.y, keep: settings.velocityWindow * 1000)
            place = p
        case .pinch:
            let rotation = input.rotation ?? 0
            let threshold = settings.pinchRotationThreshold
            if gesture.rotationOffset == nil, abs(rotation) >= threshold {
                gesture.rotationOffset = rotation > 0 ? threshold : -threshold
            }
            next.zoom = gesture.startCamera.zoom + log2(input.scale!)
            if let offset = gesture.rotationOffset {
                next.bearing = gesture.startCamera.bearing - (rotation - offset)
            }
            place = input.point!
        case .tilt:
            next.tilt = gesture.startCamera.tilt - settings.tiltDegreesPerPixel * input.dy!
        case .rotate:
            next.bearing = gesture.startCamera.bearing + input.rotation!
            place = gesture.pivot
        default:
            return
        }
        // Place the grabbed point with the zoom/bearing/tilt the limits will allow.
        next = next.clamped(to: manager.limits).camera
        if let point = place {
            if gesture.grabbed == nil {
                gesture.grabbed = ViewTransform(camera: current, viewport: viewport).ground(point)
            }
            if let geo = gesture.grabbed, let placed = ViewTransform(camera: next, viewport: viewport).camera(placing: geo, at: point),
                placed.latitude.isFinite, placed.continuousLongitude.isFinite
            {  // (absurdly far points overflow)
                next = placed
            }
        }
        manager.moveInteraction(handle, to: next, at: now)
    }

    /// Starts the pan's momentum after its end; returns the animation id, or
    /// nil when the finger was not moving at release (or nothing could start).
    private func startMomentum(
        _ gesture: Active, endTime: Double, client: GestureClient,
        manager: inout AnimatorManager, at now: Double
    ) -> String? {
        guard let lastMove = gesture.track.lastMoveTime, endTime - lastMove < settings.momentumMaxPause * 1000,
            let velocity = gesture.track.velocity(window: settings.velocityWindow * 1000),
            var momentum = PanMomentum(velocity: velocity, settings: settings),
            let from = gesture.track.last
        else { return nil }
        let camera = manager.camera
        let transform = ViewTransform(camera: camera, viewport: client.viewport)
        guard let geo = transform.ground(from) else { return nil }

        // Tilted: the grabbed point must stay below the horizon (in the level picture, when rolled).
        let levelFrom = transform.unrolled(from)
        let levelDy = transform.unrolled(ViewPoint(x: from.x + momentum.dx, y: from.y + momentum.dy)).y - levelFrom.y
        if levelDy < 0, let horizon = transform.horizonY {
            let limit = transform.principalY - (transform.principalY - horizon) * settings.momentumHorizonFraction
            if levelFrom.y + levelDy < limit { momentum.scale(by: max(0, (levelFrom.y - limit) / -levelDy)) }
        }
        // Less than `momentumMaxWorldFraction` of the world, so the centre eases the way it was thrown.
        let maxTravel = settings.momentumMaxWorldFraction * WebMercator.worldSize(zoom: camera.zoom)
        var destination: Camera?
        for _ in 0..<12 {
            guard momentum.distance >= 0.5 else { return nil }
            let to = ViewPoint(x: from.x + momentum.dx, y: from.y + momentum.dy)
            guard let placed = transform.camera(placing: geo, at: to), placed.latitude.isFinite, placed.continuousLongitude.isFinite
            else { return nil }
            let travel = Self.worldDistance(from: camera, to: placed)
            if travel <= maxTravel {
                destination = placed
                break
            }
            momentum.scale(by: maxTravel / travel * 0.999)
        }
        guard let destination else { return nil }
        let request = EaseRequest(
            update: CameraUpdate(latitude: destination.latitude, longitude: destination.continuousLongitude),
            duration: momentum.duration, curve: settings.momentumCurve, viewport: client.viewport)
        guard case .success = Self.start(request, id: Self.momentumID, owner: client.owner, manager: &manager, at: now) else { return nil }
        return Self.momentumID
    }

    /// Distance between two targets in world px at `a`'s zoom (longitudes continuous).
    static func worldDistance(from a: Camera, to b: Camera) -> Double {
        let size = WebMercator.worldSize(zoom: a.zoom)
        let dx = (WebMercator.unitX(longitude: b.continuousLongitude) - WebMercator.unitX(longitude: a.continuousLongitude)) * size
        let dy = (WebMercator.unitY(latitude: b.latitude) - WebMercator.unitY(latitude: a.latitude)) * size
        return hypot(dx, dy)
    }
}

extension ViewTransform {
    /// The geo point under `point`, or nil at or above the horizon (or when
    /// an absurdly distant point overflows).
    func ground(_ point: ViewPoint) -> GeoCoordinate? {
        guard let geo = viewToGeo(point), geo.latitude.isFinite, geo.longitude.isFinite else { return nil }
        return geo
    }
}
