// Where an exploring client tells the hub it looks (`looking`): the visible
// region of the camera it shows (geo/region.js), at most LOOKING_PER_SECOND
// times a second, and only when the camera or the viewport changed, so a map
// at rest sends nothing and the last region of a move always goes (the first
// call at least an interval after the previous send). Sharing can be turned
// off (`setSharing(false)`): the hub is told `region: null` once, and nothing
// goes until it is turned on again. Pure: the caller gives the time, the
// camera, the viewport and the projection. Used by FollowControl.

import { build, LOOKING_PER_SECOND } from '../protocol/messages.js';
import { visibleRegion } from '../geo/region.js';
import { sameCamera } from './show.js';

export class LookingReporter {
  /**
   * @param {object} o
   * @param {(message: object) => boolean} o.send sends a message to the hub (false when not joined)
   * @param {number} [o.intervalMs] least time between two sends (default 1000 / LOOKING_PER_SECOND)
   * @param {boolean} [o.sharing] whether the region is shared at all (default true)
   */
  constructor({ send, intervalMs = 1000 / LOOKING_PER_SECOND, sharing = true }) {
    this.send = send;
    this.intervalMs = intervalMs;
    this.sharing = sharing;
    this.reset();
  }

  /** Forgets what was sent: the next exploring camera goes at once (a new exploration, a new session). */
  reset() {
    this.lastSent = null;
    this.lastViewport = null;
    this.lastAt = -Infinity;
  }

  /**
   * Turns sharing on or off. Off after a region was shared sends `region: null` (the hub forgets it); on again
   * shares the next exploring frame at once.
   * @param {boolean} on
   */
  setSharing(on) {
    if (on === this.sharing) return;
    this.sharing = on;
    if (!on && this.lastSent) this.send(build.looking(null));
    this.reset();
  }

  /**
   * Called once per painted frame: `camera` is the explored camera on screen at local time `t` (ms), or null
   * when the client does not explore (then nothing is sent, and the next exploration starts afresh).
   * Returns true when it sent one.
   * @param {number} t
   * @param {object|null} camera
   * @param {{width: number, height: number}} viewport
   * @param {string} [projection] the room's ('mercator' or 'globe')
   */
  update(t, camera, viewport, projection = 'mercator') {
    if (!camera || !this.sharing) {
      if (this.lastSent) this.reset();
      return false;
    }
    const same = sameCamera(camera, this.lastSent) && sameSize(viewport, this.lastViewport);
    if (same || t - this.lastAt < this.intervalMs) return false;
    if (this.send(build.looking(visibleRegion(camera, viewport, projection))) === false) return false;
    this.lastSent = { ...camera };
    this.lastViewport = { width: viewport.width, height: viewport.height };
    this.lastAt = t;
    return true;
  }
}

function sameSize(a, b) {
  return !!a && !!b && a.width === b.width && a.height === b.height;
}
