import CameraCore

/// Commands: each advances time to `now` first, then either changes the
/// camera and the motions or returns an error and changes nothing.
extension AnimatorManager {
    /// Jumps at once (HERE `updateCamera`, TomTom `moveCamera`, MapLibre `jumpTo`).
    /// A set that changes nothing reports no change. Like a new high-level
    /// animation, it ends the running high-level animation as a whole
    /// (TomTom: "You can cancel an animation by moving the camera").
    ///
    /// With `viewport` (the sender's), an update that moves the anchor without
    /// naming a target also moves the target to the geo point under the new
    /// anchor, so nothing moves on screen (HERE CameraLite's target anchor).
    public mutating func set(_ update: CameraUpdate, owner: Owner, viewport: Viewport? = nil, at now: Double) -> Result<CommandAccepted, CommandError> {
        advance(to: now)
        do { try update.validate() } catch { return .failure(.bad(error)) }
        guard !update.isEmpty else { return .failure(CommandError(code: .badInput, message: "camera: names no field")) }
        let update = viewport.map { update.reanchoring(camera, in: $0) } ?? update
        if let (holder, contested) = blocker(for: update.properties, owner: owner) { return .failure(Self.conflict(holder, contested)) }
        if let holder = highLevelBlocker(for: owner) { return .failure(Self.highLevelConflict(holder, owner)) }
        endHighLevel(except: nil, by: owner, at: now)
        takeOver(update.properties, for: nil, by: owner, cancelReason: nil, at: now)
        let result = try! camera.applying(update, limits: limits)  // validated above
        commit(result.camera, by: owner.client, at: now)
        reportSteadyIfDue(at: now)
        return .success(CommandAccepted(id: nil, camera: camera, clamped: result.clamped))
    }

    /// A high-level eased animation (Mapbox `ease(to:)`): one high-level
    /// animation runs at a time, so when it starts it ends the running `ease`
    /// or `fly` as a whole (`superseded`, reason `highLevel`) even if they
    /// share no property; refused with `conflict` if that one's owner ranks
    /// higher. Low-level animators lose only the properties it claims.
    public mutating func ease(_ request: EaseRequest, id: String? = nil, owner: Owner, at now: Double) -> Result<CommandAccepted, CommandError> {
        if request.from != nil {
            advance(to: now)
            return .failure(CommandError(code: .badInput, message: "from: only animators (animate) take from values"))
        }
        return eased(request, highLevel: true, id: id, owner: owner, at: now)
    }

    /// A low-level per-property animator (Mapbox `makeAnimator`), optionally
    /// delayed, chained `after` another animation, and starting `from` given
    /// values. It takes only the properties it animates from other motions
    /// (one animator per property) and never ends a high-level animation as
    /// a whole; one that loses some of its properties keeps running on the rest.
    public mutating func animate(_ request: EaseRequest, id: String? = nil, owner: Owner, at now: Double) -> Result<CommandAccepted, CommandError> {
        eased(request, highLevel: false, id: id, owner: owner, at: now)
    }

    private mutating func eased(_ request: EaseRequest, highLevel: Bool, id: String?, owner: Owner, at now: Double) -> Result<CommandAccepted, CommandError> {
        advance(to: now)
        do throws(CameraInputError) {
            try request.update.validate()
            if let from = request.from { try EaseRequest.validate(from: from, to: request.update) }
            try Self.requireDuration(request.duration, "duration")
            try Self.requireDuration(request.delay, "delay")
            if let point = request.around {
                guard point.x.isFinite else { throw CameraInputError.notFinite(field: "around.x", value: point.x) }
                guard point.y.isFinite else { throw CameraInputError.notFinite(field: "around.y", value: point.y) }
                guard !request.update.properties.contains(.center) else {
                    throw CameraInputError(field: "around", message: "cannot be combined with lat/lon (the center follows the point)")
                }
            }
        } catch { return .failure(.bad(error)) }
        guard !request.update.isEmpty else { return .failure(CommandError(code: .badInput, message: "camera: names no field")) }
        var claims = request.update.properties
        var groups = claims.names.compactMap(CameraProperties.init(name:))
        if request.around == nil && request.update.movesAnchorOnly {
            // The target follows the anchor (see `plan`): they move together.
            claims.insert(.center)
            groups = [CameraProperties([.center, .anchor])] + claims.subtracting([.center, .anchor]).names.compactMap(CameraProperties.init(name:))
        }
        if request.around != nil {
            claims.insert(.center)
            groups = [claims.subtracting(.anchor)] + (claims.contains(.anchor) ? [.anchor] : [])
        }
        if highLevel { (claims, groups) = Self.mapEaseClaims(claims, groups: groups, request: request, camera: camera) }
        return enqueue(
            .ease(request), highLevel: highLevel, claims: claims, groups: groups, id: id, owner: owner,
            delay: request.delay, after: request.after, update: request.update, at: now)
    }

    /// What MapLibre's `easeTo` moves besides what the update names, claimed
    /// together: a new roll turns roll, tilt and bearing as one rotation (see
    /// `Orientation`); on the globe below zoom 12, a new centre without a zoom
    /// changes the zoom with the latitude (the globe keeps its apparent size).
    static func mapEaseClaims(
        _ claims: CameraProperties, groups: [CameraProperties], request: EaseRequest, camera: Camera
    ) -> (CameraProperties, [CameraProperties]) {
        var claims = claims
        var coupled: [CameraProperties] = []
        if request.update.roll != nil { coupled.append([.roll, .tilt, .bearing]) }
        if request.projection == .globe && GlobeView.isGlobe(zoom: camera.zoom) && request.around == nil
            && request.update.properties.contains(.center) && request.update.zoom == nil
        {
            coupled.append([.center, .zoom])
        }
        guard !coupled.isEmpty else { return (claims, groups) }
        for group in coupled { claims.formUnion(group) }
        var merged = coupled
        for group in groups where coupled.allSatisfy({ $0.isDisjoint(with: group) }) { merged.append(group) }
        // A group that overlaps a coupled one joins it.
        for group in groups where !coupled.allSatisfy({ $0.isDisjoint(with: group) }) {
            if let i = merged.firstIndex(where: { !$0.isDisjoint(with: group) }) { merged[i].formUnion(group) }
        }
        return (claims, merged)
    }

    /// A van Wijk & Nuij flight (MapLibre `flyTo`); center and zoom are claimed
    /// together. High-level, like `ease`: it ends the running high-level animation.
    public mutating func fly(_ request: FlyRequest, id: String? = nil, owner: Owner, at now: Double) -> Result<CommandAccepted, CommandError> {
        advance(to: now)
        do throws(CameraInputError) {
            try request.update.validate()
            if let duration = request.duration { try Self.requireDuration(duration, "duration") }
            try Self.requireDuration(request.delay, "delay")
            guard request.speed.isFinite, request.speed > 0 else {
                throw CameraInputError(field: "speed", message: "must be a finite number above 0 (got \(request.speed))")
            }
            guard request.rho.isFinite, request.rho > 0 else {
                throw CameraInputError(field: "curve", message: "must be a finite number above 0 (got \(request.rho))")
            }
            if let minZoom = request.minZoom, !minZoom.isFinite { throw CameraInputError.notFinite(field: "minZoom", value: minZoom) }
        } catch { return .failure(.bad(error)) }
        guard !request.update.isEmpty else { return .failure(CommandError(code: .badInput, message: "camera: names no field")) }
        let claims = request.update.properties.union([.center, .zoom])
        let groups = [CameraProperties([.center, .zoom])] + claims.subtracting([.center, .zoom]).names.compactMap(CameraProperties.init(name:))
        return enqueue(
            .fly(request), highLevel: true, claims: claims, groups: groups, id: id, owner: owner,
            delay: request.delay, after: request.after, update: request.update, at: now)
    }

    private static func requireDuration(_ value: Double, _ field: String) throws(CameraInputError) {
        guard value.isFinite else { throw .notFinite(field: field, value: value) }
        guard value >= 0 else { throw CameraInputError(field: field, message: "must not be negative (got \(value))") }
    }

    /// Registers an animation; starts it now unless it has a delay or a predecessor.
    private mutating func enqueue(
        _ kind: Motion.Kind, highLevel: Bool, claims: CameraProperties, groups: [CameraProperties], id: String?,
        owner: Owner, delay: Double, after: String?, update: CameraUpdate, at now: Double
    ) -> Result<CommandAccepted, CommandError> {
        if let id, motions.contains(where: { $0.isAnimation && $0.owner.client == owner.client && $0.id == id }) {
            return .failure(CommandError(code: .badInput, message: "id: '\(id)' is already in use by a live animation"))
        }
        var predecessor: Int?
        if let after {
            guard let found = motions.first(where: { $0.isAnimation && $0.owner.client == owner.client && $0.id == after }) else {
                return .failure(CommandError(code: .unknownAnimation, message: "after: no live animation '\(after)'"))
            }
            predecessor = found.serial
        }
        let immediate = delay == 0 && predecessor == nil
        if immediate, let (holder, contested) = blocker(for: claims, owner: owner) {
            return .failure(Self.conflict(holder, contested))
        }
        if immediate, highLevel, let holder = highLevelBlocker(for: owner) {
            return .failure(Self.highLevelConflict(holder, owner))
        }
        let serial = nextSerial
        nextSerial += 1
        let phase: Motion.Phase = predecessor.map { .waiting(predecessor: $0) } ?? .delayed(until: now + delay)
        motions.append(
            Motion(
                serial: serial, id: id ?? "#\(serial)", owner: owner, kind: kind, claims: claims, groups: groups, phase: phase,
                isHighLevel: highLevel))
        if immediate, let i = index(of: serial) { start(at: i, time: now) }
        reportSteadyIfDue(at: now)
        let preview = (try? camera.applying(update, limits: limits))?.clamped.intersection(update.properties) ?? []
        return .success(CommandAccepted(id: id ?? "#\(serial)", camera: camera, clamped: preview))
    }

    /// Cancels `owner`'s live animation `id` (status `cancelled`, reason `cancel`).
    public mutating func cancel(id: String, owner: Owner, at now: Double) -> Result<CommandAccepted, CommandError> {
        advance(to: now)
        guard let i = motions.firstIndex(where: { $0.isAnimation && $0.owner.client == owner.client && $0.id == id }) else {
            return .failure(CommandError(code: .unknownAnimation, message: "id: no live animation '\(id)'"))
        }
        end(at: i, status: .cancelled, by: owner.client, reason: "cancel", time: now)
        reportSteadyIfDue(at: now)
        return .success(CommandAccepted(id: id, camera: camera, clamped: []))
    }

    /// Cancels every live animation of `client` (or of everyone when nil),
    /// reporting `by` as the canceller (nil: the hub itself). Returns how many ended.
    @discardableResult
    public mutating func cancelAnimations(of client: String?, by: String?, reason: String = "cancel", at now: Double) -> Int {
        advance(to: now)
        var count = 0
        while let i = motions.firstIndex(where: { $0.isAnimation && (client == nil || $0.owner.client == client) }) {
            end(at: i, status: .cancelled, by: by, reason: reason, time: now)
            count += 1
        }
        reportSteadyIfDue(at: now)
        return count
    }

    /// `client`'s rank changed (a presenter demoted to driver when another
    /// takes over): its live motions compete at the new rank from now on.
    public mutating func setRank(_ rank: Rank, of client: String) {
        for i in motions.indices where motions[i].owner.client == client { motions[i].owner.rank = rank }
    }

    /// Ends everything `client` owns (animations `cancelled` with reason
    /// `ownerLeft`, its tracking, its gestures).
    public mutating func ownerLeft(_ client: String, at now: Double) {
        advance(to: now)
        while let i = motions.firstIndex(where: { $0.owner.client == client }) {
            end(at: i, status: .cancelled, by: client, reason: "ownerLeft", time: now)
        }
        reportSteadyIfDue(at: now)
    }

    /// Applies a limits change and re-clamps the camera; running animations
    /// are clamped from now on. Nothing changes on error.
    public mutating func setLimits(_ change: CameraLimits.Change, by client: String, at now: Double) -> Result<CameraLimits, CommandError> {
        advance(to: now)
        do throws(CameraInputError) { limits = try limits.applying(change) } catch { return .failure(.bad(error)) }
        commit(camera, by: client, at: now)
        reportSteadyIfDue(at: now)
        return .success(limits)
    }
}
