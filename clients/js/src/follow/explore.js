// A follower's own map while it explores, and its way back to the room.
// Pure: no DOM, no clock; local times (ms, the page clock) are passed in.
//
// - Explore: the follower's gestures (the messages a driver would send) move
//   a local camera with the hub's own gesture rules (gesture_rules.js), pan
//   momentum and tap and scroll zooms included. Nothing goes to the room's
//   camera.
// - Back: the local camera glides to the room's camera *as it is at each
//   moment* (the playout buffer's sample), over at most BACK_MAX_MS; at the
//   end the glide's camera is the buffer's sample itself, so the page goes
//   back to playing hub frames with no jump, even while the room's camera
//   moves.
//
// `sample(t, room)` is the camera to show at `t` (null: show the room's).

import { ContinuousGesture, CONTINUOUS_KINDS, ZOOM_KINDS, DEFAULT_LIMITS, GESTURE_SETTINGS, zoomGesture,
  evaluatePlan, curveProgress } from '../drive/gesture_rules.js';
import { cameraDifference, offsetCamera, centreDistancePx, carriesChange } from '../drive/prediction.js';

/** The longest glide back to the room's camera (ms). */
export const BACK_MAX_MS = 1500;
/** The shortest one (ms): even a small step back is seen as a move, not a jump. */
export const BACK_MIN_MS = 300;
/** The glide's easing (CSS `ease`). */
/** @type {[number, number, number, number]} */
const BACK_CURVE = [0.25, 0.1, 0.25, 1];

/**
 * How long the glide from `from` to `to` takes (ms): longer the further the
 * two views are apart (in zoom levels, in screens between their centres, and
 * in bearing and roll),
 * from BACK_MIN_MS up to BACK_MAX_MS.
 */
export function backDuration(from, to, viewport) {
  const screens = centreDistancePx(from, to) / Math.max(1, Math.hypot(viewport.width, viewport.height));
  const d = cameraDifference(from, to);
  const effort = Math.abs(from.zoom - to.zoom) + Math.log2(1 + screens) + Math.abs(d.bearing) / 90 + Math.abs(d.roll || 0) / 90;
  return Math.min(BACK_MAX_MS, BACK_MIN_MS + 250 * effort);
}

export class Explorer {
  /**
   * @param {object} o
   * @param {{width: number, height: number}} [o.viewport]   the page's viewport (gesture coordinates are in it)
   * @param {object} [o.settings]          the gesture rules' settings (default: the hub's, GESTURE_SETTINGS)
   */
  constructor({ viewport, settings = GESTURE_SETTINGS } = {}) {
    this.viewport = viewport ?? { width: 1280, height: 720 };
    this.settings = settings;
    this.limits = DEFAULT_LIMITS;
    /** Glides back started since the page loaded (for tests: a Back glides, it does not jump). */
    this.glides = 0;
    this.reset();
  }

  /** Back to following at once (a new session). */
  reset() {
    this.mode = 'following'; // 'following' | 'exploring' | 'returning'
    this.camera = null; // the explored camera (exploring), or where the glide back started (returning)
    this.gestures = new Map(); // kind -> ContinuousGesture in progress
    this.anim = null; // {plan, startT}: momentum or a zoom under way
    this.pendingZoom = null; // {zoom, until}: successive zooms add up, as on the hub
    this.glide = null; // {startT, ms}
    this.lastShown = null; // the camera `sample` returned last
  }

  setViewport(viewport) {
    this.viewport = { ...viewport };
  }

  /** The room's limits bound the explored map too (nil: the defaults). */
  setLimits(limits) {
    this.limits = limits ? { ...DEFAULT_LIMITS, ...limits } : DEFAULT_LIMITS;
  }

  /** True while the page shows its own camera (exploring, or gliding back). */
  get active() {
    return this.mode !== 'following';
  }

  get exploring() {
    return this.mode === 'exploring';
  }

  /** Starts exploring from `shown` (the camera on screen at `t`); a glide back under way stops where it is. */
  explore(shown, t) {
    if (this.mode === 'exploring') return;
    this.camera = this.mode === 'returning' && this.lastShown ? { ...this.lastShown } : { ...shown };
    this.mode = 'exploring';
    this.glide = null;
    this.anim = null;
    this.gestures.clear();
  }

  /** One gesture message (kind, phase, x, y, t, …) applied to the explored camera at local time `t`. */
  gesture(m, t) {
    if (this.mode !== 'exploring') return;
    if (CONTINUOUS_KINDS.includes(m.kind)) this.continuous(m, t);
    else if (ZOOM_KINDS.includes(m.kind)) this.zoom(m, t);
  }

  continuous(m, t) {
    if (m.phase === 'begin') {
      this.settle(t); // a touch stops the momentum or zoom under way where it is
      this.gestures.set(m.kind, new ContinuousGesture(m, this.camera, this.viewport, this.settings));
      return;
    }
    const g = this.gestures.get(m.kind);
    if (!g) return;
    if (m.phase === 'change' || (m.phase === 'end' && carriesChange(m))) {
      this.camera = g.apply(m, this.camera, this.limits);
    }
    if (m.phase !== 'end' && m.phase !== 'cancel') return;
    this.gestures.delete(m.kind);
    if (m.phase === 'end' && m.kind === 'pan') {
      const momentum = g.momentum(m.t, this.camera, this.limits);
      if (momentum) this.anim = { plan: momentum.plan, startT: t };
    }
  }

  zoom(m, t) {
    this.settle(t);
    const base = this.pendingZoom && t < this.pendingZoom.until ? this.pendingZoom.zoom : this.camera.zoom;
    const z = zoomGesture(m, this.camera, base, this.viewport, this.limits, this.settings);
    if (!z) return;
    this.anim = { plan: z.plan, startT: t };
    this.pendingZoom = { zoom: z.zoom, until: t + z.plan.duration * 1000 };
  }

  /** Folds the animation under way into the camera at `t`. */
  settle(t) {
    if (!this.anim) return;
    this.camera = this.animated(t);
    this.anim = null;
  }

  animated(t) {
    const { plan, startT } = this.anim;
    return evaluatePlan(plan, Math.max(0, t - startT) / 1000, this.camera, this.limits);
  }

  /** Starts the glide back at `t` from what is on screen to `room` (the room's camera now); returns its length (ms). */
  back(t, room) {
    if (this.mode === 'following') return 0;
    const from = this.mode === 'returning' ? this.lastShown : this.anim ? this.animated(t) : this.camera;
    this.camera = { ...from };
    this.anim = null;
    this.gestures.clear();
    this.mode = 'returning';
    this.glides++;
    const ms = room ? backDuration(from, room, this.viewport) : 0;
    this.glide = { startT: t, ms };
    return ms;
  }

  /**
   * The camera to show at `t` given `room`, the room's camera for that moment
   * (the playout buffer's sample; null before any): the explored camera, a
   * point of the glide back, or null once following (show `room`).
   */
  sample(t, room) {
    switch (this.mode) {
      case 'exploring': {
        if (this.anim && t - this.anim.startT >= this.anim.plan.duration * 1000) this.settle(t);
        this.lastShown = this.anim ? this.animated(t) : this.camera;
        return this.lastShown;
      }
      case 'returning': {
        const u = this.glide.ms > 0 ? (t - this.glide.startT) / this.glide.ms : 1;
        if (u >= 1 || !room) {
          this.reset();
          return null;
        }
        const k = curveProgress(BACK_CURVE, u);
        this.lastShown = offsetCamera(this.camera, cameraDifference(room, this.camera), k);
        return this.lastShown;
      }
      default:
        return null;
    }
  }
}
