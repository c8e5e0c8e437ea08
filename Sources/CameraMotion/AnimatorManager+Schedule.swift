/// When the manager next has work of its own, so that its owner can leave a
/// room alone between the times anyone needs to see it.
extension AnimatorManager {
    /// What the manager needs from its owner's clock when no command arrives.
    public enum Due: Hashable, Sendable {
        /// The camera changes with time (an animation, a gesture, a tracking
        /// glide). `next` is the earliest time something starts or ends (an
        /// animation's end or a delayed start; nil when none is scheduled, as
        /// while a gesture holds the camera). The camera at any time is a pure
        /// function of that time, so the owner may advance it only when
        /// someone is due a frame, and at `next` for timely reports.
        case moving(next: Double?)
        /// Nothing moves; advance once at this time (a delayed start, or the
        /// `steady` report that follows the last change by `steadyDelay`).
        case at(Double)
        /// At rest with nothing scheduled: only a command can change anything.
        case never
    }

    /// The manager's next due work as of `time` (see `Due`).
    public var due: Due {
        var earliest = Double.infinity
        for motion in motions {
            switch motion.phase {
            case .delayed(let until): earliest = min(earliest, until)
            case .running(let segment): earliest = min(earliest, segment.end)
            case .tracking(_, let segment?, _) where segment.end > time: earliest = min(earliest, segment.end)
            default: continue
            }
        }
        if isMoving { return .moving(next: earliest.isFinite ? earliest : nil) }
        if restPending { earliest = min(earliest, lastChangeTime + steadyDelay) }
        return earliest.isFinite ? .at(earliest) : .never
    }
}
