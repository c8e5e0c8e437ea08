import CameraCore
import Foundation

/// A position fix from a location feed (degrees; heading clockwise from north).
public struct TrackedLocation: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var heading: Double?
    public init(latitude: Double, longitude: Double, heading: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.heading = heading
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
    /// A fix this close to the route (metres) is matched onto it; farther, it is off the route.
    public static let routeSnapDistance = 50.0
    /// followRouteDirection looks this far ahead along the route for its bearing (metres).
    public static let routeLookAhead = 100.0
    public static let routeDirectionTilt = 45.0
    /// followRouteDirection's zoom shows this many metres in half of a 720 px high view.
    public static let routeDirectionStretch = 400.0
    /// routeOverview zooms in no further than this (the end of a route is a point).
    public static let routeOverviewMaxZoom = 18.0

    /// Bearing of the route `routeLookAhead` metres ahead of `along` (at the end, of its last stretch).
    static func routeBearing(_ route: Route, at along: Double) -> Double {
        let ahead = min(along + routeLookAhead, route.length)
        let from = ahead - along < 1 ? max(0, route.length - routeLookAhead) : along
        return Route.bearing(from: route.point(along: from), to: route.point(along: ahead))
    }

    /// The zoom at which `metres` span 360 px at `latitude` (Web Mercator, 512 px tiles).
    static func zoom(showing metres: Double, atLatitude latitude: Double) -> Double {
        let circumference: Double = cos(latitude * .pi / 180) * 2 * .pi * Route.earthRadius
        return log2(circumference * 360 / (WebMercator.tileSize * metres))
    }

    /// The box around points whose longitudes are continuous.
    static func bounds(of points: [GeoCoordinate]) -> GeoBounds? {
        guard let first = points.first else { return nil }
        var south = first.latitude
        var north = first.latitude
        var west = first.longitude
        var east = first.longitude
        for p in points {
            let lon = nearestLongitude(p.longitude, to: first.longitude)
            south = min(south, p.latitude)
            north = max(north, p.latitude)
            west = min(west, lon)
            east = max(east, lon)
        }
        guard east - west < 360 else { return nil }
        return try? GeoBounds.validated(
            south: max(south, -WebMercator.maxLatitude), west: wrapLongitude(west),
            north: min(north, WebMercator.maxLatitude), east: wrapLongitude(east))
    }

    /// Sets, extends (`append`) or clears (no points, no append) the room's
    /// route. A route tracking mode in use re-aims at the last fix at once.
    public mutating func setRoute(_ points: [GeoCoordinate], append: Bool, at now: Double) -> Result<Route?, CommandError> {
        advance(to: now)
        do throws(CameraInputError) {
            if append {
                guard var extended = route else { throw CameraInputError(field: "append", message: "there is no route to append to") }
                try extended.append(points)
                route = extended
            } else {
                route = points.isEmpty ? nil : try Route(points)
            }
        } catch { return .failure(.bad(error)) }
        if let i = motions.firstIndex(where: { if case .tracking(let mode, _, _) = $0.phase { mode.followsRoute } else { false } }),
            let fix = lastLocation
        {
            glide(trackingAt: i, to: fix, at: now)
        }
        return .success(route)
    }

    /// How long a glide to a new fix lasts when there was no previous fix.
    static let firstFixGlide = 1.0
    static let glideRange: ClosedRange<Double> = 0.1...2.0

    /// Sets the tracking mode and/or feeds a location. The same mode again
    /// with a location is a plain location update (no mode event).
    ///
    /// `viewport` (the sender's) is where `routeOverview` fits the route.
    public mutating func track(
        _ mode: TrackingMode, location: TrackedLocation?, owner: Owner, viewport: Viewport? = nil,
        at now: Double
    ) -> Result<CommandAccepted, CommandError> {
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
            if let viewport { trackingViewport = viewport }
            if let location { glide(trackingAt: current, to: location, at: now) }
            return .success(CommandAccepted(id: nil, camera: camera, clamped: []))
        }
        if let viewport { trackingViewport = viewport }
        let claims: CameraProperties
        switch mode {
        case .followNorthUp: claims = [.center, .bearing]
        case .followDirection, .followRouteNorthUp: claims = [.center, .bearing, .tilt]
        case .followRouteDirection, .routeOverview, .none: claims = [.center, .zoom, .bearing, .tilt]
        }
        if let (holder, contested) = blocker(for: claims, owner: owner) { return .failure(Self.conflict(holder, contested)) }
        if let current { motions.remove(at: current) }  // replaced: the mode event below says so
        takeOver(claims, for: nil, by: owner, cancelReason: nil, at: now)
        let serial = nextSerial
        nextSerial += 1
        var motion = Motion(
            serial: serial, id: "#\(serial)", owner: owner, kind: .tracking, claims: claims, groups: [claims],
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
        let location = GeoCoordinate(latitude: fix.latitude, longitude: fix.longitude)
        // Map matching: a fix near the route is drawn on it.
        let match = mode.followsRoute ? route.map { $0.match(location) }.flatMap { $0.offset <= Self.routeSnapDistance ? $0 : nil } : nil
        let shown = match?.point ?? location
        target.latitude = shown.latitude
        target.continuousLongitude = nearestLongitude(shown.longitude, to: camera.continuousLongitude)
        switch mode {
        case .followNorthUp: target.bearing = 0
        case .followDirection:
            target.bearing = normalizeBearing(fix.heading ?? camera.bearing)
            target.tilt = 0
        case .followRouteDirection:
            if let route, let match {
                target.bearing = Self.routeBearing(route, at: match.along)
            } else {
                target.bearing = normalizeBearing(fix.heading ?? camera.bearing)
            }
            target.tilt = Self.routeDirectionTilt
            target.zoom = Self.zoom(showing: Self.routeDirectionStretch, atLatitude: shown.latitude)
        case .followRouteNorthUp:
            target.bearing = 0
            target.tilt = 0
        case .routeOverview:
            target.bearing = 0
            target.tilt = 0
            if let route, let bounds = Self.bounds(of: route.remaining(from: match?.along ?? 0) + [location]),
                let fitted = try? target.fitting(bounds, padding: EdgeInsets(), viewport: trackingViewport)
            {
                target = fitted
                target.zoom = min(target.zoom, Self.routeOverviewMaxZoom)
            }
        case .none: break
        }
        target = target.clamped(to: limits).camera
        let duration = lastFix.map { min(max(now - $0, Self.glideRange.lowerBound), Self.glideRange.upperBound) } ?? Self.firstFixGlide
        let segment = Motion.Segment(start: now, duration: duration, curve: .linear, plan: .ease(from: camera, to: target))
        motions[index].phase = .tracking(mode: mode, segment: segment, lastFix: now)
    }
}

extension AnimatorManager {
    /// Who runs the tracking mode (nil when nothing tracks).
    public var trackingOwner: Owner? {
        motions.first { if case .tracking = $0.phase { true } else { false } }?.owner
    }

    /// Takes over a tracking mode that ran elsewhere (a cluster's failover: the
    /// new owner of a room goes on with the mode its old owner ran): as `track`,
    /// but without a `trackingModeChanged` event, since the room's mode did not
    /// change for anyone. Gliding to `location` starts from the current camera.
    public mutating func resumeTracking(
        _ mode: TrackingMode, location: TrackedLocation?, owner: Owner,
        at now: Double
    ) -> Result<CommandAccepted, CommandError> {
        let before = events.count
        let result = track(mode, location: location, owner: owner, at: now)
        var index = before
        while index < events.count {
            if case .trackingModeChanged = events[index] { events.remove(at: index) } else { index += 1 }
        }
        return result
    }
}
