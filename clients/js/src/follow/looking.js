// What an exploring client tells the hub it looks at (`looking`): its own
// camera, at most LOOKING_PER_SECOND times a second, and only when it changed,
// so a map at rest sends nothing and the last camera of a move always goes
// (the first call at least an interval after the previous send). Pure: the
// caller gives the time and the camera shown. Used by FollowControl.

import { build, LOOKING_PER_SECOND } from '../protocol/messages.js';
import { sameCamera } from './show.js';

export class LookingReporter {
  /**
   * @param {object} o
   * @param {(message: object) => boolean} o.send sends a message to the hub (false when not joined)
   * @param {number} [o.intervalMs] least time between two sends (default 1000 / LOOKING_PER_SECOND)
   */
  constructor({ send, intervalMs = 1000 / LOOKING_PER_SECOND }) {
    this.send = send;
    this.intervalMs = intervalMs;
    this.reset();
  }

  /** Forgets what was sent: the next exploring camera goes at once (a new exploration, a new session). */
  reset() {
    this.lastSent = null;
    this.lastAt = -Infinity;
  }

  /**
   * Called once per painted frame: `camera` is the explored camera on screen at local time `t` (ms), or null
   * when the client does not explore (then nothing is sent, and the next exploration starts afresh).
   * Returns true when it sent one.
   */
  update(t, camera) {
    if (!camera) {
      if (this.lastSent) this.reset();
      return false;
    }
    if (sameCamera(camera, this.lastSent) || t - this.lastAt < this.intervalMs) return false;
    if (this.send(build.looking(lookedCamera(camera))) === false) return false;
    this.lastSent = { ...camera };
    this.lastAt = t;
    return true;
  }
}

/** The fields of a shown camera that say what it shows (the wire camera's, padding and anchor left out). */
function lookedCamera(c) {
  const out = { lat: c.lat, lon: c.lon, zoom: c.zoom, bearing: c.bearing ?? 0, tilt: c.tilt ?? 0 };
  for (const k of ['roll', 'elevation', 'fov']) if (c[k] !== undefined) out[k] = c[k];
  return out;
}
