import CameraCore

extension Playout {
    /// The camera to paint for the display frame that begins at local
    /// `displayAt` (ms) and is on screen `lead` ms later. Frames pushed until
    /// now count. nil before the first frame.
    public mutating func sample(displayAt: Double, lead: Double = 0) -> PlayoutSample? {
        guard let newest = frames.last else { return nil }
        let paintAt = displayAt + lead
        // the caller itself stalled before this sample (its frames are queued): not the frames' lateness
        let callerStalled = lastDisplayAt.map { displayAt - $0 > 2 * max(lead, 1000.0 / 60) } ?? false
        var limit = Double.infinity
        if newest.moving {
            if !callerStalled { clock.observeSample(paintAt: paintAt, newest: newest.time) }
            limit = newest.time + options.maxExtrapolationIntervals * clock.interval
        }
        guard let time = clock.advance(displayAt: displayAt, lead: lead, limit: limit) else { return nil }
        let raw = evaluate(time)
        carryRevision(to: time)
        var shown = raw.camera
        var moving = raw.moving
        if correction != nil {
            if let c = fading(at: time) {
                shown = c.applied(to: raw.camera)
                moving = true
            } else {
                correction = nil
            }
        }
        countUnderrun(dry: raw.dry, callerStalled: callerStalled)
        lastDisplayAt = displayAt
        last = Shown(time: time, raw: raw.camera, dry: raw.dry)
        prune(time)
        return PlayoutSample(camera: shown, moving: moving, seq: raw.seq, by: raw.by, time: time, dry: raw.dry)
    }

    /// Frames that arrived since the last sample may change what the path was
    /// at its time (it was extrapolated): the difference is carried as a
    /// correction, so the picture never jumps.
    private mutating func carryRevision(to time: Double) {
        defer { changed = false }
        guard let last, changed, time >= last.time else { return }
        let revised = evaluate(last.time).camera
        let diff = CameraDelta(from: revised, to: last.raw)
        // (rounding differences, far below a pixel, are not worth a correction)
        guard !diff.isZero, revised.distancePixels(to: last.raw) > 1e-3 else { return }
        let current = fading(at: last.time)
        correction = Correction(delta: CameraDelta(lanes: diff.lanes + (current?.lanes ?? .zero)), at: last.time)
    }

    /// A dry sample after a wet one is an underrun: the clock's delay grows, unless the caller stalled.
    private mutating func countUnderrun(dry: Bool, callerStalled: Bool) {
        guard dry else {
            underrunPending = false
            return
        }
        drySamples += 1
        if !(last?.dry ?? false) {
            underruns += 1
            if callerStalled { underrunPending = true } else { clock.underrun() }
        } else if underrunPending {
            underrunPending = false
            clock.underrun()
        }
    }
}
