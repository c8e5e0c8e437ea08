// The hub's gesture rules (Sources/CameraMotion/Gestures/GestureEngine*.swift)
// in JavaScript, so that a driver's page can move its own map at once and the
// hub's answer then agrees with it (clients/js/src/drive/prediction.js). Pure: no DOM, no
// clock; times are passed in. Tests/Vectors/gestures.json, written by the
// Swift engine, is checked by both the Swift tests and web/tests/.
//
// Cameras are wire cameras {lat, lon, zoom, bearing, tilt, roll?, elevation?, fov?, anchor?, padding?}
// (gestures keep roll, elevation and fov as they are);
// longitudes here stay continuous (a pan across the antimeridian does not jump)
// and are wrapped only for comparison with the hub's.

import { cameraPlacing, groundPoint, levelHorizonY, levelPoint, principalPoint, worldSize, normalizeBearing, normalizeRoll,
  shortestTurn, nearestLongitude, wrapLongitude, MAX_LATITUDE } from '../geo/projection.js';

/** The engine's tuning (GestureSettings' defaults, MapLibre's where it has one). */
export const GESTURE_SETTINGS = Object.freeze({
  velocityWindow: 0.1, // s of client time over which the release velocity is measured
  momentumMaxPause: 0.05, // s: a finger that stopped longer before lifting does not fling
  momentumLinearity: 0.3,
  momentumDeceleration: 2500, // px/s²
  momentumMaxSpeed: 1400, // px/s
  momentumCurve: [0, 0, 0.3, 1],
  momentumHorizonFraction: 0.85,
  momentumMaxWorldFraction: 0.45,
  pinchRotationThreshold: 4, // degrees
  tiltDegreesPerPixel: 0.5,
  tapZoomStep: 1,
  tapZoomDuration: 0.3, // s
  tapZoomCurve: [0.25, 0.1, 0.25, 1], // MapLibre's defaultEasing
  scrollZoomRate: 1 / 450, // zoom levels per px of wheel delta
  scrollMaxZoomPerEvent: 1,
  scrollZoomDuration: 0.2, // s
  scrollZoomCurve: [0, 0, 0.58, 1], // easeOut
});

/** The room limits when the hub has said nothing else (CameraLimits' defaults). */
export const DEFAULT_LIMITS = Object.freeze({ minZoom: 0, maxZoom: 22, minTilt: 0, maxTilt: 60, maxTiltByZoom: [], bounds: null,
  maxRoll: 180 });

/** The properties each kind claims on the hub (GestureKind.claims). */
export function claimsOf(kind, aroundPoint = false) {
  switch (kind) {
    case 'pan': return ['center'];
    case 'pinch': return ['center', 'zoom', 'bearing'];
    case 'tilt': return ['tilt'];
    case 'rotate': return aroundPoint ? ['center', 'bearing'] : ['bearing'];
    case 'doubleTap': case 'twoFingerTap': case 'scroll': return ['center', 'zoom'];
    default: return [];
  }
}

export const CONTINUOUS_KINDS = ['pan', 'pinch', 'tilt', 'rotate'];
export const ZOOM_KINDS = ['doubleTap', 'twoFingerTap', 'scroll'];

// ---------------------------------------------------------------------------
// Limits and timing
// ---------------------------------------------------------------------------

function maxTiltAt(limits, zoom) {
  // As on the wire ([zoom, tilt] pairs, sorted by zoom); {zoom, tilt} objects are taken too.
  const table = (limits.maxTiltByZoom ?? []).map((e) => (Array.isArray(e) ? { zoom: e[0], tilt: e[1] } : e));
  if (!table.length) return limits.maxTilt;
  let tilt;
  if (zoom <= table[0].zoom) tilt = table[0].tilt;
  else if (zoom >= table.at(-1).zoom) tilt = table.at(-1).tilt;
  else {
    let i = 1;
    while (table[i].zoom < zoom) i++;
    const a = table[i - 1];
    const b = table[i];
    tilt = a.tilt + ((b.tilt - a.tilt) * (zoom - a.zoom)) / (b.zoom - a.zoom);
  }
  return Math.max(limits.minTilt, Math.min(limits.maxTilt, tilt));
}

function containsLongitude(bounds, lon) {
  const span = bounds.west > bounds.east ? bounds.east + 360 - bounds.west : bounds.east - bounds.west;
  if (span >= 360) return true;
  const centre = bounds.west + span / 2;
  return Math.abs(nearestLongitude(lon, centre) - centre) <= span / 2 + 1e-12;
}

/** `camera` clamped to `limits` as the hub clamps it (zoom, tilt for that zoom, bearing, roll within ±maxRoll, anchor, target). */
export function clampCamera(camera, limits = DEFAULT_LIMITS) {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const out = { ...camera };
  out.zoom = Math.min(Math.max(out.zoom, l.minZoom), l.maxZoom);
  out.tilt = Math.min(Math.max(out.tilt, l.minTilt), maxTiltAt(l, out.zoom));
  out.bearing = normalizeBearing(out.bearing);
  if (out.roll !== undefined) out.roll = Math.min(Math.max(normalizeRoll(out.roll), -l.maxRoll), l.maxRoll);
  if (out.anchor) out.anchor = { x: Math.min(Math.max(out.anchor.x, 0), 1), y: Math.min(Math.max(out.anchor.y, 0), 1) };
  let south = -MAX_LATITUDE;
  let north = MAX_LATITUDE;
  const b = l.bounds;
  if (b) {
    south = Math.max(south, b.south);
    north = Math.min(north, b.north);
    if (south > north) {
      south = (south + north) / 2;
      north = south;
    }
  }
  out.lat = Math.min(Math.max(out.lat, south), north);
  if (b && !containsLongitude(b, out.lon)) {
    const lon = wrapLongitude(out.lon);
    const edge = Math.abs(shortestTurn(lon, b.west)) < Math.abs(shortestTurn(lon, b.east)) ? b.west : b.east;
    out.lon = nearestLongitude(edge, out.lon);
  }
  return out;
}

/** Progress at elapsed fraction u of a CSS cubic Bézier [x1, y1, x2, y2] (TimingCurve.progress). */
export function curveProgress([x1, y1, x2, y2], u) {
  const x = Math.min(Math.max(u, 0), 1);
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const cx = 3 * x1;
  const bx = 3 * (x2 - x1) - cx;
  const ax = 1 - cx - bx;
  const cy = 3 * y1;
  const by = 3 * (y2 - y1) - cy;
  const ay = 1 - cy - by;
  const curveX = (s) => ((ax * s + bx) * s + cx) * s;
  const curveY = (s) => ((ay * s + by) * s + cy) * s;
  const slopeX = (s) => (3 * ax * s + 2 * bx) * s + cx;
  let s = x;
  for (let i = 0; i < 8; i++) {
    const error = curveX(s) - x;
    if (Math.abs(error) < 1e-12) return curveY(s);
    const d = slopeX(s);
    if (Math.abs(d) < 1e-9) break;
    s -= error / d;
  }
  let lo = 0;
  let hi = 1;
  s = x;
  for (let i = 0; i < 60; i++) {
    const value = curveX(s);
    if (Math.abs(value - x) < 1e-13) break;
    if (value < x) lo = s;
    else hi = s;
    s = (lo + hi) / 2;
  }
  return curveY(s);
}

// ---------------------------------------------------------------------------
// Mercator helpers (unit square, as the Swift core's WebMercator.unitX/unitY)
// ---------------------------------------------------------------------------

const unitX = (lon) => (lon + 180) / 360;
const unitY = (lat) => 0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI);
const lonOfUnitX = (x) => x * 360 - 180;
const latOfUnitY = (y) => ((2 * Math.atan(Math.exp((0.5 - y) * 2 * Math.PI)) - Math.PI / 2) * 180) / Math.PI;

/** `camera` with the `held` properties of `to` written in (MotionPlan.interpolate at p = 1). */
function take(camera, to, held) {
  const out = { ...camera };
  if (held.includes('center')) {
    out.lat = to.lat;
    out.lon = to.lon;
  }
  if (held.includes('zoom')) out.zoom = to.zoom;
  if (held.includes('tilt')) out.tilt = to.tilt;
  if (held.includes('bearing')) out.bearing = to.bearing;
  return out;
}

const finite = (c) => c && Number.isFinite(c.lat) && Number.isFinite(c.lon);

// ---------------------------------------------------------------------------
// The release velocity (PointerTrack) and pan momentum (PanMomentum)
// ---------------------------------------------------------------------------

export class PointerTrack {
  constructor() {
    this.samples = [];
    this.lastMoveTime = null;
  }

  /** A sample at client time t (ms), keeping what a window of `keep` ms needs. */
  add(t, x, y, keep) {
    const last = this.samples.at(-1);
    if (last && (last.x !== x || last.y !== y)) this.lastMoveTime = t;
    this.samples.push({ t, x, y });
    while (this.samples.length > 2 && this.samples[1].t <= t - keep) this.samples.shift();
  }

  get last() {
    const s = this.samples.at(-1);
    return s ? { x: s.x, y: s.y } : null;
  }

  position(time) {
    const first = this.samples[0];
    if (!first) return null;
    if (time <= first.t) return { x: first.x, y: first.y };
    let i = -1;
    for (let j = this.samples.length - 1; j >= 0; j--) {
      if (this.samples[j].t <= time) {
        i = j;
        break;
      }
    }
    if (i < 0) return { x: first.x, y: first.y };
    const a = this.samples[i];
    if (i + 1 >= this.samples.length) return { x: a.x, y: a.y };
    const b = this.samples[i + 1];
    const f = (time - a.t) / (b.t - a.t);
    return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
  }

  /** px/s over the last `window` ms, or null when no time has passed. */
  velocity(window) {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first) return null;
    const start = Math.max(last.t - window, first.t);
    const span = last.t - start;
    if (!(span > 0)) return null;
    const from = this.position(start);
    return { x: ((last.x - from.x) / span) * 1000, y: ((last.y - from.y) / span) * 1000 };
  }
}

function panMomentum(velocity, s) {
  const magnitude = Math.hypot(velocity.x, velocity.y);
  if (!(magnitude > 0) || !(s.momentumLinearity > 0) || !(s.momentumDeceleration > 0)) return null;
  const speed = Math.min(magnitude * s.momentumLinearity, s.momentumMaxSpeed);
  const duration = speed / (s.momentumDeceleration * s.momentumLinearity);
  const distance = (speed * duration) / 2;
  return { dx: (velocity.x / magnitude) * distance, dy: (velocity.y / magnitude) * distance, duration };
}

function scaleMomentum(m, k) {
  m.dx *= k;
  m.dy *= k;
  m.duration *= k;
}

function worldDistance(a, b) {
  const size = worldSize(a.zoom);
  const dx = (unitX(b.lon) - unitX(a.lon)) * size;
  const dy = (unitY(b.lat) - unitY(a.lat)) * size;
  return Math.hypot(dx, dy);
}

// ---------------------------------------------------------------------------
// Continuous gestures
// ---------------------------------------------------------------------------

/**
 * One continuous gesture (pan, pinch, tilt, rotate) from its `begin`, as the
 * hub's engine keeps it: every change is computed from the camera at begin and
 * the cumulative input, the grabbed point placed under the finger.
 */
export class ContinuousGesture {
  /**
   * @param {object} begin      the `begin` gesture message
   * @param {object} start      the camera the gesture starts from
   * @param {{width, height}} viewport
   */
  constructor(begin, start, viewport, settings = GESTURE_SETTINGS) {
    this.kind = begin.kind;
    this.settings = settings;
    this.viewport = viewport;
    this.start = { ...start };
    const point = Number.isFinite(begin.x) && Number.isFinite(begin.y) ? { x: begin.x, y: begin.y } : null;
    this.pivot = this.kind === 'rotate' ? point : null;
    this.claims = claimsOf(this.kind, this.pivot !== null);
    this.grabbed = null;
    this.beginPoint = point;
    const at = this.pivot ?? point;
    if (at) this.grabbed = groundPoint(start, viewport, at);
    this.rotationOffset = null;
    this.track = new PointerTrack();
    this.lastInput = begin;
    if (this.kind === 'pan' && point) this.track.add(begin.t, point.x, point.y, settings.velocityWindow * 1000);
  }

  /**
   * Restarts the gesture from `start`, the camera the hub says it began from
   * (its acknowledgement of the `begin`): the grabbed point is taken again in
   * it. The pointer track and the pinch's rotation threshold are input only
   * and stay.
   */
  rebase(start) {
    this.start = { ...start };
    const at = this.pivot ?? this.beginPoint;
    this.grabbed = at ? groundPoint(start, this.viewport, at) : null;
  }

  /** Records a change's pointer position for the release velocity (pan). */
  record(input) {
    this.lastInput = input;
    if (this.kind === 'pan') this.track.add(input.t, input.x, input.y, this.settings.velocityWindow * 1000);
  }

  /**
   * The camera after the change `input` (its cumulative values since begin),
   * applied to `current` (the room's camera: what the gesture does not claim
   * comes from it). Pure but for the grabbed point, taken at the first change
   * that has ground under it when the begin had none (as the hub does).
   */
  step(input, current, limits = DEFAULT_LIMITS) {
    const s = this.settings;
    let next = { ...current };
    let place = null;
    switch (this.kind) {
      case 'pan':
        place = { x: input.x, y: input.y };
        break;
      case 'pinch': {
        const rotation = input.rotation ?? 0;
        const threshold = s.pinchRotationThreshold;
        if (this.rotationOffset === null && Math.abs(rotation) >= threshold) this.rotationOffset = rotation > 0 ? threshold : -threshold;
        next.zoom = this.start.zoom + Math.log2(input.scale);
        if (this.rotationOffset !== null) next.bearing = this.start.bearing - (rotation - this.rotationOffset);
        place = { x: input.x, y: input.y };
        break;
      }
      case 'tilt':
        next.tilt = this.start.tilt - s.tiltDegreesPerPixel * input.dy;
        break;
      case 'rotate':
        next.bearing = this.start.bearing + input.rotation;
        place = this.pivot;
        break;
      default:
        return current;
    }
    next = clampCamera(next, limits);
    if (place) {
      if (this.grabbed === null) this.grabbed = groundPoint(current, this.viewport, place);
      if (this.grabbed) {
        const placed = cameraPlacing(next, this.viewport, this.grabbed, place);
        if (finite(placed)) next = placed;
      }
    }
    return clampCamera(take(current, next, this.claims), limits);
  }

  /** record(input), then step(input, current). */
  apply(input, current, limits = DEFAULT_LIMITS) {
    this.record(input);
    return this.step(input, current, limits);
  }

  /**
   * A pan's momentum after an `end` at client time `endT` (ms) from `camera`:
   * {to, duration (s), curve} or null when the finger was not moving at release.
   */
  momentum(endT, camera, limits = DEFAULT_LIMITS) {
    const s = this.settings;
    if (this.kind !== 'pan') return null;
    const lastMove = this.track.lastMoveTime;
    if (lastMove === null || !(endT - lastMove < s.momentumMaxPause * 1000)) return null;
    const velocity = this.track.velocity(s.velocityWindow * 1000);
    const from = this.track.last;
    if (!velocity || !from) return null;
    const m = panMomentum(velocity, s);
    if (!m) return null;
    const geo = groundPoint(camera, this.viewport, from);
    if (!geo) return null;
    // Tilted: the grabbed point must stay below the horizon (in the level picture, when rolled).
    const levelFrom = levelPoint(camera, this.viewport, from);
    const levelDy = levelPoint(camera, this.viewport, { x: from.x + m.dx, y: from.y + m.dy }).y - levelFrom.y;
    const horizon = levelHorizonY(camera, this.viewport);
    if (levelDy < 0 && Number.isFinite(horizon)) {
      const py = principalPoint(camera, this.viewport).py;
      const limit = py - (py - horizon) * s.momentumHorizonFraction;
      if (levelFrom.y + levelDy < limit) scaleMomentum(m, Math.max(0, (levelFrom.y - limit) / -levelDy));
    }
    const maxTravel = s.momentumMaxWorldFraction * worldSize(camera.zoom);
    let destination = null;
    for (let i = 0; i < 12; i++) {
      if (!(Math.hypot(m.dx, m.dy) >= 0.5)) return null;
      const placed = cameraPlacing(camera, this.viewport, geo, { x: from.x + m.dx, y: from.y + m.dy });
      if (!finite(placed)) return null;
      const travel = worldDistance(camera, placed);
      if (travel <= maxTravel) {
        destination = placed;
        break;
      }
      scaleMomentum(m, (maxTravel / travel) * 0.999);
    }
    if (!destination) return null;
    const to = clampCamera({ ...camera, lat: destination.lat, lon: nearestLongitude(destination.lon, camera.lon) }, limits);
    return { id: 'momentum', plan: easePlan(camera, to, m.duration, s.momentumCurve) };
  }
}

// ---------------------------------------------------------------------------
// Animations the gestures start: pan momentum (an ease of the centre) and the
// tap and scroll zooms (a zoom around the point)
// ---------------------------------------------------------------------------

/** An ease of the centre from `from` to `to` (zoom unchanged: a straight line in Mercator). */
export function easePlan(from, to, duration, curve) {
  return { kind: 'ease', from: { ...from }, to: { ...to, lon: nearestLongitude(to.lon, from.lon) }, duration, curve, held: ['center'] };
}

/**
 * The zoom a double tap, two-finger tap or scroll starts from `camera`, as the
 * hub plans it: {id, plan, zoom (its target)}. `baseZoom` is the target of the
 * client's zoom still under way (successive zooms add up), else camera.zoom.
 */
export function zoomGesture(input, camera, baseZoom, viewport, limits = DEFAULT_LIMITS, settings = GESTURE_SETTINGS) {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const s = settings;
  let change;
  let duration;
  let curve;
  switch (input.kind) {
    case 'doubleTap':
      [change, duration, curve] = [s.tapZoomStep, s.tapZoomDuration, s.tapZoomCurve];
      break;
    case 'twoFingerTap':
      [change, duration, curve] = [-s.tapZoomStep, s.tapZoomDuration, s.tapZoomCurve];
      break;
    case 'scroll': {
      const limit = s.scrollMaxZoomPerEvent;
      change = Math.min(Math.max(-input.delta * s.scrollZoomRate, -limit), limit);
      [duration, curve] = [s.scrollZoomDuration, s.scrollZoomCurve];
      break;
    }
    default:
      return null;
  }
  const point = Number.isFinite(input.x) && Number.isFinite(input.y) ? { x: input.x, y: input.y } : { x: viewport.width / 2, y: viewport.height / 2 };
  const zoom = Math.min(Math.max(baseZoom + change, l.minZoom), l.maxZoom);
  return { id: input.kind, zoom, plan: aroundPlan(camera, { ...camera, zoom }, point, viewport, duration, curve, l) };
}

/** A zoom around `point` from `from` to `target`'s zoom (the hub's `.around` plan). */
export function aroundPlan(from, target, point, viewport, duration, curve, limits = DEFAULT_LIMITS) {
  const geo = groundPoint(from, viewport, point);
  const clamped = clampCamera({ ...from, zoom: target.zoom }, limits);
  if (!geo) return { kind: 'ease', from: { ...from }, to: take(from, clamped, ['zoom']), duration, curve, held: ['center', 'zoom'] };
  // As the hub: the clamped target camera (its tilt too) with the start's target, turned around the point.
  const changed = { ...clamped, lat: from.lat, lon: from.lon };
  const moved = cameraPlacing(changed, viewport, geo, point);
  const end = clampCamera(finite(moved) ? moved : changed, limits);
  const to = { ...from, zoom: clamped.zoom, lat: end.lat, lon: end.lon };
  return { kind: 'around', from: { ...from }, to, geo, point, viewport, duration, curve, held: ['center', 'zoom'] };
}

/** The hub's plan for an acknowledged animation: from its camera to `to` (zoom kinds around `point`). */
export function planFromAck(id, from, to, duration, point, viewport, settings = GESTURE_SETTINGS) {
  if (id === 'momentum') return easePlan(from, to, duration, settings.momentumCurve);
  const curve = id === 'scroll' ? settings.scrollZoomCurve : settings.tapZoomCurve;
  const geo = point ? groundPoint(from, viewport, point) : null;
  const target = { ...to, lon: nearestLongitude(to.lon, from.lon) };
  if (!geo) return { kind: 'ease', from: { ...from }, to: target, duration, curve, held: ['center', 'zoom'] };
  return { kind: 'around', from: { ...from }, to: target, geo, point, viewport, duration, curve, held: ['center', 'zoom'] };
}

/**
 * `current` with the plan's properties at elapsed seconds `elapsed`
 * (MotionPlan.write after the timing curve; exactly `to` at the end).
 */
export function evaluatePlan(plan, elapsed, current = plan.from, limits = DEFAULT_LIMITS) {
  const u = plan.duration > 0 ? elapsed / plan.duration : 1;
  const p = curveProgress(plan.curve, u);
  const { from, to } = plan;
  const out = { ...current };
  if (p >= 1) return clampCamera(take(out, to, plan.held), limits);
  if (plan.held.includes('zoom')) out.zoom = from.zoom + (to.zoom - from.zoom) * p;
  if (plan.kind === 'around') {
    const placed = cameraPlacing(out, plan.viewport, plan.geo, plan.point);
    if (finite(placed)) {
      out.lat = placed.lat;
      out.lon = placed.lon;
    }
  } else if (plan.held.includes('center')) {
    const finalScale = 2 ** (to.zoom - from.zoom);
    const base = to.zoom > from.zoom ? Math.min(2, finalScale) : Math.max(0.5, finalScale);
    const k = p * base ** (1 - p);
    const x0 = unitX(from.lon);
    const y0 = unitY(from.lat);
    out.lon = lonOfUnitX(x0 + (unitX(to.lon) - x0) * k);
    out.lat = latOfUnitY(y0 + (unitY(to.lat) - y0) * k);
  }
  return clampCamera(out, limits);
}
