import CameraCore

/// Owns one room's camera and everything that moves it (Mapbox's camera
/// animations manager, with per-property conflict resolution).
///
/// Pure and single-owner: no clock, no threads. Its owner passes the time
/// (seconds, any origin, non-decreasing) to every command and to `advance`,
/// which it may call at any rate: the camera at time t depends only on the
/// commands and their times, never on how many ticks happened, because every
/// motion is planned once from the camera at its exact start time and then
/// evaluated as a function of time; starts and ends between two ticks are
/// processed at their exact times.
public struct AnimatorManager: Sendable {
    public internal(set) var camera: Camera
    public internal(set) var limits: CameraLimits
    /// The time of the last `advance` or command.
    public internal(set) var time: Double
    /// Increases by one whenever the camera changes.
    public internal(set) var revision: UInt64 = 0
    /// The client that moved the camera last.
    public internal(set) var lastMovedBy: String?
    /// Seconds without movement before `steady` is reported (once per rest).
    public var steadyDelay: Double = 0.1
    /// When `significantChange` is reported.
    public var significance = SignificanceThresholds()

    var motions: [Motion] = []
    var nextSerial = 1
    var events: [MotionEvent] = []
    /// A change happened and `steady` has not been reported since.
    var restPending = false
    var lastChangeTime: Double
    var lastSignificant: Camera
    /// The latest fix of the location feed (kept when tracking stops).
    var lastLocation: TrackedLocation?
    /// The room's route (TomTom route tracking modes), nil when none.
    public internal(set) var route: Route?
    /// The viewport route overviews are fitted in (the tracking owner's).
    var trackingViewport = Viewport(width: 1280, height: 720)

    public init(camera: Camera = .world, limits: CameraLimits = CameraLimits(), time: Double = 0) {
        let start = camera.clamped(to: limits).camera
        self.camera = start
        self.limits = limits
        self.time = time
        self.lastChangeTime = time
        self.lastSignificant = start
    }

    /// True while an animation runs, a gesture is active or tracking follows a fix.
    public var isMoving: Bool {
        motions.contains { motion in
            switch motion.phase {
            case .running, .interaction: true
            case .tracking(_, let segment, _): segment.map { $0.end > time } ?? false
            case .delayed, .waiting: false
            }
        }
    }

    /// The current tracking mode (`none` when nothing tracks).
    public var trackingMode: TrackingMode {
        for motion in motions { if case .tracking(let mode, _, _) = motion.phase { return mode } }
        return .none
    }

    /// Ids of the live (delayed, waiting or running) animations of `client`.
    public func animationIDs(of client: String) -> [String] {
        motions.filter { $0.isAnimation && $0.owner.client == client }.map(\.id)
    }

    /// Events since the last call, oldest first.
    public mutating func takeEvents() -> [MotionEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// `takeEvents()` for an owner that has no use for `.changed` (its frames
    /// carry the camera): empty, with nothing allocated, when every event since
    /// the last call is a change, as on every tick of a plain flight.
    public mutating func takeEventsBesidesChanges() -> [MotionEvent] {
        guard events.contains(where: { if case .changed = $0 { false } else { true } }) else {
            events.removeAll(keepingCapacity: true)
            return []
        }
        return takeEvents()
    }

    /// Moves time forward to `now`: starts and finishes motions at their exact
    /// times on the way, then evaluates the camera at `now`. Earlier times are ignored.
    public mutating func advance(to now: Double) {
        guard now > time else { return }
        while let (breakpoint, isEnd) = nextBreakpoint(before: now) {
            evaluate(at: breakpoint)
            if isEnd { finishEnded(at: breakpoint) } else { startDelayed(at: breakpoint) }
        }
        evaluate(at: now)
        reportSteadyIfDue(at: now)
    }

    /// The earliest end of a running motion or start of a delayed one at or
    /// before `limit`; ends win ties so that chains start from final values.
    private func nextBreakpoint(before limit: Double) -> (Double, isEnd: Bool)? {
        var best: (Double, Bool)?
        for motion in motions {
            let candidate: (Double, Bool)
            switch motion.phase {
            case .running(let segment): candidate = (segment.end, true)
            case .delayed(let until): candidate = (until, false)
            default: continue
            }
            guard candidate.0 <= limit else { continue }
            if let b = best, b.0 < candidate.0 || (b.0 == candidate.0 && b.1) { continue }
            best = candidate
        }
        return best
    }

    private mutating func finishEnded(at t: Double) {
        while let index = motions.firstIndex(where: { if case .running(let s) = $0.phase { s.end <= t } else { false } }) {
            end(at: index, status: .finished, by: nil, reason: nil, time: t)
        }
    }

    private mutating func startDelayed(at t: Double) {
        while let index = motions.firstIndex(where: { if case .delayed(let until) = $0.phase { until <= t } else { false } }) {
            start(at: index, time: t)
        }
    }

    /// Writes every started motion's held properties at `t`, clamps, and
    /// records a change if the camera moved.
    mutating func evaluate(at t: Double) {
        time = max(time, t)
        var next = camera
        let writer = writePlanned(at: t, into: &next)
        commit(next, by: writer, at: t)
    }

    /// Writes what the running animations and tracking glides hold at `t`
    /// into `camera`; returns the client of the last one that wrote (nil: none).
    func writePlanned(at t: Double, into camera: inout Camera) -> String? {
        var writer: String?
        for motion in motions where !motion.held.isEmpty {
            switch motion.phase {
            case .running(let segment), .tracking(_, let segment?, _):
                segment.plan.write(motion.held, progress: segment.progress(at: t), into: &camera)
                writer = motion.owner.client
            default: continue
            }
        }
        return writer
    }

    /// Makes `next` (clamped to the limits) the camera; reports a change if it differs.
    mutating func commit(_ next: Camera, by writer: String?, at t: Double) {
        let clamped = next.clamped(to: limits).camera
        guard clamped != camera else { return }
        camera = clamped
        revision &+= 1
        if let writer { lastMovedBy = writer }
        restPending = true
        lastChangeTime = t
        events.append(.changed(camera: camera, by: lastMovedBy, time: t))
        if significance.isSignificant(from: lastSignificant, to: camera) {
            lastSignificant = camera
            events.append(.significantChange(camera: camera, time: t))
        }
    }

    mutating func reportSteadyIfDue(at now: Double) {
        guard restPending, !isMoving, now - lastChangeTime >= steadyDelay else { return }
        restPending = false
        events.append(.steady(camera: camera, time: max(lastChangeTime + steadyDelay, lastChangeTime)))
    }
}

/// Thresholds for `significantChange` (defaults: a quarter of the reference
/// viewport's smaller side in position, 0.5 zoom, 10° of bearing, tilt or roll,
/// 10° of field of view).
public struct SignificanceThresholds: Hashable, Sendable {
    public var referenceViewport = Viewport(width: 1280, height: 720)
    /// Fraction of the reference viewport's smaller side the target must move.
    public var positionFraction = 0.25
    public var zoom = 0.5
    public var bearing = 10.0
    public var tilt = 10.0
    public var roll = 10.0
    public var fov = 10.0
    public init() {}

    func isSignificant(from a: Camera, to b: Camera) -> Bool {
        if abs(b.zoom - a.zoom) >= zoom { return true }
        if abs(shortestTurn(from: a.bearing, to: b.bearing)) >= bearing { return true }
        if abs(b.tilt - a.tilt) >= tilt { return true }
        if abs(shortestTurn(from: a.roll, to: b.roll)) >= roll { return true }
        if abs(b.fov - a.fov) >= fov { return true }
        let size = WebMercator.worldSize(zoom: b.zoom)
        let dx =
            (WebMercator.unitX(longitude: nearestLongitude(b.continuousLongitude, to: a.continuousLongitude))
                - WebMercator.unitX(longitude: a.continuousLongitude)) * size
        let dy = (WebMercator.unitY(latitude: b.latitude) - WebMercator.unitY(latitude: a.latitude)) * size
        let limit = positionFraction * min(referenceViewport.width, referenceViewport.height)
        return dx * dx + dy * dy >= limit * limit
    }
}
