import CameraCore

/// A position fix from a location feed (degrees; heading clockwise from north).
public struct TrackedLocation: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var heading: Double?
    public init(latitude: Double, longitude: Double, heading: Double? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.heading = heading
    }

    func validate() throws(CameraInputError) {
        guard latitude.isFinite else { throw .notFinite(field: "location.lat", value: latitude) }
        guard abs(latitude) <= 90 else { throw CameraInputError(field: "location.lat", message: "must be within -90…90 degrees (got \(latitude))") }
        guard longitude.isFinite else { throw .notFinite(field: "location.lon", value: longitude) }
        if let heading, !heading.isFinite { throw .notFinite(field: "location.heading", value: heading) }
    }
}

/// TomTom-style tracking: the camera follows a location feed smoothly. Each
/// fix starts a linear glide from where the camera is to the fix, lasting as
/// long as the gap since the previous fix (0.1…2 s; 1 s for the first), so a
/// feed at any rate gives continuous motion without jumps.
extension AnimatorManager {
    /// How long a glide to a new fix lasts when there was no previous fix.
    static let firstFixGlide = 1.0
    static let glideRange: ClosedRange<Double> = 0.1...2.0

    /// Sets the tracking mode and/or feeds a location. The same mode again
    /// with a location is a plain location update (no mode event).
    public mutating func track(_ mode: TrackingMode, location: TrackedLocation?, owner: Owner, at now: Double) -> Result<CommandAccepted, CommandError> {
        advance(to: now)
        if let location {
            do throws(CameraInputError) { try location.validate() } catch { return .failure(.bad(error)) }
        }
        let current = motions.firstIndex { if case .tracking = $0.phase { true } else { false } }
        if let current, motions[current].owner.rank > owner.rank {
            return .failure(Self.conflict(motions[current], motions[current].held))
        }
        if mode == .none {
            if let current { end(at: current, status: .cancelled, by: owner.client, reason: "tracking", time: now) }
            reportSteadyIfDue(at: now)
            return .success(CommandAccepted(id: nil, camera: camera, clamped: []))
        }
        if let current, case .tracking(let currentMode, _, _) = motions[current].phase, currentMode == mode {
            if let location { glide(trackingAt: current, to: location, at: now) }
            return .success(CommandAccepted(id: nil, camera: camera, clamped: []))
        }
        let claims: CameraProperties = mode == .followNorthUp ? [.center, .bearing] : [.center, .bearing, .tilt]
        if let (holder, contested) = blocker(for: claims, owner: owner) { return .failure(Self.conflict(holder, contested)) }
        if let current { motions.remove(at: current) }  // replaced: the mode event below says so
        takeOver(claims, for: nil, by: owner, cancelReason: nil, at: now)
        let serial = nextSerial
        nextSerial += 1
        var motion = Motion(serial: serial, id: "#\(serial)", owner: owner, kind: .tracking, claims: claims, groups: [claims],
                            phase: .tracking(mode: mode, segment: nil, lastFix: nil))
        motion.held = claims
        motions.append(motion)
        events.append(.trackingModeChanged(mode: mode, by: owner.client, time: now))
        if let fix = location ?? lastLocation, let i = index(of: serial) { glide(trackingAt: i, to: fix, at: now) }
        return .success(CommandAccepted(id: nil, camera: camera, clamped: []))
    }

    private mutating func glide(trackingAt index: Int, to fix: TrackedLocation, at now: Double) {
        lastLocation = fix
        guard case .tracking(let mode, _, let lastFix) = motions[index].phase else { return }
        var target = camera
        target.latitude = fix.latitude
        target.continuousLongitude = nearestLongitude(fix.longitude, to: camera.continuousLongitude)
        switch mode {
        case .followNorthUp: target.bearing = 0
        case .followDirection:
            target.bearing = normalizeBearing(fix.heading ?? camera.bearing)
            target.tilt = 0
        case .none: break
        }
        target = target.clamped(to: limits).camera
        let duration = lastFix.map { min(max(now - $0, Self.glideRange.lowerBound), Self.glideRange.upperBound) } ?? Self.firstFixGlide
        let segment = Motion.Segment(start: now, duration: duration, curve: .linear, plan: .ease(from: camera, to: target))
        motions[index].phase = .tracking(mode: mode, segment: segment, lastFix: now)
    }
}
