// Snapshot interpolation of hub camera frames. Pure: no DOM, no timers; the
// caller passes times (e.g. performance.now() or Date.now(), one clock throughout).
//
// Frames are `{type: "frame", seq, time, camera, moving, by}` where `time` is
// the hub's wall clock in ms. The buffer maps hub time to local time with the
// smallest (receivedAt - time) seen lately (the least-delayed frame), then
// renders `delayFrames` observed frame intervals behind that, so there is
// almost always a frame on each side of the render time:
//
//   renderTime(now) = now - clockOffset - delay,   delay = delayFrames * interval
//
// Between two frames it interpolates lat and lon (lon the short way across the
// antimeridian), zoom and tilt linearly and bearing by the shortest turn. It
// never extrapolates: past the newest frame it holds it, so there is no
// overshoot, and a `moving: false` frame is reached exactly (its own camera
// object values) and held. It snaps (no interpolation) on the first frame and
// across gaps longer than max(minGapMs, gapFactor * interval).

import { normalizeBearing, shortestTurn, wrapLongitude } from './projection.js';

const DEFAULTS = {
  delayFrames: 2,
  initialIntervalMs: 1000 / 30,
  minIntervalMs: 4,
  maxIntervalMs: 250,
  intervalSmoothing: 0.2, // weight of a new interval sample in the moving average
  gapFactor: 4,
  minGapMs: 250,
  offsetWindow: 60, // frames over which the minimum clock offset is taken
  maxFrames: 120,
};

function copyCamera(c) {
  const out = { lat: c.lat, lon: c.lon, zoom: c.zoom, bearing: c.bearing, tilt: c.tilt };
  if (c.anchor) out.anchor = { x: c.anchor.x, y: c.anchor.y };
  return out;
}

/** Interpolates two cameras at fraction t in [0, 1] (no extrapolation). */
export function interpolateCamera(a, b, t) {
  if (t <= 0) return copyCamera(a);
  if (t >= 1) return copyCamera(b);
  const out = {
    lat: a.lat + (b.lat - a.lat) * t,
    lon: wrapLongitude(a.lon + shortestTurn(a.lon, b.lon) * t),
    zoom: a.zoom + (b.zoom - a.zoom) * t,
    bearing: normalizeBearing(a.bearing + shortestTurn(a.bearing, b.bearing) * t),
    tilt: a.tilt + (b.tilt - a.tilt) * t,
  };
  if (a.anchor || b.anchor) {
    const aa = a.anchor || { x: 0.5, y: 0.5 };
    const ba = b.anchor || { x: 0.5, y: 0.5 };
    out.anchor = { x: aa.x + (ba.x - aa.x) * t, y: aa.y + (ba.y - aa.y) * t };
  }
  return out;
}

export class SnapshotBuffer {
  constructor(options = {}) {
    this.options = { ...DEFAULTS, ...options };
    this.reset();
  }

  /** Forgets all frames and clock estimates (e.g. after a reconnect or a new welcome). */
  reset() {
    this.frames = [];
    this.offsets = [];
    this.interval = this.options.initialIntervalMs;
    this.intervalSamples = 0;
    this.lastSeq = -Infinity;
  }

  /** Render delay behind the hub clock in ms (delayFrames observed intervals). */
  get delay() {
    return this.options.delayFrames * this.interval;
  }

  /** Frames further apart than this (hub time) are not interpolated. */
  get gapThreshold() {
    return Math.max(this.options.minGapMs, this.options.gapFactor * this.interval);
  }

  /** Estimated local time minus hub time for the least-delayed recent frame. */
  get clockOffset() {
    let min = Infinity;
    for (const o of this.offsets) if (o < min) min = o;
    return min;
  }

  /**
   * Adds a frame received at local time `receivedAt`. Returns false (and
   * ignores it) for a frame whose seq or time is not after the newest one.
   */
  push(frame, receivedAt) {
    const last = this.frames[this.frames.length - 1];
    if (frame.seq <= this.lastSeq) return false;
    if (last && frame.time < last.time) return false;
    this.lastSeq = frame.seq;

    const o = this.options;
    if (last && last.moving) {
      const dt = frame.time - last.time;
      if (dt > 0 && dt <= this.gapThreshold) {
        const clamped = Math.min(o.maxIntervalMs, Math.max(o.minIntervalMs, dt));
        // First samples replace the guess quickly; later ones are smoothed.
        const w = this.intervalSamples < 3 ? 1 / (this.intervalSamples + 1) : o.intervalSmoothing;
        this.interval += (clamped - this.interval) * w;
        this.intervalSamples++;
      }
    }
    this.offsets.push(receivedAt - frame.time);
    if (this.offsets.length > o.offsetWindow) this.offsets.shift();

    this.frames.push({
      seq: frame.seq,
      time: frame.time,
      camera: copyCamera(frame.camera),
      moving: !!frame.moving,
      by: frame.by ?? null,
    });
    if (this.frames.length > o.maxFrames) this.frames.shift();
    return true;
  }

  /** Hub time being rendered at local time `now`. */
  renderTime(now) {
    return now - this.clockOffset - this.delay;
  }

  /**
   * The camera to draw at local time `now`: `{camera, moving, seq, by, time}`
   * (`time` = hub render time, `seq`/`by` of the frame at or before it), or null
   * before the first frame.
   */
  sample(now) {
    const frames = this.frames;
    if (frames.length === 0) return null;
    const rt = this.renderTime(now);

    // Drop frames that can no longer matter (keep the last one at or before rt).
    let i = 0;
    while (i + 1 < frames.length && frames[i + 1].time <= rt) i++;
    if (i > 0) frames.splice(0, i);

    const a = frames[0];
    if (rt <= a.time || frames.length === 1) {
      // Before the oldest frame (a first frame snaps) or past the newest: hold it.
      const moving = frames.length === 1 ? a.moving : true;
      return { camera: copyCamera(a.camera), moving, seq: a.seq, by: a.by, time: rt };
    }
    const b = frames[1];
    const span = b.time - a.time;
    if (span > this.gapThreshold || span <= 0) {
      // Gap: show the older frame until the newer one is due (checked above).
      return { camera: copyCamera(a.camera), moving: true, seq: a.seq, by: a.by, time: rt };
    }
    const t = (rt - a.time) / span;
    return { camera: interpolateCamera(a.camera, b.camera, t), moving: true, seq: a.seq, by: b.by, time: rt };
  }
}
