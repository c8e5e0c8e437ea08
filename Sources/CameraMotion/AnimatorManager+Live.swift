import CameraCore

/// What a room is doing right now, for clients that join late: the live
/// animations (running and queued) and the tracking mode with its last fix.
public struct LiveAnimation: Hashable, Sendable {
    /// The level and kind of request it came from.
    public enum Kind: String, Hashable, Sendable {
        /// A high-level eased animation (`ease`).
        case ease
        /// A high-level flight (`fly`).
        case fly
        /// A low-level animator (`animate`, and the animations gestures start).
        case animate
    }

    public enum State: Hashable, Sendable {
        /// Running since `start` (room seconds) for `duration` seconds.
        case running(start: Double, duration: Double)
        /// Queued: starts at `until` (a `delay`).
        case delayed(until: Double)
        /// Queued: starts when its `after` predecessor finishes.
        case waiting
    }

    /// The owner's id for it, or `#<serial>` when it gave none.
    public var id: String
    public var owner: Owner
    public var kind: Kind
    public var state: State
    /// Running: the properties it holds now (less what others took);
    /// queued: the properties it will claim.
    public var properties: CameraProperties
    /// The id of the owner's animation it was chained after, if any.
    public var after: String?
    /// The duration it asked for (seconds); nil for a flight that derives its
    /// duration from the path when it starts.
    public var requestedDuration: Double?

    public init(
        id: String, owner: Owner, kind: Kind, state: State, properties: CameraProperties, after: String?,
        requestedDuration: Double?
    ) {
        self.id = id
        self.owner = owner
        self.kind = kind
        self.state = state
        self.properties = properties
        self.after = after
        self.requestedDuration = requestedDuration
    }
}

extension AnimatorManager {
    /// The live animations in the order they were requested: running ones
    /// (with their start and planned duration) and queued ones (delayed or
    /// waiting for a predecessor). Gestures in progress and tracking are not
    /// animations (see `trackingMode`, `trackedLocation`).
    public var liveAnimations: [LiveAnimation] {
        motions.compactMap { motion -> LiveAnimation? in
            let kind: LiveAnimation.Kind
            let after: String?
            let duration: Double?
            switch motion.kind {
            case .ease(let request):
                kind = motion.isHighLevel ? .ease : .animate
                after = request.after
                duration = request.duration
            case .fly(let request):
                kind = .fly
                after = request.after
                duration = request.duration
            case .tracking, .interaction:
                return nil
            }
            let state: LiveAnimation.State
            let properties: CameraProperties
            switch motion.phase {
            case .running(let segment):
                state = .running(start: segment.start, duration: segment.duration)
                properties = motion.held
            case .delayed(let until):
                state = .delayed(until: until)
                properties = motion.claims
            case .waiting:
                state = .waiting
                properties = motion.claims
            case .tracking, .interaction:
                return nil
            }
            return LiveAnimation(
                id: motion.id, owner: motion.owner, kind: kind, state: state, properties: properties,
                after: after, requestedDuration: duration)
        }
    }

    /// The last fix of the location feed while a tracking mode is on (nil
    /// when nothing tracks, or tracking started without a fix yet).
    public var trackedLocation: TrackedLocation? {
        trackingMode == .none ? nil : lastLocation
    }
}

extension AnimatorManager {
    /// Where `client`'s running animation `id` goes and for how long (its
    /// planned final camera and duration in seconds), or nil when it does not
    /// run. A gesture's acknowledgement tells the client this, so it can
    /// predict the momentum or zoom its gesture started.
    public func runningAnimation(_ id: String, of client: String) -> (to: Camera, duration: Double)? {
        for motion in motions where motion.id == id && motion.owner.client == client {
            if case .running(let segment) = motion.phase { return (segment.plan.destination, segment.duration) }
        }
        return nil
    }
}
