/// The playout clock's steering: the goal within its bands, the speed toward
/// it, and the re-syncs (a sleep, a far goal, an underrun, a stall).
extension PlayoutClock {
    /// Sets the goal from the target: up at once when the target rises past it,
    /// down (at most half a re-sync below the delay in use) once the target
    /// plus headroom is a band below it and the goal has not grown for `shrinkHoldMs`.
    mutating func updateGoal(at: Double) {
        let target = targetDelay
        guard let current = goal, target <= current else {
            goal = target + growBand
            shrinking = false
            if lateness.count >= options.minSamples { holdUntil = at + options.shrinkHoldMs }
            return
        }
        let low = target + growBand
        let wantsDown = low < current - shrinkBand || (shrinking && low < current)
        guard wantsDown, !(holdUntil.map { at < $0 } ?? false) else { return }
        let now = delay ?? current
        goal = max(low, min(current, now - options.resyncMs / 2))
        shrinking = goal! > low
    }

    /// The buffer ran dry: the goal grows at once to cover the lateness the
    /// dry sample saw (by at most `underrunGrowth` intervals); more than the
    /// dead band short of it is a re-sync (the render time stands still until there).
    public mutating func underrun() {
        guard let current = goal, let total, let delay else { return }
        let seen = lateness.last ?? 0
        let need = seen + interval + options.marginMs + growBand
        let cap = max(current, delay) + options.underrunGrowth * interval
        if need > current { goal = min(need, cap) }
        holdUntil = (lastAt ?? 0) + options.shrinkHoldMs
        decidedAt = nil
        let short = goal! - delay
        if short > options.deadbandMs && freezeTo == nil {
            resync(at: lastAt ?? 0, from: delay, to: goal!, .underrun)
            freezeTo = total + short
            stalled = true
        }
    }

    mutating func resync(at: Double, from: Double, to: Double, _ reason: PlayoutResync.Reason) {
        resyncs += 1
        resyncLog.append(PlayoutResync(at: at, from: from, to: to, reason: reason))
        if resyncLog.count > 100 { resyncLog.removeFirst() }
        (speed, speedFrom, speedTo) = (1, 1, 1)
        speedAt = at
        decidedAt = at
    }

    /// The speed at display time `at`: ramping linearly from `speedFrom` to `speedTo` over `speedRampMs`.
    func speed(at: Double) -> Double {
        guard let speedAt else { return speedTo }
        let u = min(1, max(0, (at - speedAt) / options.speedRampMs))
        return speedFrom + (speedTo - speedFrom) * u
    }

    /// Chooses the speed toward the goal: at most once per `speedUpdateMs`, or 1 at once on reaching it.
    mutating func steer(at: Double) {
        guard let delay, let goal else { return }
        let diff = delay - goal  // > 0: later than aimed for: play faster
        let reached = (speedTo > 1 && diff <= 0) || (speedTo < 1 && diff >= 0)
        let due = decidedAt.map { at - $0 >= options.speedUpdateMs } ?? true
        guard reached || due else { return }
        var wanted = 1.0
        if !reached && abs(diff) > options.deadbandMs {
            wanted = 1 + min(options.maxRateChange, max(-options.maxRateChange, options.speedGain * diff / 1000))
        }
        decidedAt = at
        guard wanted != speedTo else { return }
        speedFrom = speed(at: at)
        speedTo = wanted
        speedAt = at
    }

    /// Moves the clock to display time `displayAt` for a frame on screen
    /// `lead` ms later; returns the hub time to show (nil before any frame).
    /// `limit`: the latest hub time the frames in hand allow (the newest
    /// moving frame plus the extrapolation allowance); the clock holds there.
    public mutating func advance(displayAt: Double, lead: Double = 0, limit: Double = .infinity) -> Double? {
        self.lead = max(0, lead)
        guard let offset = clockOffset else { return nil }
        updateGoal(at: displayAt)
        let goalTotal = offset + goal! - self.lead!
        if let total {
            self.total = moved(total, to: displayAt, goalTotal: goalTotal)
        } else {
            total = goalTotal
        }
        holdAtLimit(displayAt: displayAt, limit: limit)
        stalled = stall == .holding || freezeTo != nil
        if !stalled { steer(at: displayAt) }
        lastAt = displayAt
        return displayAt - total!
    }

    /// The total after display time moved to `displayAt`: played at the
    /// speed, held by a re-sync to a longer delay, or re-synced.
    private mutating func moved(_ start: Double, to displayAt: Double, goalTotal: Double) -> Double {
        var total = start
        let dt = lastAt.map { displayAt - $0 } ?? 0
        if dt > options.sleepMs {
            let from = delay ?? 0
            total = goalTotal
            self.total = total
            freezeTo = nil
            resync(at: displayAt, from: from, to: delay ?? 0, .slept)
        } else if let freezeTo {
            total = min(freezeTo, total + max(0, dt))
            if total >= freezeTo { self.freezeTo = nil }
        } else if dt > 0 {
            // the speed ramps linearly within the step: its mean over it
            let s0 = speed(at: lastAt ?? displayAt)
            let s1 = speed(at: displayAt)
            speed = s1
            total += dt * (1 - (s0 + s1) / 2)
        }
        self.total = total
        // far from the goal: a re-sync, never a jump back in hub time
        if freezeTo == nil && goalTotal - total < -options.resyncMs {
            let from = delay ?? 0
            total = goalTotal
            self.total = total
            resync(at: displayAt, from: from, to: delay ?? 0, .far)
        } else if freezeTo == nil && goalTotal - total > options.resyncMs {
            let from = delay ?? 0
            resync(at: displayAt, from: from, to: from + (goalTotal - total), .far)
            freezeTo = goalTotal
        }
        return total
    }

    /// An underrun past the allowance on a second display frame running: the
    /// render time holds at the limit, growing the delay by at most `maxStallMs`.
    private mutating func holdAtLimit(displayAt: Double, limit: Double) {
        guard let total else { return }
        let past = displayAt - total > limit
        if !past { stall = nil }
        if past && wasPast && stall != .done {
            if stall == nil {
                stall = .holding
                stallFrom = total
                let from = delay ?? 0
                resync(at: displayAt, from: from, to: from + (displayAt - limit - total), .underrun)
            }
            if displayAt - limit - stallFrom > options.maxStallMs {
                stall = .done
            } else {
                self.total = displayAt - limit
                goal = max(goal ?? 0, delay ?? 0)
                holdUntil = displayAt + options.shrinkHoldMs
            }
        }
        wasPast = past
    }
}
