import CameraCore

/// One live thing that moves or holds camera properties: an animation
/// (delayed, waiting for a predecessor, or running), a tracking mode, or a
/// gesture in progress. Owned by `AnimatorManager`.
struct Motion: Sendable {
    enum Kind: Sendable {
        case ease(EaseRequest)
        case fly(FlyRequest)
        case tracking
        case interaction(name: String)
    }

    /// Whether its owner marked it essential (reduced motion shows it all the same).
    var essential: Bool {
        switch kind {
        case .ease(let request): request.essential
        case .fly(let request): request.essential
        case .tracking, .interaction: false
        }
    }

    /// A planned stretch of motion: `plan` evaluated from `start` over `duration` seconds.
    struct Segment: Sendable {
        var start: Double
        var duration: Double
        var curve: TimingCurve
        var plan: MotionPlan

        var end: Double { start + duration }

        /// Eased progress at `time` (1 from the end on, and for zero durations).
        /// Compared with `end` first: `(end - start) / duration` is often a hair
        /// below 1 in floating point, which would leave the camera off target.
        func progress(at time: Double) -> Double {
            guard duration > 0, time < end else { return 1 }
            return curve.progress((time - start) / duration)
        }
    }

    enum Phase: Sendable {
        /// Starts at `until` (a `delay`).
        case delayed(until: Double)
        /// Starts when the motion with serial `predecessor` finishes.
        case waiting(predecessor: Int)
        case running(Segment)
        /// Tracking: holds its properties; follows the feed along `segment`.
        case tracking(mode: TrackingMode, segment: Segment?, lastFix: Double?)
        /// A gesture: holds its properties; the gesture engine writes them.
        case interaction
    }

    let serial: Int
    /// The owner's id, or `#<serial>`.
    let id: String
    /// Who owns it, at the owner's current rank (see `AnimatorManager.setRank`).
    var owner: Owner
    let kind: Kind
    /// Every property it asked for.
    let claims: CameraProperties
    /// Coupled groups: losing any property of a group loses the whole group.
    let groups: [CameraProperties]
    /// What it holds now (empty until it starts).
    var held: CameraProperties = []
    /// What newer claims took from it.
    var lost: CameraProperties = []
    /// Target properties the limits adjusted when it was planned.
    var clamped: CameraProperties = []
    var phase: Phase
    /// A high-level animation (`ease`, `fly`): only one runs at a time, and a
    /// newer high-level command ends it as a whole. False for low-level
    /// animators (`animate`, gesture animations), tracking and gestures.
    var isHighLevel = false

    var isRunning: Bool { if case .running = phase { true } else { false } }
    var isStarted: Bool {
        switch phase {
        case .delayed, .waiting: false
        case .running, .tracking, .interaction: true
        }
    }
    var isAnimation: Bool {
        switch kind {
        case .ease, .fly: true
        case .tracking, .interaction: false
        }
    }

    /// The groups that overlap `claims`, merged.
    func groupsTouching(_ claims: CameraProperties) -> CameraProperties {
        var out: CameraProperties = []
        for group in groups where !group.isDisjoint(with: claims) { out.formUnion(group) }
        return out
    }
}
