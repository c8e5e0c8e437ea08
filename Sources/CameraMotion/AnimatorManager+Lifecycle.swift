import CameraCore

/// Starting, superseding and ending motions: the per-property conflict rules.
extension AnimatorManager {
    func index(of serial: Int) -> Int? { motions.firstIndex { $0.serial == serial } }

    /// The started motion that keeps `owner` from claiming `claims`, and the
    /// contested properties: a higher rank's motion, or another client's
    /// active gesture of the same or higher rank.
    func blocker(for claims: CameraProperties, owner: Owner, excluding serial: Int? = nil) -> (Motion, CameraProperties)? {
        for motion in motions where motion.serial != serial && motion.isStarted {
            let contested = motion.held.intersection(claims)
            guard !contested.isEmpty else { continue }
            if motion.owner.rank > owner.rank { return (motion, contested) }
            if case .interaction = motion.phase, motion.owner.client != owner.client, motion.owner.rank >= owner.rank {
                return (motion, contested)
            }
        }
        return nil
    }

    /// The running high-level animation that `owner` may not end (its owner
    /// ranks higher): one high-level animation at a time, and a lower rank
    /// cannot end a higher rank's.
    func highLevelBlocker(for owner: Owner, excluding serial: Int? = nil) -> Motion? {
        motions.first { $0.serial != serial && $0.isHighLevel && $0.isStarted && $0.owner.rank > owner.rank }
    }

    static func highLevelConflict(_ holder: Motion, _ owner: Owner) -> CommandError {
        CommandError(
            code: .conflict,
            message: "animation '\(holder.id)' of \(holder.owner.client) (\(holder.owner.rank)) is running and a \(owner.rank) "
                + "cannot end it (one high-level animation at a time; animate can take the properties it does not hold)",
            property: holder.held, holder: holder.owner.client)
    }

    /// Ends every started high-level animation but `serial` as a whole
    /// (`superseded`, reason `highLevel`, `lost` = all its properties).
    mutating func endHighLevel(except serial: Int?, by owner: Owner, at t: Double) {
        let running = motions.filter { $0.serial != serial && $0.isHighLevel && $0.isStarted }.map(\.serial)
        for victim in running {
            guard let i = index(of: victim) else { continue }
            motions[i].lost = motions[i].claims
            motions[i].held = []
            end(at: i, status: .superseded, by: owner.client, reason: "highLevel", time: t)
        }
    }

    static func conflict(_ holder: Motion, _ contested: CameraProperties) -> CommandError {
        let what: String
        switch holder.kind {
        case .ease, .fly: what = "animation '\(holder.id)'"
        case .tracking: what = "tracking"
        case .interaction(let name): what = "\(name) gesture"
        }
        let names = contested.names.joined(separator: ", ")
        return CommandError(
            code: .conflict, message: "\(names) held by \(holder.owner.client) (\(holder.owner.rank)) \(what)",
            property: contested, holder: holder.owner.client)
    }

    /// Takes `claims` from every other started motion. Animations lose the
    /// coupled groups touched and keep running on the rest, reporting
    /// `interrupted` (with what they lost and the camera) at that moment,
    /// or end `superseded` when nothing is left; tracking and gestures end whole.
    /// With `cancelReason` (a gesture beginning), overlapped high-level
    /// animations end `cancelled`, and animators `cancelled` when nothing is left.
    mutating func takeOver(_ claims: CameraProperties, for serial: Int?, by owner: Owner, cancelReason: String?, at t: Double) {
        let affected = motions.filter { $0.serial != serial && $0.isStarted && !$0.held.isDisjoint(with: claims) }.map(\.serial)
        for victim in affected {
            guard let i = index(of: victim) else { continue }
            let motion = motions[i]
            let lost = motion.groupsTouching(claims).intersection(motion.held)
            motions[i].held.subtract(lost)
            motions[i].lost.formUnion(lost)
            let emptied = motions[i].held.isEmpty
            if !motion.isAnimation || (emptied && cancelReason == nil) {
                end(at: i, status: .superseded, by: owner.client, reason: nil, time: t)
            } else if let cancelReason, emptied || motion.isHighLevel {
                end(at: i, status: .cancelled, by: owner.client, reason: cancelReason, time: t)
            } else {
                events.append(.animation(report(motions[i], .interrupted, by: owner.client, reason: cancelReason, lost: lost, time: t)))
            }
        }
    }

    /// Starts the delayed or waiting motion at `index` at time `t`: claims its
    /// properties (or ends `cancelled` if a higher rank holds one), plans its
    /// path from the camera at `t`, reports `started`.
    mutating func start(at index: Int, time t: Double) {
        let motion = motions[index]
        if let (holder, _) = blocker(for: motion.claims, owner: motion.owner, excluding: motion.serial) {
            end(at: index, status: .cancelled, by: holder.owner.client, reason: "conflict", time: t)
            return
        }
        if motion.isHighLevel, let holder = highLevelBlocker(for: motion.owner, excluding: motion.serial) {
            end(at: index, status: .cancelled, by: holder.owner.client, reason: "conflict", time: t)
            return
        }
        if motion.isHighLevel { endHighLevel(except: motion.serial, by: motion.owner, at: t) }
        takeOver(motion.claims, for: motion.serial, by: motion.owner, cancelReason: nil, at: t)
        guard let i = self.index(of: motion.serial) else { return }
        if case .ease(let request) = motion.kind, let from = request.from,
            let jumped = try? camera.applying(from.reanchoring(camera, in: request.viewport), limits: limits)
        {  // validated when accepted
            commit(jumped.camera, by: motion.owner.client, at: t)
        }
        let (segment, clamped) = plan(motion, at: t)
        motions[i].held = motion.claims
        motions[i].clamped = clamped
        motions[i].phase = .running(segment)
        var started = report(motions[i], .started, by: nil, reason: nil, time: t)
        started.to = segment.plan.destination
        events.append(.animation(started))
        if segment.duration <= 0 {
            evaluate(at: t)
            if let j = self.index(of: motion.serial) { end(at: j, status: .finished, by: nil, reason: nil, time: t) }
        }
    }

    /// The path of an animation starting now from the current camera, and the
    /// target properties the limits clamped (targets are clamped before planning).
    func plan(_ motion: Motion, at t: Double) -> (Motion.Segment, CameraProperties) {
        switch motion.kind {
        case .ease(let request):
            // Validated when the command was accepted.
            let update = request.around == nil ? request.update.reanchoring(camera, in: request.viewport) : request.update
            let (to, clamped) = target(of: update, on: request.projection)
            var plan = easePlan(to: to, highLevel: motion.isHighLevel, on: request.projection)
            if let point = request.around,
                let geo = ViewTransform(camera: camera, viewport: request.viewport).viewToGeo(point)
            {
                var to = to
                to.target = camera.target
                let end = camera.keeping(point, fixedIn: request.viewport, whileChangingTo: to)
                to.target = end.clamped(to: limits).camera.target
                plan = .around(from: camera, to: to, geo: geo, point: point, viewport: request.viewport)
            }
            return (Motion.Segment(start: t, duration: request.duration, curve: request.curve, plan: plan), clamped)
        case .fly(let request):
            let (to, clamped) = target(of: request.update.reanchoring(camera, in: request.viewport), on: request.projection)
            let minZoom = request.minZoom.map { min(max($0, limits.minZoom), limits.maxZoom) }
            if let (plan, length) = flightPlan(to: to, request: request, minZoom: minZoom) {
                let duration = request.duration ?? length / request.speed
                return (Motion.Segment(start: t, duration: duration, curve: request.curve, plan: plan), clamped)
            }
            // Neither centre nor zoom changes: MapLibre eases instead (0.5 s by default).
            let plan = easePlan(to: to, highLevel: true, on: request.projection)
            return (Motion.Segment(start: t, duration: request.duration ?? 0.5, curve: request.curve, plan: plan), clamped)
        case .tracking, .interaction:
            return (Motion.Segment(start: t, duration: 0, curve: .linear, plan: .ease(from: camera, to: camera)), [])
        }
    }

    /// Whether an animation starting now moves over the globe (MapLibre's globe
    /// camera helper plans it): on the globe projection, below zoom 12.
    func startsOnGlobe(_ projection: MapProjection) -> Bool {
        projection == .globe && GlobeView.isGlobe(zoom: camera.zoom)
    }

    /// The camera `update` leads to, clamped, and the properties the limits
    /// adjusted. On the globe an update without a zoom keeps the globe's
    /// apparent size (MapLibre's easeTo and flyTo change the zoom with the latitude).
    func target(of update: CameraUpdate, on projection: MapProjection) -> (Camera, CameraProperties) {
        let target = (try? camera.applying(update, limits: limits)) ?? ClampedCamera(camera: camera, clamped: [])
        var to = target.camera
        if startsOnGlobe(projection) && update.zoom == nil && update.properties.contains(.center) {
            let kept = camera.zoom + GlobePaths.zoomAdjustment(fromLatitude: camera.latitude, toLatitude: to.latitude)
            to.zoom = min(max(kept, limits.minZoom), limits.maxZoom)
        }
        return (to, target.clamped.intersection(update.properties))
    }

    /// A plain ease to `to`: MapLibre's `easeTo` path for a high-level ease
    /// (roll, tilt and bearing turned together when the roll changes; the
    /// globe's path on the globe), each property on its own for an animator.
    func easePlan(to: Camera, highLevel: Bool, on projection: MapProjection) -> MotionPlan {
        guard highLevel else { return .ease(from: camera, to: to) }
        let slerp = shortestTurn(from: camera.roll, to: to.roll) != 0
        if startsOnGlobe(projection) { return .globeEase(GlobeEase(from: camera, to: to, slerp: slerp)) }
        return .ease(from: camera, to: to, slerp: slerp)
    }

    /// The flight to `to` and its length (MapLibre's S), or nil when neither centre nor zoom changes.
    func flightPlan(to: Camera, request: FlyRequest, minZoom: Double?) -> (MotionPlan, Double)? {
        if startsOnGlobe(request.projection) {
            guard let flight = GlobeFlight(from: camera, to: to, viewport: request.viewport, rho: request.rho, minZoom: minZoom)
            else { return nil }
            return (.globeFly(flight), flight.path.length)
        }
        let size = WebMercator.worldSize(zoom: camera.zoom)
        let dx = (WebMercator.unitX(longitude: to.continuousLongitude) - WebMercator.unitX(longitude: camera.continuousLongitude)) * size
        let dy = (WebMercator.unitY(latitude: to.latitude) - WebMercator.unitY(latitude: camera.latitude)) * size
        guard
            let path = FlightPath(
                startZoom: camera.zoom, endZoom: to.zoom, distance: (dx * dx + dy * dy).squareRoot(), viewport: request.viewport,
                rho: request.rho, minZoom: minZoom)
        else { return nil }
        return (.fly(path: path, from: camera, to: to), path.length)
    }

    func report(
        _ motion: Motion, _ status: AnimationStatus, by: String?, reason: String?, lost: CameraProperties? = nil,
        time: Double
    ) -> AnimationReport {
        AnimationReport(
            id: motion.id, owner: motion.owner, status: status, by: by, reason: reason,
            lost: lost ?? motion.lost, clamped: motion.clamped, camera: camera, time: time, essential: motion.essential)
    }

    /// Removes the motion at `index` and reports how it ended; then starts its
    /// waiting successors (if it finished) or cancels them (otherwise).
    mutating func end(at index: Int, status: AnimationStatus, by: String?, reason: String?, time t: Double) {
        let motion = motions.remove(at: index)
        switch motion.kind {
        case .ease, .fly:
            events.append(.animation(report(motion, status, by: by, reason: reason, time: t)))
        case .tracking:
            events.append(.trackingModeChanged(mode: .none, by: by ?? motion.owner.client, time: t))
        case .interaction:
            break  // the gesture engine sees it through `isInteractionActive`
        }
        let waiters = motions.filter { if case .waiting(let p) = $0.phase { p == motion.serial } else { false } }.map(\.serial)
        for waiter in waiters {
            guard let i = self.index(of: waiter) else { continue }
            if status == .finished {
                let delay = motions[i].startDelay
                if delay > 0 { motions[i].phase = .delayed(until: t + delay) } else { start(at: i, time: t) }
            } else {
                end(at: i, status: .cancelled, by: by, reason: "predecessorEnded", time: t)
            }
        }
    }
}

extension Motion {
    /// The request's start delay in seconds (0 for tracking and gestures).
    var startDelay: Double {
        switch kind {
        case .ease(let r): r.delay
        case .fly(let r): r.delay
        case .tracking, .interaction: 0
        }
    }
}
