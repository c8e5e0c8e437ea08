// Snapshot interpolation of hub camera frames behind an adaptive jitter
// buffer. Pure: no DOM, no timers; the caller passes times (local ms, one
// clock throughout, e.g. performance.timeOrigin + performance.now()).
//
// Frames are `{type: "frame", seq, time, camera, moving, by}` where `time` is
// the hub's wall clock in ms. A PlayoutClock (playout.js) turns the local
// paint time into the hub time to show, a measured delay behind the hub that
// changes only by time-stretching. At that hub time:
//
// - between two frames the camera follows the hub's path, property by
//   property in the spaces the hub's own `animate` interpolates in: the centre
//   in Web Mercator (lon the short way across the antimeridian), zoom (= the
//   scale's logarithm), bearing and roll by the shortest turn (roll kept within
//   -180…180), tilt, elevation, fov and anchor. Within
//   a motion it is a monotone cubic through the frame before as well
//   (hermiteCamera: closer to curved paths, never past the frames); from a
//   rest, or with `cubic: false`, a straight line (interpolateCamera);
// - a resting frame after another resting frame (a `set`) is a step, shown at
//   its time; a motion that starts after a rest is drawn over the one interval
//   before its first frame (the hub started it within that interval), or over
//   the one hub tick before it when that frame is a `corner` (an animation
//   started: the hub sends the frame of the next tick);
// - between two moving frames that carry the hub's `velocity` (its planned
//   path's slope), a cubic Hermite curve with those slopes (hermiteVelocityCamera):
//   eases and flights are followed to a fraction of a pixel at 10 Hz;
// - a `corner` frame is the first after a change of course (an animation
//   started, ended or handed over): no curve is fitted across it, so the gap
//   before it is a straight line and the cubic after it starts afresh. Below
//   half the tick rate the hub also sends the frame of the tick before a
//   scheduled change, so the corner lies between two frames one tick apart;
// - past the newest frame while it is moving (the buffer ran dry) it
//   extrapolates along the last frames' velocity for one interval, then slows
//   to a stop within `maxExtrapolationIntervals` (2: at most 1.5 intervals'
//   motion); a decelerating property stops where its deceleration says.
//   When frames arrive, the difference between what was shown and the path
//   they reveal is kept as a correction that fades out over `correctionMs`
//   (a cosine ease), so the picture never jumps;
// - a `moving: false` frame is reached exactly (its own camera values) and
//   held; if a correction is still fading, once it has faded.
//
// The buffer also estimates its own error: each shown camera is compared with
// the path the buffer knows once frames cover its time (screen px at the
// camera's zoom; zoom, bearing, tilt, roll and fov differences counted at
// `errorRadiusPx` from the centre, an elevation difference as a distance).

import { normalizeBearing, normalizeRoll, shortestTurn, wrapLongitude, clampLatitude, pixelsPerMeter,
  DEFAULT_FOV_DEGREES } from '../geo/projection.js';
import { PlayoutClock, PLAYOUT_DEFAULTS } from './playout.js';

const DEFAULTS = {
  ...PLAYOUT_DEFAULTS,
  gapFactor: 4,
  minGapMs: 250,
  maxExtrapolationIntervals: 2,
  cubic: true, // monotone cubic between moving frames (else straight lines)
  correctionMs: 150,
  maxFrames: 240,
  keepMs: 1500, // frames kept behind the render time (for the error estimate)
  errorRadiusPx: 360,
  errorWindow: 120, // shown samples in the error RMS
};

const DEG = Math.PI / 180;
/** The narrowest field of view an extrapolation may reach (degrees; MapLibre's least is 0.1). */
const MIN_FOV = 0.1;
const COMPONENTS = ['dx', 'dy', 'dz', 'db', 'dt', 'dr', 'de', 'df', 'dax', 'day', 'dpt', 'dpl', 'dpb', 'dpr'];
// The optional parts of a camera: a delta says whether either end has them, so
// a motion between cameras without them makes cameras without them.
const FLAGS = ['roll', 'elevation', 'fov', 'anchor', 'padding'];
const NO_PADDING = { top: 0, left: 0, bottom: 0, right: 0 };

function copyCamera(c) {
  const out = { lat: c.lat, lon: c.lon, zoom: c.zoom, bearing: c.bearing, tilt: c.tilt };
  if (c.roll !== undefined) out.roll = c.roll;
  if (c.elevation !== undefined) out.elevation = c.elevation;
  if (c.fov !== undefined) out.fov = c.fov;
  if (c.anchor) out.anchor = { x: c.anchor.x, y: c.anchor.y };
  if (c.padding) out.padding = { ...NO_PADDING, ...c.padding };
  return out;
}

/** The flags of a delta that has those of d or e. */
function flagsOf(d, e = d) {
  const out = {};
  for (const k of FLAGS) out[k] = !!(d[k] || e[k]);
  return out;
}

/** Latitude to Web Mercator y in world units (0 at the north edge, 1 at the south; clamped). */
function unitY(lat) {
  const phi = clampLatitude(lat) * DEG;
  return 0.5 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI);
}

function latFromUnitY(y) {
  return (360 / Math.PI) * Math.atan(Math.exp((0.5 - y) * 2 * Math.PI)) - 90;
}

/**
 * The change from camera a to camera b, component-wise: dx, dy in Mercator
 * world units (x the short way), dz zoom, db bearing (shortest turn), dt tilt,
 * dr roll (shortest turn), de elevation (m), df fov (degrees), dax, day anchor,
 * dpt, dpl, dpb, dpr padding; and which optional fields either camera has.
 */
export function cameraDelta(a, b) {
  const aa = a.anchor || { x: 0.5, y: 0.5 };
  const ba = b.anchor || { x: 0.5, y: 0.5 };
  const ap = { ...NO_PADDING, ...a.padding };
  const bp = { ...NO_PADDING, ...b.padding };
  return {
    dx: shortestTurn(a.lon, b.lon) / 360,
    dy: unitY(b.lat) - unitY(a.lat),
    dz: b.zoom - a.zoom,
    db: shortestTurn(a.bearing, b.bearing),
    dt: b.tilt - a.tilt,
    dr: shortestTurn(a.roll || 0, b.roll || 0),
    de: (b.elevation || 0) - (a.elevation || 0),
    df: (b.fov ?? DEFAULT_FOV_DEGREES) - (a.fov ?? DEFAULT_FOV_DEGREES),
    dax: ba.x - aa.x,
    day: ba.y - aa.y,
    dpt: bp.top - ap.top,
    dpl: bp.left - ap.left,
    dpb: bp.bottom - ap.bottom,
    dpr: bp.right - ap.right,
    roll: a.roll !== undefined || b.roll !== undefined,
    elevation: a.elevation !== undefined || b.elevation !== undefined,
    fov: a.fov !== undefined || b.fov !== undefined,
    anchor: !!(a.anchor || b.anchor),
    padding: !!(a.padding || b.padding),
  };
}

/** Camera `c` moved by `f` times delta `d` (centre in Mercator). */
export function applyDelta(c, d, f) {
  const out = {
    lat: d.dy === 0 ? c.lat : clampLatitude(latFromUnitY(unitY(c.lat) + d.dy * f)),
    lon: d.dx === 0 ? c.lon : wrapLongitude(c.lon + d.dx * 360 * f),
    zoom: c.zoom + d.dz * f,
    bearing: d.db === 0 ? c.bearing : normalizeBearing(c.bearing + d.db * f),
    tilt: c.tilt + d.dt * f,
  };
  if (c.roll !== undefined || d.roll) out.roll = !d.dr ? c.roll || 0 : normalizeRoll((c.roll || 0) + d.dr * f);
  if (c.elevation !== undefined || d.elevation) out.elevation = (c.elevation || 0) + (d.de || 0) * f;
  if (c.fov !== undefined || d.fov) out.fov = (c.fov ?? DEFAULT_FOV_DEGREES) + (d.df || 0) * f;
  if (c.anchor || d.anchor) {
    const ca = c.anchor || { x: 0.5, y: 0.5 };
    out.anchor = { x: ca.x + d.dax * f, y: ca.y + d.day * f };
  }
  if (c.padding || d.padding) {
    const cp = { ...NO_PADDING, ...c.padding };
    out.padding = {
      top: cp.top + (d.dpt || 0) * f, left: cp.left + (d.dpl || 0) * f,
      bottom: cp.bottom + (d.dpb || 0) * f, right: cp.right + (d.dpr || 0) * f,
    };
  }
  return out;
}

function scaleDelta(d, f) {
  const out = flagsOf(d);
  for (const k of COMPONENTS) out[k] = (d[k] || 0) * f;
  return out;
}

function addDelta(d, e) {
  const out = flagsOf(d, e);
  for (const k of COMPONENTS) out[k] = (d[k] || 0) + (e[k] || 0);
  return out;
}

function isZeroDelta(d) {
  return !d || COMPONENTS.every((k) => !d[k]);
}

/**
 * How far apart two cameras look, in px: the centre's distance in world px at
 * a's zoom (its elevation difference counted as a distance too), and the zoom,
 * bearing, tilt, roll and fov differences as the displacement they cause
 * `radiusPx` from the centre.
 */
export function cameraDistancePx(a, b, radiusPx = 360) {
  const d = cameraDelta(a, b);
  const ws = 512 * Math.pow(2, a.zoom);
  const centre = Math.hypot(d.dx * ws, d.dy * ws, d.de ? d.de * pixelsPerMeter(a.lat, a.zoom) : 0);
  const zoom = radiusPx * Math.abs(Math.pow(2, d.dz) - 1);
  const turn = radiusPx * Math.abs(d.db) * DEG;
  const tilt = radiusPx * Math.abs(d.dt) * DEG;
  if (!d.dr && !d.df) return Math.hypot(centre, zoom, turn, tilt);
  return Math.hypot(centre, zoom, turn, tilt, radiusPx * Math.abs(d.dr) * DEG, radiusPx * Math.abs(d.df) * DEG);
}

/** PCHIP tangent at a knot between secants d1 (over h1) and d2 (over h2): no overshoot. */
function pchipTangent(h1, h2, d1, d2) {
  if (d1 === 0 || d2 === 0 || Math.sign(d1) !== Math.sign(d2)) return 0;
  const w1 = 2 * h2 + h1;
  const w2 = h2 + 2 * h1;
  return (w1 + w2) / (w1 / d1 + w2 / d2);
}

/**
 * Between moving frames a and b (fraction t), a monotone cubic per component
 * (centre in Web Mercator, zoom, bearing, tilt, anchor) through the previous
 * frame p, a and b: the tangent at a is PCHIP's (weighted harmonic mean of
 * the secants), the tangent at b the parabola through p, a, b, kept within
 * 0…3 × the secant a→b. It follows a curved path (an eased zoom, a flight)
 * more closely than a straight line, never overshoots the frames, and needs
 * no frame after b, so the curve does not change when the next one arrives.
 */
export function hermiteCamera(p, a, b, t) {
  if (t <= 0) return copyCamera(a.camera);
  if (t >= 1) return copyCamera(b.camera);
  const h1 = a.time - p.time;
  const h2 = b.time - a.time;
  const dp = cameraDelta(p.camera, a.camera); // p → a
  const db = cameraDelta(a.camera, b.camera); // a → b
  const s2 = t * t;
  const s3 = s2 * t;
  const h10 = s3 - 2 * s2 + t;
  const h01 = -2 * s3 + 3 * s2;
  const h11 = s3 - s2;
  const move = flagsOf(db, dp);
  for (const k of COMPONENTS) {
    const d1 = dp[k] / h1;
    const d2 = db[k] / h2;
    const ta = pchipTangent(h1, h2, d1, d2);
    let tb = d2 + ((d2 - d1) * h2) / (h1 + h2);
    if (d2 === 0 || Math.sign(tb) !== Math.sign(d2)) tb = 0;
    else if (Math.abs(tb) > 3 * Math.abs(d2)) tb = 3 * d2;
    move[k] = h10 * h2 * ta + h01 * db[k] + h11 * h2 * tb;
  }
  return applyDelta(a.camera, move, 1);
}

/**
 * A frame's `velocity` (per second) as rates of cameraDelta's components per ms
 * at camera c (roll, elevation and fov rates absent: 0); anchor and padding from
 * `secant`.
 */
function velocityRates(c, v, secant, ms) {
  const rates = {};
  for (const k of COMPONENTS) rates[k] = (secant[k] || 0) / ms;
  const cosLat = Math.max(1e-9, Math.cos(clampLatitude(c.lat) * DEG));
  rates.dx = v.lon / 360 / 1000;
  rates.dy = -(v.lat * DEG) / (2 * Math.PI * cosLat) / 1000;
  rates.dz = v.zoom / 1000;
  rates.db = v.bearing / 1000;
  rates.dt = v.tilt / 1000;
  rates.dr = (v.roll || 0) / 1000;
  rates.de = (v.elevation || 0) / 1000;
  rates.df = (v.fov || 0) / 1000;
  return rates;
}

/**
 * Between moving frames a and b that carry the hub's `velocity` (fraction t):
 * a cubic Hermite curve per component with the hub's own slope at both ends,
 * which follows an eased or flying path closely at any frame rate.
 */
export function hermiteVelocityCamera(a, b, t) {
  if (t <= 0) return copyCamera(a.camera);
  if (t >= 1) return copyCamera(b.camera);
  const ms = b.time - a.time;
  const d = cameraDelta(a.camera, b.camera);
  const ra = velocityRates(a.camera, a.velocity, d, ms);
  const rb = velocityRates(b.camera, b.velocity, d, ms);
  const s2 = t * t;
  const s3 = s2 * t;
  const h10 = s3 - 2 * s2 + t;
  const h01 = -2 * s3 + 3 * s2;
  const h11 = s3 - s2;
  const move = flagsOf(d);
  for (const k of COMPONENTS) move[k] = h10 * ms * ra[k] + h01 * d[k] + h11 * ms * rb[k];
  return applyDelta(a.camera, move, 1);
}

/**
 * Interpolates two cameras at fraction t in [0, 1] (no extrapolation): the
 * centre linear in Web Mercator, zoom linear, bearing and roll the short way,
 * tilt, elevation and fov linear.
 */
export function interpolateCamera(a, b, t) {
  if (t <= 0) return copyCamera(a);
  if (t >= 1) return copyCamera(b);
  return applyDelta(a, cameraDelta(a, b), t);
}

export class SnapshotBuffer {
  constructor(options = {}) {
    this.options = { ...DEFAULTS, ...options };
    this.clock = new PlayoutClock(this.options);
    this.tick = null;
    this.reset();
  }

  /** Forgets all frames and clock estimates (e.g. after a reconnect or a new welcome). Keeps the rate. */
  reset() {
    this.frames = [];
    this.lastSeq = -Infinity;
    this.clock.reset();
    this.last = null; // the previous sample: {rt, raw, shown, dry, rest, seq}
    this.correction = null; // {delta, at (hub ms)}: shown = raw + delta * fade(rt - at)
    this.changed = false;
    this.underruns = 0;
    this.underrunPending = false; // dry after a stall of the page's own: an underrun if the next sample is dry too
    this.lastDisplayAt = null;
    this.drySamples = 0;
    this.samples = 0;
    this.pendingErrors = [];
    this.errors = [];
  }

  /** The frame rate asked for or granted (frames/s): the first interval guess. */
  setRate(rate) {
    this.clock.setRate(rate);
  }

  /** The hub's room tick (Hz, `welcome.tick`): a motion started by a command begins within the tick before its `corner` frame. */
  setTick(tick) {
    this.tick = Number.isFinite(tick) && tick > 0 ? tick : null;
  }

  get rate() {
    return this.clock.rate;
  }

  /** Expected hub time between moving frames (ms). */
  get interval() {
    return this.clock.interval;
  }

  /** Playout delay in use (ms behind the hub clock beyond the clock offset; null before a frame). */
  get delay() {
    return this.clock.delay;
  }

  get targetDelay() {
    return this.clock.targetDelay;
  }

  /** Local time minus hub time of the least-delayed recent frame. */
  get clockOffset() {
    return this.clock.clockOffset;
  }

  /** Frames further apart than this (hub time) are not one motion. */
  get gapThreshold() {
    return Math.max(this.options.minGapMs, this.options.gapFactor * this.interval);
  }

  /** RMS of the recent error estimates in px (null before any). */
  get errorPx() {
    if (this.errors.length === 0) return null;
    return Math.sqrt(this.errors.reduce((s, e) => s + e * e, 0) / this.errors.length);
  }

  /** Playout figures for the HUD and tests. */
  get stats() {
    return {
      delay: this.delay,
      targetDelay: this.targetDelay,
      interval: this.interval,
      jitter: this.clock.jitter,
      lead: this.clock.lead,
      underruns: this.underruns,
      resyncs: this.clock.resyncs,
      speed: this.clock.speed,
      drySamples: this.drySamples,
      samples: this.samples,
      errorPx: this.errorPx,
    };
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
    const moving = !!frame.moving;
    const corner = frame.corner === true;
    // Only the gap between two moving frames is a frame interval: not the gap
    // before a resting frame (it may come one tick later) nor after one, nor
    // the early frames on either side of a change of course (the gap before a
    // corner frame, and gaps well short of the rate's).
    if (last && last.moving && moving && !corner) {
      const dt = frame.time - last.time;
      if (dt >= 0.6 * (1000 / this.rate) && dt <= this.gapThreshold) this.clock.observeInterval(dt);
    }
    this.clock.observe(frame.time, receivedAt);
    const velocity = moving && frame.velocity ? { ...frame.velocity } : null;
    this.frames.push({ seq: frame.seq, time: frame.time, camera: copyCamera(frame.camera), moving, corner, velocity, by: frame.by ?? null });
    if (this.frames.length > this.options.maxFrames) this.frames.shift();
    this.changed = true;
    return true;
  }

  /** Index of the last frame at or before hub time rt (-1 if none). */
  indexAt(rt) {
    const f = this.frames;
    let lo = 0;
    let hi = f.length - 1;
    if (hi < 0 || f[0].time > rt) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (f[mid].time <= rt) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * When the motion from frame a to the next frame b began (hub ms): at a, but after a rest or a gap
   * within the one interval before b, or the one hub tick before b when b is a `corner` (a command
   * started it: the hub sends the frame of the next tick). Drawing and extrapolating use the same start,
   * so the first frames of a motion are not drawn at one speed and extrapolated at another.
   */
  motionStart(a, b) {
    if (a.moving && b.time - a.time <= this.gapThreshold) return a.time;
    const lead = !a.moving && b.corner && this.tick ? 1000 / this.tick : this.interval;
    return Math.max(a.time, b.time - lead);
  }

  /**
   * The camera the frames give for hub time rt, without correction:
   * {camera, moving, seq, by, dry, rest}. rest: the final resting frame is
   * shown exactly. dry: rt is past a newest frame that is still moving.
   */
  evaluate(rt) {
    const frames = this.frames;
    const i = this.indexAt(rt);
    if (i < 0) {
      const a = frames[0];
      return { camera: copyCamera(a.camera), moving: frames.length === 1 ? a.moving : true, seq: a.seq, by: a.by, dry: false, rest: frames.length === 1 && !a.moving };
    }
    const a = frames[i];
    if (i === frames.length - 1) {
      if (!a.moving) return { camera: copyCamera(a.camera), moving: false, seq: a.seq, by: a.by, dry: false, rest: true };
      return { ...this.extrapolate(i, rt), moving: true, seq: a.seq, by: a.by, dry: true, rest: false };
    }
    const b = frames[i + 1];
    const hold = { camera: copyCamera(a.camera), moving: true, seq: a.seq, by: a.by, dry: false, rest: false };
    if (!a.moving && !b.moving) return hold; // a jump (`set`): shown at b's time
    const start = this.motionStart(a, b);
    if (rt <= start) return hold;
    const t = (rt - start) / (b.time - start);
    const p = frames[i - 1];
    const smooth = start === a.time && !a.corner && !b.corner && p && p.moving && a.time - p.time <= this.gapThreshold;
    let camera;
    if (start === a.time && a.velocity && b.velocity && this.options.cubic) camera = hermiteVelocityCamera(a, b, t);
    else if (smooth && this.options.cubic) camera = hermiteCamera(p, a, b, t);
    else camera = interpolateCamera(a.camera, b.camera, t);
    return { camera, moving: true, seq: a.seq, by: b.by, dry: false, rest: false };
  }

  /**
   * Past the newest (moving) frame i: along its velocity (the hub's `velocity`
   * when the frame has one, else the last frames' secant) for one interval,
   * then slowing to a stop. A component that the last three frames show
   * decelerating is extrapolated with that deceleration and stops where it
   * would (so the end of an ease is not overshot).
   */
  extrapolate(i, rt) {
    const frames = this.frames;
    const a = frames[i];
    const p = frames[i - 1];
    if (!p) return { camera: copyCamera(a.camera) };
    // (after a rest, the motion to the newest frame began where evaluate draws it from: the same slope)
    const span = a.time - this.motionStart(p, a);
    if (!(span > 0)) return { camera: copyCamera(a.camera) };
    // effective time: full velocity for one interval (exact on a straight
    // path), then slowing linearly to a stop over `maxExtrapolationIntervals - 1` more
    const full = this.interval;
    const slow = Math.max(0, this.options.maxExtrapolationIntervals - 1) * this.interval;
    const e = rt - a.time;
    let tau = Math.min(e, full);
    if (e > full && slow > 0) {
      const s = Math.min(e - full, slow);
      tau += s - (s * s) / (2 * slow);
    }
    const v = scaleDelta(cameraDelta(p.camera, a.camera), 1 / span); // per ms, over the last span
    let acc = null;
    const q = frames[i - 2];
    const span0 = q ? p.time - q.time : 0;
    if (q && q.moving && p.moving && span0 > 0 && span0 <= this.gapThreshold) {
      const v0 = scaleDelta(cameraDelta(q.camera, p.camera), 1 / span0);
      acc = scaleDelta(addDelta(v, scaleDelta(v0, -1)), 2 / (span0 + span));
    }
    // the hub's own slope at the newest frame when it sent one
    const exact = a.velocity ? velocityRates(a.camera, a.velocity, v, 1) : null;
    const move = flagsOf(v);
    for (const k of COMPONENTS) {
      const ak = acc ? acc[k] : 0;
      const va = exact ? exact[k] : v[k] + (ak * span) / 2; // the secant is the velocity half a span back
      const vk = exact ? exact[k] : v[k];
      if (ak !== 0 && Math.sign(ak) !== Math.sign(vk)) {
        // decelerating: stop where it would (at once if it already has)
        if (Math.sign(va) !== Math.sign(vk)) {
          move[k] = 0;
          continue;
        }
        const t = Math.min(tau, -va / ak);
        move[k] = va * t + (ak * t * t) / 2;
      } else {
        move[k] = vk * tau;
      }
    }
    const camera = applyDelta(a.camera, move, 1);
    camera.tilt = Math.max(0, camera.tilt);
    if (camera.fov !== undefined) camera.fov = Math.max(MIN_FOV, camera.fov);
    return { camera };
  }

  /**
   * The camera to paint for the display frame that begins at local
   * `displayAt` (the animation-frame callback's timestamp) and is on screen
   * `lead` ms later (FramePacer). Frames pushed until now count. Returns
   * `{camera, moving, seq, by, time, dry}` (`time` = hub render time), or null
   * before the first frame.
   */
  sample(displayAt, lead = 0) {
    const frames = this.frames;
    if (frames.length === 0) return null;
    const newest = frames[frames.length - 1];
    const paintAt = displayAt + lead;
    // The page itself stalled before this sample (a display frame more than twice the lead after the last: a
    // long draw, new tiles): its frames are queued, handled after this sample. What it sees is the page's own
    // stall, not the frames' lateness: not ranked, and an underrun now does not grow the delay (unless the next
    // display frame is dry too: the frames are late after all).
    const pageStalled = this.lastDisplayAt !== null && displayAt - this.lastDisplayAt > 2 * Math.max(lead, 1000 / 60);
    // while it moves, another frame is due one interval after the newest: how late is it, as this sample sees it;
    // and the clock may run past it by the extrapolation allowance, no further
    let limit = Infinity;
    if (newest.moving) {
      if (!pageStalled) this.clock.observeSample(paintAt, newest.time);
      limit = newest.time + this.options.maxExtrapolationIntervals * this.interval;
    }
    const rt = this.clock.advance(displayAt, lead, limit);
    const raw = this.evaluate(rt);

    // Frames that arrived since the last sample may change what the path was
    // at the last sample's time (it was extrapolated, or a motion began just
    // before it): keep the picture continuous by carrying the difference.
    const last = this.last;
    if (last && this.changed && rt >= last.rt) {
      const revised = this.evaluate(last.rt).camera;
      const diff = cameraDelta(revised, last.raw);
      // (rounding differences, far below a pixel, are not worth a correction)
      if (!isZeroDelta(diff) && cameraDistancePx(revised, last.raw) > 1e-3) {
        const current = this.correctionAt(last.rt);
        this.correction = { delta: current ? addDelta(current, diff) : diff, at: last.rt };
      }
    }
    this.changed = false;

    // The correction fades out over correctionMs; a resting frame's camera is
    // shown exactly once it has (at most correctionMs after its time).
    let shown = raw.camera;
    let { moving, rest } = raw;
    if (this.correction) {
      const c = this.correctionAt(rt);
      if (c) {
        shown = applyDelta(raw.camera, c, 1);
        moving = true;
        rest = false;
      } else {
        this.correction = null;
      }
    }

    this.samples++;
    // an underrun makes the delay grow now, unless the page itself stalled before this sample
    if (raw.dry) {
      this.drySamples++;
      if (!last || !last.dry) {
        this.underruns++;
        if (pageStalled) this.underrunPending = true;
        else this.clock.underrun();
      } else if (this.underrunPending) {
        this.underrunPending = false;
        this.clock.underrun();
      }
    } else {
      this.underrunPending = false;
    }
    this.lastDisplayAt = displayAt;
    if (moving) this.trackError(rt, shown);
    this.resolveErrors();
    this.last = { rt, raw: raw.camera, shown, dry: raw.dry, rest, seq: raw.seq };
    this.prune(rt);
    return { camera: shown, moving, seq: raw.seq, by: raw.by, time: rt, dry: raw.dry };
  }

  /** The correction delta in effect at hub time rt (null once it has faded out). */
  correctionAt(rt) {
    const c = this.correction;
    if (!c) return null;
    const u = Math.max(0, rt - c.at) / this.options.correctionMs;
    if (u >= 1) return null;
    return scaleDelta(c.delta, 0.5 * (1 + Math.cos(Math.PI * u))); // eases out and in: no kink
  }

  trackError(rt, shown) {
    this.pendingErrors.push({ rt, shown });
    if (this.pendingErrors.length > 240) this.pendingErrors.shift();
  }

  /** Scores shown cameras whose hub time the frames now cover. */
  resolveErrors() {
    const frames = this.frames;
    const newest = frames[frames.length - 1];
    const o = this.options;
    let n = 0;
    for (const p of this.pendingErrors) {
      if (p.rt > newest.time && newest.moving) break; // not known yet
      n++;
      if (p.rt < frames[0].time) continue; // too old to score
      const known = this.evaluate(p.rt).camera;
      this.errors.push(cameraDistancePx(known, p.shown, o.errorRadiusPx));
      if (this.errors.length > o.errorWindow) this.errors.shift();
    }
    if (n) this.pendingErrors.splice(0, n);
  }

  /** Drops frames that can no longer matter. */
  prune(rt) {
    const frames = this.frames;
    const keepFrom = rt - this.options.keepMs;
    let i = 0;
    while (i + 2 < frames.length && frames[i + 1].time <= keepFrom) i++;
    if (i > 0) frames.splice(0, i);
  }
}
