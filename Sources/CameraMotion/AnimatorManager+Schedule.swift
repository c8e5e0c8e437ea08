/// When the manager next has work of its own, so that its owner can leave a
/// room at rest alone instead of advancing it on every tick.
extension AnimatorManager {
    /// What the manager needs from its owner's clock when no command arrives.
    public enum Due: Hashable, Sendable {
        /// Something moves (an animation, a gesture, a tracking glide): advance every tick.
        case everyTick
        /// Nothing moves; advance once at this time (a delayed start, or the
        /// `steady` report that follows the last change by `steadyDelay`).
        case at(Double)
        /// At rest with nothing scheduled: only a command can change anything.
        case never
    }

    /// The manager's next due work as of `time` (see `Due`). Advancing it at
    /// any other time than these is harmless but changes nothing.
    public var due: Due {
        if isMoving { return .everyTick }
        var earliest = Double.infinity
        for motion in motions {
            if case .delayed(let until) = motion.phase { earliest = min(earliest, until) }
        }
        if restPending { earliest = min(earliest, lastChangeTime + steadyDelay) }
        return earliest.isFinite ? .at(earliest) : .never
    }
}
