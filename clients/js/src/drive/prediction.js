// Client-side prediction of a driver's own gestures, reconciled with the hub.
// Pure: no DOM, no clock; local times (ms, the page clock) are
// passed in.
//
// - Predict: each gesture the page sends gets a `seq` and is applied at once
//   to the page's own camera with the hub's rules (gesture_rules.js), from the
//   camera on screen when it began.
// - Reconcile: the hub answers each such gesture, to this page only, with a
//   `gestureAck` {seq, time, camera, animation?}. The acknowledged camera
//   becomes the base, the gestures still in progress (or ended but not yet
//   acknowledged) are re-applied on top of it with their latest input (every
//   step is cumulative since `begin`), and whatever the displayed camera then
//   differs by is blended away over `blendMs` (never a snap). A `begin`'s
//   acknowledgement gives the camera the hub's gesture starts from; an
//   animation's (momentum, tap and scroll zooms), the hub's path, which the
//   page plays from the time it predicted it to start.
// - Give way: an `error` answering a gesture (a presenter took the
//   properties: `conflict`) drops the prediction; the page blends over to the
//   hub's frames and predicts that kind again only from its next `begin`.
// - Hand back: once every gesture and animation has ended and been
//   acknowledged, the predicted camera is held until the playout buffer shows
//   the hub at or after the last acknowledged moment (its animation's end),
//   then the page blends over to the buffer's frames; when the blend is done it
//   shows the buffer's camera exactly (the follower contract's final frame).

import { ContinuousGesture, CONTINUOUS_KINDS, ZOOM_KINDS, DEFAULT_LIMITS, GESTURE_SETTINGS, zoomGesture, planFromAck,
  evaluatePlan } from './gesture_rules.js';
import { nearestLongitude, shortestTurn, worldSize, clampLatitude, normalizeRoll, DEFAULT_FOV_DEGREES } from '../geo/projection.js';

const unitX = (lon) => (lon + 180) / 360;
const unitY = (lat) => 0.5 - Math.log(Math.tan(Math.PI / 4 + (clampLatitude(lat) * Math.PI) / 360)) / (2 * Math.PI);
const lonOfUnitX = (x) => x * 360 - 180;
const latOfUnitY = (y) => ((2 * Math.atan(Math.exp((0.5 - y) * 2 * Math.PI)) - Math.PI / 2) * 180) / Math.PI;

/**
 * a − b per property: centre in Mercator units, zoom, bearing (shortest turn),
 * tilt; roll (shortest turn), elevation (m) and fov (degrees) when either camera
 * has them.
 */
export function cameraDifference(a, b) {
  const d = {
    x: unitX(a.lon) - unitX(nearestLongitude(b.lon, a.lon)),
    y: unitY(a.lat) - unitY(b.lat),
    zoom: a.zoom - b.zoom,
    bearing: shortestTurn(b.bearing, a.bearing),
    tilt: a.tilt - b.tilt,
  };
  if (a.roll !== undefined || b.roll !== undefined) d.roll = shortestTurn(b.roll || 0, a.roll || 0);
  if (a.elevation !== undefined || b.elevation !== undefined) d.elevation = (a.elevation || 0) - (b.elevation || 0);
  if (a.fov !== undefined || b.fov !== undefined) d.fov = (a.fov ?? DEFAULT_FOV_DEGREES) - (b.fov ?? DEFAULT_FOV_DEGREES);
  return d;
}

/** `camera` moved by `d` (a cameraDifference) times `k`. */
export function offsetCamera(camera, d, k) {
  if (!d || k === 0) return camera;
  const out = {
    ...camera,
    lon: lonOfUnitX(unitX(camera.lon) + d.x * k),
    lat: latOfUnitY(unitY(camera.lat) + d.y * k),
    zoom: camera.zoom + d.zoom * k,
    bearing: (((camera.bearing + d.bearing * k) % 360) + 360) % 360,
    tilt: camera.tilt + d.tilt * k,
  };
  if (d.roll !== undefined) out.roll = normalizeRoll((camera.roll || 0) + d.roll * k);
  if (d.elevation !== undefined) out.elevation = (camera.elevation || 0) + d.elevation * k;
  if (d.fov !== undefined) out.fov = (camera.fov ?? DEFAULT_FOV_DEGREES) + d.fov * k;
  return out;
}

/** How far apart two cameras' centres are on screen, in px at `a`'s zoom. */
export function centreDistancePx(a, b) {
  const d = cameraDifference(a, b);
  return Math.hypot(d.x, d.y) * worldSize(a.zoom);
}

// Differences below these (1e-12 of the world's width ≈ 4e-5 px at zoom 22; 1e-9 zoom levels or
// degrees) are rounding: nothing to blend.
const quiet = (d) => !d || (Math.hypot(d.x, d.y) < 1e-12 && Math.abs(d.zoom) < 1e-9 && Math.abs(d.bearing) < 1e-9
  && Math.abs(d.tilt) < 1e-9 && !(Math.abs(d.roll || 0) >= 1e-9) && !(Math.abs(d.elevation || 0) >= 1e-9)
  && !(Math.abs(d.fov || 0) >= 1e-9));

/** Whether a continuous gesture's message carries a change (an `end` may, with its last position). */
export function carriesChange(m) {
  switch (m.kind) {
    case 'pan': return Number.isFinite(m.x) && Number.isFinite(m.y);
    case 'pinch': return Number.isFinite(m.x) && Number.isFinite(m.scale);
    case 'tilt': return Number.isFinite(m.dy);
    case 'rotate': return Number.isFinite(m.rotation);
    default: return false;
  }
}

export class Predictor {
  /**
   * @param {object} o
   * @param {{width: number, height: number}} [o.viewport]   the page's viewport (gesture coordinates are in it)
   * @param {boolean} [o.enabled]          show predictions (false: only number gestures and measure)
   * @param {number} [o.blendMs]           how long a correction takes to fade out
   * @param {number} [o.ackTimeoutMs]      give up on a hub that does not acknowledge after this long
   * @param {object} [o.settings]          the gesture rules' settings (default: the hub's, GESTURE_SETTINGS)
   */
  constructor({ viewport, enabled = true, blendMs = 100, ackTimeoutMs = 1500, settings = GESTURE_SETTINGS } = {}) {
    this.viewport = viewport ?? { width: 1280, height: 720 };
    this.enabled = enabled;
    this.blendMs = blendMs;
    this.ackTimeoutMs = ackTimeoutMs;
    this.settings = settings;
    this.limits = DEFAULT_LIMITS;
    this.nextSeq = 1;
    this.sentLog = []; // {seq, t (the input event's time), at (when the page sent it), kind, phase} of the last 600 gestures
    this.ackLog = []; // {seq, time (hub ms), at (local ms received)} of the last 600 acknowledgements
    this.stats = { acks: 0, errorPx: 0, maxErrorPx: 0, correctionPx: 0, maxCorrectionPx: 0, dropped: 0 };
    this.reset();
  }

  /** Forgets everything predicted (a new session, a role change). Statistics and numbering go on. */
  reset() {
    this.mode = 'idle'; // 'idle' | 'predicting' | 'handover'
    this.base = null; // the camera unclaimed properties come from: the newest acknowledged, or the one shown at begin
    this.gestures = []; // continuous gestures in progress: {kind, g, beginSeq}
    this.unacked = []; // {seq, state, m}: changes not yet acknowledged, re-applied in order on top of the base
    this.lost = new Set(); // kinds taken over by someone else: not predicted until their next begin
    this.anim = null; // {id, plan, startT, seq, point}
    this.pendingZoom = null; // {zoom, until}: the target of our zoom under way (successive scrolls add up)
    this.correction = null; // {d, at}: faded out over blendMs from local time `at`
    this.predictedFor = new Map(); // seq -> the camera predicted for it (prediction error)
    this.lastSentSeq = 0;
    this.lastAckSeq = 0;
    this.lastSentAt = 0;
    this.releaseHubTime = -Infinity;
  }

  setViewport(viewport) {
    this.viewport = { ...viewport };
  }

  setLimits(limits) {
    this.limits = limits ? { ...DEFAULT_LIMITS, ...limits } : DEFAULT_LIMITS;
  }

  get predicting() {
    return this.mode !== 'idle';
  }

  // -------------------------------------------------------------------------
  // Gestures out
  // -------------------------------------------------------------------------

  /**
   * Numbers the gesture message `m` (adds `seq`) and predicts it at local time
   * `t` on top of `shown`, the camera on screen now. Returns the message to send.
   */
  outgoing(m, t, shown) {
    const seq = this.nextSeq++;
    const out = { ...m, seq };
    this.sentLog.push({ seq, t: Number.isFinite(m.t) ? m.t : t, at: t, kind: m.kind, phase: m.phase ?? null, x: m.x, y: m.y });
    if (this.sentLog.length > 600) this.sentLog.shift();
    if (!this.enabled) return out;
    const continuous = CONTINUOUS_KINDS.includes(m.kind);
    if (!continuous && !ZOOM_KINDS.includes(m.kind)) return out;
    if (continuous && m.phase === 'begin') this.lost.delete(m.kind);
    if (this.lost.has(m.kind)) return out;

    const before = this.mode === 'predicting' ? this.display(t) : null;
    if (this.mode !== 'predicting') {
      if (!shown) return out;
      // Start from what is on screen (a handover in progress included).
      this.unacked = [];
      this.base = { ...(before ?? shown) };
      this.correction = null;
      this.mode = 'predicting';
    }
    this.lastSentSeq = seq;
    this.lastSentAt = t;
    if (continuous) this.continuousOut(m, seq, t);
    else this.zoomOut(m, seq, t);
    this.predictedFor.set(seq, this.predicted(t));
    if (this.predictedFor.size > 400) this.predictedFor.delete(this.predictedFor.keys().next().value);
    return out;
  }

  continuousOut(m, seq, t) {
    const index = this.gestures.findIndex((s) => s.kind === m.kind);
    if (m.phase === 'begin') {
      // A new touch stops what our own animation was doing with the same properties (the hub cancels it).
      const shown = this.predicted(t);
      if (this.anim) {
        this.base = shown; // (re-applying the unacknowledged steps on it again changes nothing: they are cumulative)
        this.anim = null;
      }
      if (index >= 0) this.gestures.splice(index, 1); // a second begin: the hub refuses it; forget the old one
      this.gestures.push({ kind: m.kind, g: new ContinuousGesture(m, shown, this.viewport, this.settings), beginSeq: seq });
      return;
    }
    if (index < 0) return; // a change without begin (the hub refuses it too)
    const state = this.gestures[index];
    const ending = m.phase === 'end' || m.phase === 'cancel';
    if (m.phase === 'change' || (m.phase === 'end' && this.hasChangeFields(m))) {
      state.g.record(m);
      this.unacked.push({ seq, state, m });
    }
    if (!ending) return;
    this.gestures.splice(index, 1);
    if (m.phase === 'end' && m.kind === 'pan') {
      const momentum = state.g.momentum(m.t, this.predicted(t), this.limits);
      if (momentum) this.anim = { id: momentum.id, plan: momentum.plan, startT: t, seq, point: null };
    }
  }

  hasChangeFields(m) {
    return carriesChange(m);
  }

  zoomOut(m, seq, t) {
    const current = this.predicted(t);
    const base = this.pendingZoom && t < this.pendingZoom.until ? this.pendingZoom.zoom : current.zoom;
    const z = zoomGesture(m, current, base, this.viewport, this.limits, this.settings);
    if (!z) return;
    this.base = current;
    this.anim = { id: z.id, plan: z.plan, startT: t, seq, point: z.plan.point ?? null };
    this.pendingZoom = { zoom: z.zoom, until: t + z.plan.duration * 1000 };
  }

  // -------------------------------------------------------------------------
  // The hub's answers
  // -------------------------------------------------------------------------

  /** A `gestureAck` received at local time `t`. */
  ack(m, t) {
    this.ackLog.push({ seq: m.seq, time: m.time, at: t });
    if (this.ackLog.length > 600) this.ackLog.shift();
    this.stats.acks++;
    if (m.seq > this.lastAckSeq) this.lastAckSeq = m.seq;
    if (this.mode !== 'predicting') return;
    const predicted = this.predictedFor.get(m.seq);
    const hub = { ...m.camera, lon: nearestLongitude(m.camera.lon, this.base.lon) };
    if (predicted) {
      this.stats.errorPx = centreDistancePx(predicted, hub);
      this.stats.maxErrorPx = Math.max(this.stats.maxErrorPx, this.stats.errorPx);
      this.predictedFor.delete(m.seq);
    }
    const shown = this.display(t);
    this.base = hub;
    for (const s of this.gestures) if (s.beginSeq === m.seq) s.g.rebase(hub);
    for (const u of this.unacked) if (u.state.beginSeq === m.seq) u.state.g.rebase(hub); // ended before its begin was answered
    this.unacked = this.unacked.filter((u) => u.seq > m.seq);
    if (this.anim && this.anim.seq === m.seq) {
      if (m.animation) {
        const a = m.animation;
        this.anim.plan = planFromAck(a.id, hub, a.to, a.duration, this.anim.point, this.viewport, this.settings);
        this.releaseHubTime = Math.max(this.releaseHubTime, m.time + a.duration * 1000);
        if (ZOOM_KINDS.includes(a.id)) this.pendingZoom = { zoom: a.to.zoom, until: this.anim.startT + a.duration * 1000 };
      } else {
        this.anim = null; // the hub started nothing (the finger had stopped; nothing to zoom)
      }
    } else if (m.animation && (!this.anim || this.anim.seq < m.seq)) {
      // The hub started an animation the page did not predict (a fling it measured otherwise): play the
      // hub's, from when the page sent the gesture.
      const a = m.animation;
      const sent = this.sentLog.find((e) => e.seq === m.seq);
      const point = Number.isFinite(sent?.x) && Number.isFinite(sent?.y) ? { x: sent.x, y: sent.y } : null;
      this.anim = { id: a.id, plan: planFromAck(a.id, hub, a.to, a.duration, point, this.viewport, this.settings), startT: sent?.at ?? t,
        seq: m.seq, point };
      this.releaseHubTime = Math.max(this.releaseHubTime, m.time + a.duration * 1000);
    } else if (this.anim && this.anim.seq < m.seq) {
      this.anim = null; // a later gesture of ours replaced it on the hub too
    }
    this.releaseHubTime = Math.max(this.releaseHubTime, m.time);
    this.blendFrom(shown, t);
  }

  /** An `error` answering one of our gestures (`ref` "gesture"): someone else has the camera. */
  rejected(m, t, bufferCamera) {
    if (this.mode === 'idle') return;
    for (const s of this.gestures) this.lost.add(s.kind);
    this.stats.dropped++;
    this.handOver(t, bufferCamera);
  }

  // -------------------------------------------------------------------------
  // What to show
  // -------------------------------------------------------------------------

  /** The predicted camera at local time t, before corrections. */
  predicted(t) {
    let cam = this.base;
    for (const u of this.unacked) cam = u.state.g.step(u.m, cam, this.limits);
    if (this.anim) cam = evaluatePlan(this.anim.plan, (t - this.anim.startT) / 1000, cam, this.limits);
    return cam;
  }

  fade(t) {
    if (!this.correction) return 0;
    const k = 1 - (t - this.correction.at) / this.blendMs;
    return k > 0 ? Math.min(1, k) : 0;
  }

  /** What the page shows while predicting: the prediction plus the correction still fading out. */
  display(t) {
    return offsetCamera(this.predicted(t), this.correction?.d, this.fade(t));
  }

  /** Starts fading out the difference between `shown` and the new prediction at t. */
  blendFrom(shown, t) {
    const d = cameraDifference(shown, this.predicted(t));
    if (quiet(d)) return;
    this.correction = { d, at: t };
    const px = Math.hypot(d.x, d.y) * worldSize(shown.zoom);
    this.stats.correctionPx = px;
    this.stats.maxCorrectionPx = Math.max(this.stats.maxCorrectionPx, px);
  }

  handOver(t, bufferCamera) {
    const shown = this.mode === 'idle' ? null : this.display(t);
    this.gestures = [];
    this.unacked = [];
    this.anim = null;
    this.pendingZoom = null;
    this.predictedFor.clear();
    if (!shown || !bufferCamera) {
      this.mode = 'idle';
      this.correction = null;
      return;
    }
    this.mode = 'handover';
    const d = cameraDifference(shown, bufferCamera);
    this.correction = quiet(d) ? null : { d, at: t };
  }

  /** True once every gesture and animation predicted has ended and been acknowledged. */
  settledAt(t) {
    if (this.gestures.length || this.unacked.length) return false;
    if (this.anim && t < this.anim.startT + this.anim.plan.duration * 1000) return false;
    return this.lastAckSeq >= this.lastSentSeq;
  }

  /**
   * The camera to show at local time t, or null when the page should show the
   * playout buffer's own sample (`buffered`: {camera, time (hub ms)} or null).
   */
  sample(t, buffered) {
    if (this.mode === 'predicting') {
      const stalled = this.lastAckSeq < this.lastSentSeq && t - this.lastSentAt > this.ackTimeoutMs;
      if (stalled || (this.settledAt(t) && buffered && buffered.time >= this.releaseHubTime)) {
        this.handOver(t, buffered?.camera);
      } else {
        return this.display(t);
      }
    }
    if (this.mode === 'handover') {
      const k = this.fade(t);
      if (k === 0 || !buffered) {
        this.mode = 'idle';
        this.correction = null;
        return null;
      }
      return offsetCamera(buffered.camera, this.correction.d, k);
    }
    return null;
  }

  /** The newest of our gestures the hub had applied by hub time `time` (ms): what a buffer frame of that time shows. */
  seqAt(time) {
    let seq = 0;
    for (const a of this.ackLog) if (a.time <= time && a.seq > seq) seq = a.seq;
    return seq;
  }
}
