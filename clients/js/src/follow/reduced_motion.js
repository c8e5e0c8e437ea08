// Reduced motion (docs/PROTOCOL.md, "Reduced motion"): for a client that prefers
// it, another client's non-essential animation is shown as a jump to its end
// camera when it starts; the frames until it ends are not animated. Pure.

export class ReducedMotion {
  /** @param {boolean} enabled whether the client prefers reduced motion */
  constructor(enabled = false) {
    this.enabled = enabled;
    /** Animations shown as a jump so far (for tests). */
    this.jumps = 0;
    this.reset();
  }

  reset() {
    /** {owner, id, to, releaseAt (hub ms, once it ended)} of the animation shown as a jump, or null. */
    this.hold = null;
  }

  /** An `animation` report (with roomAnimations: everyone's); `me` is this client's id. */
  report(m, me) {
    if (!this.enabled) return;
    const same = this.hold && this.hold.owner === m.owner && this.hold.id === m.id;
    if (m.status === 'started') {
      if (m.owner === me || m.essential !== false || !m.to) return;
      this.hold = { owner: m.owner, id: m.id, to: m.to, releaseAt: null };
      this.jumps++;
    } else if (same && m.status !== 'interrupted') {
      this.hold.releaseAt = m.time; // frames from then on show where it ended
    }
  }

  /**
   * The camera to show instead of the room's frames for a frame of hub time
   * `sampleTime` (ms; null before any), or null: the jumped-to end of the
   * animation until the frames reach the moment it ended.
   */
  camera(sampleTime) {
    const h = this.hold;
    if (!h) return null;
    if (h.releaseAt !== null && sampleTime !== null && sampleTime >= h.releaseAt) {
      this.hold = null;
      return null;
    }
    return h.to;
  }
}
