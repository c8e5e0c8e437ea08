// The room's elevation on the ground: while the hub serves terrain, a driver's
// page whose camera is "clamped to the ground" (MapLibre's centerClampedToGround,
// the default there; the controls' "Follow the ground" box turns it off for a
// free elevation) sends the ground's height under the centre as the camera's
// `elevation` (`set {elevation}`), so the room's elevation follows the ground as
// the camera moves. Every page still shows exactly the room's elevation (the
// map is made with centerClampedToGround false); only the sending is here.
// It waits while an animation runs in the room: a `set` would end a running ease
// or fly (or be refused, a higher rank's), so the elevation catches up when it ends.
// Pure: no DOM, no timers; the page calls `step` ten times a second.

import { build, ELEVATION_RANGE } from '../../../clients/js/src/protocol/messages.js';

/** The ground must differ from the room's elevation by more than this (m) before it is sent. */
export const GROUND_CHANGE_M = 0.5;
/** A height already sent is not sent again for this long (ms) while the room's frames have not brought it back. */
export const RESEND_AFTER_MS = 1000;

export class GroundFollower {
  /**
   * @param {object} o
   * @param {(message: object) => boolean} o.send the page's connection
   * @param {boolean} [o.clamped] whether it starts clamped to the ground (default true)
   */
  constructor({ send, clamped = true }) {
    this.send = send;
    this.clamped = clamped;
    /** The last height sent (m) and when (page ms). */
    this.sent = null;
    this.sentAt = -Infinity;
  }

  /**
   * At page time `t`: when clamped, allowed to drive and no animation runs in the room (`animating`), sends the
   * ground `ground` (m, null: not known yet, e.g. its elevation tile is still loading) under the camera `camera`
   * (wire form: its `elevation`, absent = 0) when it differs. Returns the message sent, or null.
   */
  step(t, { canDrive, animating = false, camera, ground }) {
    if (!this.clamped || !canDrive || animating || !camera || ground === null || !Number.isFinite(ground)) return null;
    const elevation = Math.min(ELEVATION_RANGE[1], Math.max(ELEVATION_RANGE[0], ground));
    if (Math.abs(elevation - (camera.elevation ?? 0)) <= GROUND_CHANGE_M) return null;
    if (this.sent !== null && Math.abs(elevation - this.sent) <= GROUND_CHANGE_M && t - this.sentAt < RESEND_AFTER_MS) return null;
    const message = build.set({ elevation });
    if (!this.send(message)) return null;
    this.sent = elevation;
    this.sentAt = t;
    return message;
  }
}
