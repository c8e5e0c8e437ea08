// Hub <-> viewer WebSocket messages of protocol v1 (path /hub, subprotocol
// camhub.v1, JSON text frames): validation of what the hub sends and builders
// for what the viewer sends. Pure: no DOM, no socket.
//
// Camera on the wire: {"lat", "lon", "zoom", "bearing", "tilt"} plus, each only
// when not at its default (absent means the default), "roll" (degrees, -180..180;
// 0), "elevation" (the centre's altitude, m; 0) and "fov" (vertical field of view,
// degrees; 36.86989764584402 = 2 atan(1/3), MapLibre's), "anchor": {"x", "y"}
// (0..1 of the padded viewport) when not centred, and "padding": {"top", "left",
// "bottom", "right"} (px) when not zero. The hub sends lon in [-180, 180) and
// bearing in [0, 360); tilt (MapLibre's pitch) goes up to 85. A frame's
// `velocity` {lat, lon, zoom, bearing, tilt} (per second) has "roll" (deg/s),
// "elevation" (m/s) and "fov" (deg/s) only when not zero. Every hub `time` is the
// hub's wall clock in ms since the epoch. Durations and delays are in seconds.
//
// Hub -> viewer (parseMessage validates; unknown extra fields are kept):
//   welcome   {client, room, role, rate, tick, time, seq, camera, limits, presenter, roster, gestures,
//              clients, followers, following, exploring, away, followPolicy: {explore},
//              animations?: [{id, by, kind, status, properties, started, duration, after, starts?}],
//              tracking?: {mode, location: {lat, lon, heading?} | null}, route?: [{lat, lon}],
//              projection?: mercator|globe,   how the room's map draws the world (MapLibre GL JS 5 projection)
//              story?: {count, index, title, notes, playing, drivers}}   the storyboard, when the room has one
//   event routeChanged {by, append, total, points: [{lat, lon}]}   the route replaced (append false) or extended
//   frame     {seq, time, camera, moving, by, corner?, epoch?, velocity?: {lat, lon, zoom, bearing, tilt, roll?,
//              elevation?, fov?}, pointer?: {lat, lon, by} | null}
//   animation {id, status: started|interrupted|finished|cancelled|superseded, by, owner?, lost, clamped,
//              camera?, reason?}   owner: whose animation (with roomAnimations, others' too)
//   event     {event, time, ...}       event: steady|significantChange|trackingModeChanged|limitsChanged|
//                                             presenterChanged|joined|left|tap|longPress|audience|
//                                             followChanged|summoned|followPolicyChanged|viewChanged|
//                                             projectionChanged
//   event followChanged {client, name, state}; summoned {by: {client, name}}; followPolicyChanged {explore, by};
//         viewChanged {view: {by, width, height, padding}}   the view of whoever moves the camera
//         projectionChanged {projection: mercator|globe, by}   the room's map went to the globe or back
//         storyStep {index, count, title, notes, camera, playing, by}   the room went to a step of its storyboard
//         storyChanged {op, count, index, title, notes, playing, drivers, by}   the storyboard was edited (protocol/story.js)
//         viewports {clients: [{client, name, state, region: [[lon, lat] x4]}] (at most 50), others}   where the
//               room's explorers look (presenters and drivers only; corners: top-left, top-right, bottom-right, bottom-left)
//   result    {id: "summon", what: "summon", summoned}   the answer to a presenter's summon
//   result    {id, what?, points | bounds+quad | camera}
//   error     {code, message, ref}     code: bad_message|unknown_type|not_joined|forbidden|conflict|
//                                            unknown_animation|rate_limited|full|policy|unavailable|token
//   pong      {t, time}
//   tokenExpiring {exp}                the signed token expires at exp (s since 1970) within a minute: refresh,
//                                      or the hub closes with 4001; tokenRefreshed {exp}: a refresh was accepted
//   gestures  {disabled: [kinds]}      the answer to a `gestures` toggle: the kinds now disabled for you
//   gestureAck {seq, kind, phase|null, time, camera, animation?: {id, duration, to}}  to a gesture's sender only,
//             when it carried `seq`: the hub applied it and made `camera` (and started `animation`)
//   event tap {by, x, y, lat, lon}; longPress {by, phase: begin|change|end|cancel, x, y, lat|null, lon|null};
//         gesture {by, kind, phase|null, disabled, x?, y?, lat?, lon?} (every gesture of the room, opt-in)
//
// Viewer -> hub (builders return plain objects; encode() makes the JSON text):
//   hello     {room, role, name?, token?, rate?, viewport?, events?, fit?, encoding?}   first message
//   set       {camera}                               camera may be partial
//   ease      {camera, id?, duration?, curve?, around?}
//   fly       {camera, id?, duration?, speed?, curve?, minZoom?}
//   animate   {to, duration, id?, curve?, delay?, after?}
//   cancel    {id} | {all: true} | {}                one / every animation / this client's own
//   gesture   {kind, phase?, x, y, t, scale?, rotation?, dy?, delta?, seq?}   one gesture per message (seq: see gestureAck)
//   gestures  {disable?: [kinds], enable?: [kinds]}  switches default actions (not a batch)
//   viewport  {width, height}
//   limits    {minZoom?, maxZoom?, minTilt?, maxTilt?, maxTiltByZoom?, bounds?}   presenter only
//   track     {mode?, location?}
//   route     {points: [{lat, lon}], append?}    the room's route; [] clears it
//   query     {id, what: project|unproject|bounds|fit|story, points?|bounds?|padding?}
//   ping      {t}
//   follow    {state: following|exploring|away}   this page's own follow state
//   fit       {mode: same|cover}                 how this page fits the room's camera to its screen
//   pointer   {lat, lon} | {lat: null}           drivers, presenters: the laser pointer, or hide it
//   summon    {id?, client?}                     presenter: call back everyone not following, or one client
//   looking   {region}                           an exploring page's visible region, [[lon, lat] x4], or null
//                                                (sharing stopped); at most 2 a second
//   followPolicy {explore}                       presenter: false locks following, true unlocks
//   projection {projection: mercator|globe}      drivers, presenters: how the room's map draws the world

import { FIT_MODES } from '../geo/fit.js';
import { ProtocolError } from './protocol_error.js';
import { decodeBinaryFrame } from './binary_frame.js';

export { ProtocolError };

export const SERVER_MESSAGE_TYPES = ['welcome', 'frame', 'animation', 'event', 'result', 'error', 'pong', 'gestures', 'gestureAck',
  'tokenExpiring', 'tokenRefreshed'];
export const ROLES = ['presenter', 'driver', 'follower'];
/** How frames come (`hello.encoding`): JSON text, or binary (protocol/binary_frame.js). */
export const FRAME_ENCODINGS = ['json', 'binary'];
export const GESTURE_KINDS = ['pan', 'pinch', 'tilt', 'rotate', 'doubleTap', 'twoFingerTap', 'scroll', 'tap', 'longPress'];
/** Kinds that happen at an instant: sent without a phase. */
export const INSTANT_GESTURE_KINDS = ['doubleTap', 'twoFingerTap', 'scroll', 'tap', 'longPress'];
export const GESTURE_PHASES = ['begin', 'change', 'end', 'cancel'];
export const ANIMATION_STATUSES = ['started', 'finished', 'cancelled', 'superseded', 'interrupted'];
export const EVENT_NAMES = ['steady', 'significantChange', 'trackingModeChanged', 'limitsChanged', 'presenterChanged',
  'joined', 'left', 'tap', 'longPress', 'audience', 'gesture', 'clamped', 'routeChanged', 'followChanged', 'summoned',
  'followPolicyChanged', 'viewChanged', 'projectionChanged', 'storyStep', 'storyChanged', 'viewports'];
/** `looking` messages a client sends at most per second (the hub drops what comes faster). */
export const LOOKING_PER_SECOND = 2;
export const ERROR_CODES = ['bad_message', 'unknown_type', 'not_joined', 'forbidden', 'conflict', 'unknown_animation',
  'rate_limited', 'full', 'policy', 'unavailable', 'token'];
/** A client's follow state: on the room's camera, on its own map, or not looking. */
export const FOLLOW_STATES = ['following', 'exploring', 'away'];
/** How a room's map draws the world (MapLibre GL JS 5 `projection.type`): flat Web Mercator, or a globe. */
export const PROJECTIONS = ['mercator', 'globe'];
export const CURVE_NAMES = ['linear', 'easeIn', 'easeOut', 'easeInOut'];
export const TRACKING_MODES = ['none', 'followNorthUp', 'followDirection', 'followRouteDirection', 'followRouteNorthUp',
  'routeOverview'];
/** Most points a room's route may have (sent in pieces with `append`). */
export const MAX_ROUTE_POINTS = 10000;
export const ANIMATION_KINDS = ['ease', 'fly', 'animate'];
/** How a live animation in `welcome.animations` stands. */
export const LIVE_ANIMATION_STATUSES = ['running', 'delayed', 'waiting'];
/** Camera property names of animation claims and reports, in the hub's order. */
export const PROPERTY_NAMES = ['center', 'zoom', 'bearing', 'tilt', 'roll', 'elevation', 'fov', 'anchor', 'padding'];
export const QUERY_KINDS = ['project', 'unproject', 'bounds', 'fit', 'story'];
const CAMERA_KEYS = ['lat', 'lon', 'zoom', 'bearing', 'tilt', 'roll', 'elevation', 'fov'];
/** The centre elevations (m) and fields of view (degrees) the hub takes in a command. */
export const ELEVATION_RANGE = Object.freeze([-11000, 9000]);
export const FOV_RANGE = Object.freeze([1, 60]);
/** A camera's defaults for the fields it may leave out (absent on the wire means these). */
export const CAMERA_DEFAULTS = Object.freeze({ roll: 0, elevation: 0, fov: 36.86989764584402 });
/** Longest room name, client name and animation/query id the hub accepts. */
export const MAX_NAME_LENGTH = 64;

function describe(v) {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'number') return String(v);
  try {
    const s = JSON.stringify(v);
    return s.length > 60 ? s.slice(0, 60) + '…' : s;
  } catch {
    return typeof v;
  }
}

function fail(where, field, expectation, value) {
  throw new ProtocolError(`${where}: "${field}" must be ${expectation}, got ${describe(value)}`);
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isFiniteNumber = (v) => typeof v === 'number' && Number.isFinite(v);

/**
 * @param {string} where
 * @param {any} obj
 * @param {string} key
 * @param {{required?: boolean, min?: number, max?: number, below?: number, integer?: boolean, above?: number}} options
 */
function num(where, obj, key, { required = true, min = -Infinity, max = Infinity, below, integer = false, above } = {}) {
  const v = obj[key];
  if (v === undefined && !required) return;
  if (!isFiniteNumber(v)) fail(where, key, 'a finite number', v);
  if (integer && !Number.isInteger(v)) fail(where, key, 'an integer', v);
  if (v < min || v > max) fail(where, key, `in [${min}, ${max}]`, v);
  if (below !== undefined && !(v < below)) fail(where, key, `in [${min}, ${below})`, v);
  if (above !== undefined && !(v > above)) fail(where, key, `greater than ${above}`, v);
}

/**
 * @param {string} where
 * @param {any} obj
 * @param {string} key
 * @param {{required?: boolean, nullable?: boolean, oneOf?: readonly string[], maxLength?: number}} options
 */
function str(where, obj, key, { required = true, nullable = false, oneOf, maxLength } = {}) {
  const v = obj[key];
  if (v === undefined && !required) return;
  if (v === null && nullable) return;
  if (typeof v !== 'string') fail(where, key, nullable ? 'a string or null' : 'a string', v);
  if (oneOf && !oneOf.includes(v)) fail(where, key, `one of ${oneOf.join('|')}`, v);
  if (maxLength !== undefined && [...v].length > maxLength) fail(where, key, `at most ${maxLength} characters`, v);
}

/**
 * @param {string} where
 * @param {any} obj
 * @param {string} key
 * @param {{required?: boolean}} options
 */
/** `hello.render`, checked: `roll` and `globe` booleans, `maxTilt` whole degrees 0…85; only the fields given. */
function renderFields(render) {
  if (render === null || typeof render !== 'object') fail('hello', 'render', 'an object', render);
  const out = {};
  for (const key of Object.keys(render)) {
    if (!['roll', 'maxTilt', 'globe'].includes(key)) fail('hello', `render.${key}`, 'one of roll, maxTilt, globe', key);
  }
  if (render.roll !== undefined) { bool('hello.render', render, 'roll'); out.roll = render.roll; }
  if (render.maxTilt !== undefined) { num('hello.render', render, 'maxTilt', { min: 0, max: 85, integer: true }); out.maxTilt = render.maxTilt; }
  if (render.globe !== undefined) { bool('hello.render', render, 'globe'); out.globe = render.globe; }
  return out;
}

function bool(where, obj, key, { required = true } = {}) {
  const v = obj[key];
  if (v === undefined && !required) return;
  if (typeof v !== 'boolean') fail(where, key, 'true or false', v);
}

/**
 * @param {string} where
 * @param {any} obj
 * @param {string} key
 * @param {{required?: boolean, each?: (v: any, where: string) => void}} options
 */
function arr(where, obj, key, { required = true, each } = {}) {
  const v = obj[key];
  if (v === undefined && !required) return;
  if (!Array.isArray(v)) fail(where, key, 'an array', v);
  if (each) v.forEach((item, i) => each(item, `${where}.${key}[${i}]`));
}

/**
 * @param {string} where
 * @param {any} o
 * @param {string} key
 * @param {{required?: boolean, nullable?: boolean}} options
 */
function obj(where, o, key, { required = true, nullable = false } = {}) {
  const v = o[key];
  if (v === undefined && !required) return;
  if (v === null && nullable) return;
  if (!isObject(v)) fail(where, key, 'an object', v);
}

/**
 * Validates a camera object. With `partial`, any subset of the fields is allowed
 * (but at least one). With `wire` (cameras the hub sends), lon must lie in
 * [-180, 180] and bearing in [0, 360]. roll, elevation and fov are optional:
 * roll within [-180, 180]; a partial camera (what a client sends) has them within
 * what the hub takes (elevation -11000…9000 m, fov 1…60 degrees), any other
 * camera an elevation that is finite and a fov within (0, 180). Returns the
 * camera (not copied).
 */
export function validateCamera(camera, where = 'camera', { partial = false, wire = false } = {}) {
  if (!isObject(camera)) throw new ProtocolError(`${where} must be an object, got ${describe(camera)}`);
  const req = { required: !partial };
  num(where, camera, 'lat', { ...req, min: -90, max: 90 });
  num(where, camera, 'lon', wire ? { ...req, min: -180, max: 180 } : req);
  num(where, camera, 'zoom', { ...req, min: 0, max: 30 });
  num(where, camera, 'bearing', wire ? { ...req, min: 0, max: 360 } : req);
  num(where, camera, 'tilt', { ...req, min: 0, max: 90 });
  num(where, camera, 'roll', { required: false, min: -180, max: 180 });
  if (partial) {
    num(where, camera, 'elevation', { required: false, min: ELEVATION_RANGE[0], max: ELEVATION_RANGE[1] });
    num(where, camera, 'fov', { required: false, min: FOV_RANGE[0], max: FOV_RANGE[1] });
  } else {
    num(where, camera, 'elevation', { required: false });
    num(where, camera, 'fov', { required: false, above: 0 });
    if (camera.fov >= 180) fail(where, 'fov', 'less than 180 (degrees)', camera.fov);
  }
  if (camera.anchor !== undefined) {
    const a = camera.anchor;
    if (!isObject(a)) fail(where, 'anchor', 'an object {x, y}', a);
    num(`${where}.anchor`, a, 'x', { min: 0, max: 1 });
    num(`${where}.anchor`, a, 'y', { min: 0, max: 1 });
  }
  if (camera.padding !== undefined) {
    const p = camera.padding;
    if (!isObject(p)) fail(where, 'padding', 'an object {top, left, bottom, right}', p);
    for (const side of ['top', 'left', 'bottom', 'right']) num(`${where}.padding`, p, side, { required: partial ? false : true, min: 0 });
  }
  if (partial && !CAMERA_KEYS.some((k) => camera[k] !== undefined) && camera.anchor === undefined && camera.padding === undefined) {
    throw new ProtocolError(`${where} must set at least one of ${CAMERA_KEYS.join(', ')}, anchor, padding`);
  }
  return camera;
}

const wireCamera = (c, where) => validateCamera(c, where, { wire: true });

/** A frame's `velocity`: the five rates, and roll, elevation and fov rates when not zero. */
function velocity(v, where) {
  if (!isObject(v)) throw new ProtocolError(`${where} must be an object {lat, lon, zoom, bearing, tilt}, got ${describe(v)}`);
  for (const k of ['lat', 'lon', 'zoom', 'bearing', 'tilt']) num(where, v, k);
  for (const k of ['roll', 'elevation', 'fov']) num(where, v, k, { required: false });
}

/** `welcome.story` and the matching fields of `storyStep`: count, index (or null), title, notes (or null), playing. */
function storySummary(s, where) {
  if (!isObject(s)) fail(where, 'story', 'an object', s);
  num(where, s, 'count', { min: 0, integer: true });
  if (s.index !== null) num(where, s, 'index', { min: 0, integer: true });
  str(where, s, 'title', { nullable: true });
  str(where, s, 'notes', { nullable: true });
  bool(where, s, 'playing');
}

function rosterEntry(e, where) {
  if (!isObject(e)) throw new ProtocolError(`${where} must be an object {client, name, role}, got ${describe(e)}`);
  str(where, e, 'client');
  str(where, e, 'name', { required: false, nullable: true });
  str(where, e, 'role', { oneOf: ROLES });
  str(where, e, 'follow', { required: false, oneOf: FOLLOW_STATES });
}

/** The view of whoever moved the camera: {by, width, height, padding: {top, left, bottom, right}}. */
function roomView(v, where) {
  if (!isObject(v)) throw new ProtocolError(`${where} must be an object {by, width, height, padding}, got ${describe(v)}`);
  str(where, v, 'by');
  num(where, v, 'width', { above: 0 });
  num(where, v, 'height', { above: 0 });
  obj(where, v, 'padding');
  for (const side of ['top', 'left', 'bottom', 'right']) num(`${where}.padding`, v.padding, side, { min: 0 });
}

/**
 * A visible region: four [lon, lat] corners (finite; lat within ±90, lon within ±180). Throws naming `where`.
 * @param {unknown} region
 * @param {string} where
 */
export function checkRegion(region, where) {
  if (!Array.isArray(region) || region.length !== 4) {
    throw new ProtocolError(`${where} must be four [lon, lat] corners, got ${describe(region)}`);
  }
  region.forEach((c, i) => {
    const ok = Array.isArray(c) && c.length === 2 && c.every(isFiniteNumber) && Math.abs(c[1]) <= 90 && Math.abs(c[0]) <= 180;
    if (!ok) throw new ProtocolError(`${where}[${i}] must be [lon, lat] with lat within ±90 and lon within ±180, got ${describe(c)}`);
  });
}

/** One explorer in a `viewports` event: {client, name, state, region: 4 × [lon, lat]}. */
function memberViewport(v, where) {
  if (!isObject(v)) throw new ProtocolError(`${where} must be an object {client, name, state, region}, got ${describe(v)}`);
  str(where, v, 'client');
  str(where, v, 'name');
  str(where, v, 'state', { oneOf: FOLLOW_STATES });
  checkRegion(v.region, `${where}.region`);
}

function liveAnimation(a, where) {
  if (!isObject(a)) throw new ProtocolError(`${where} must be an object, got ${describe(a)}`);
  str(where, a, 'id');
  str(where, a, 'by');
  str(where, a, 'kind', { oneOf: ANIMATION_KINDS });
  str(where, a, 'status', { oneOf: LIVE_ANIMATION_STATUSES });
  arr(where, a, 'properties', { each: (p, w) => { if (!PROPERTY_NAMES.includes(p)) fail(w, 'property', `one of ${PROPERTY_NAMES.join('|')}`, p); } });
  if (a.started !== null) num(where, a, 'started');
  if (a.duration !== null) num(where, a, 'duration', { min: 0 });
  str(where, a, 'after', { nullable: true });
  num(where, a, 'starts', { required: false });
  if ((a.status === 'running') !== (a.started !== null)) fail(where, 'started', 'a time exactly when running', a.started);
}

function routePoint(p, where) {
  if (!isObject(p)) throw new ProtocolError(`${where} must be an object {lat, lon}, got ${describe(p)}`);
  num(where, p, 'lat', { min: -90, max: 90 });
  num(where, p, 'lon', { min: -180, max: 180 });
}

function trackingState(t, where) {
  if (!isObject(t)) throw new ProtocolError(`${where} must be an object {mode, location}, got ${describe(t)}`);
  str(where, t, 'mode', { oneOf: TRACKING_MODES });
  if (t.location !== null) {
    obj(where, t, 'location');
    num(`${where}.location`, t.location, 'lat', { min: -90, max: 90 });
    num(`${where}.location`, t.location, 'lon', { min: -180, max: 180 });
    num(`${where}.location`, t.location, 'heading', { required: false, min: 0, max: 360 });
  }
}

function kindName(k, where) {
  if (!GESTURE_KINDS.includes(k)) throw new ProtocolError(`${where} must be one of ${GESTURE_KINDS.join('|')}, got ${describe(k)}`);
}

const serverValidators = {
  welcome(m) {
    str('welcome', m, 'client');
    str('welcome', m, 'room');
    str('welcome', m, 'role', { oneOf: ROLES });
    num('welcome', m, 'rate', { required: false, above: 0 });
    num('welcome', m, 'tick', { required: false, above: 0 });
    num('welcome', m, 'time');
    num('welcome', m, 'seq', { min: 0, integer: true });
    wireCamera(m.camera, 'welcome.camera');
    obj('welcome', m, 'limits', { required: false, nullable: true });
    str('welcome', m, 'presenter', { required: false, nullable: true });
    arr('welcome', m, 'roster', { required: false, each: rosterEntry });
    arr('welcome', m, 'gestures', { required: false, each: kindName });
    arr('welcome', m, 'animations', { required: false, each: liveAnimation });
    if (m.tracking !== undefined) trackingState(m.tracking, 'welcome.tracking');
    arr('welcome', m, 'route', { required: false, each: routePoint });
    if (m.followPolicy !== undefined) {
      obj('welcome', m, 'followPolicy');
      bool('welcome.followPolicy', m.followPolicy, 'explore');
    }
    for (const k of FOLLOW_STATES) num('welcome', m, k, { required: false, min: 0, integer: true });
    if (m.view !== undefined && m.view !== null) roomView(m.view, 'welcome.view');
    str('welcome', m, 'fit', { required: false, oneOf: FIT_MODES });
    str('welcome', m, 'projection', { required: false, oneOf: PROJECTIONS });
    if (m.story !== undefined) storySummary(m.story, 'welcome.story');
  },
  frame(m) {
    num('frame', m, 'seq', { min: 0, integer: true });
    num('frame', m, 'time');
    wireCamera(m.camera, 'frame.camera');
    bool('frame', m, 'moving');
    if (m.velocity !== undefined) velocity(m.velocity, 'frame.velocity');
    str('frame', m, 'by', { required: false, nullable: true });
    if (m.pointer !== undefined && m.pointer !== null) {
      obj('frame', m, 'pointer');
      num('frame.pointer', m.pointer, 'lat', { min: -90, max: 90 });
      num('frame.pointer', m.pointer, 'lon', { min: -180, max: 180 });
      str('frame.pointer', m.pointer, 'by');
    }
  },
  animation(m) {
    str('animation', m, 'id', { nullable: true });
    str('animation', m, 'status', { oneOf: ANIMATION_STATUSES });
    str('animation', m, 'by', { required: false, nullable: true });
    str('animation', m, 'owner', { required: false });
    arr('animation', m, 'lost', { required: false });
    arr('animation', m, 'clamped', { required: false });
    if (m.camera !== undefined) wireCamera(m.camera, 'animation.camera');
    str('animation', m, 'reason', { required: false, nullable: true });
  },
  event(m) {
    // Unknown event names are kept (forward compatibility): the page ignores them.
    str('event', m, 'event');
    num('event', m, 'time', { required: false });
    if (m.camera !== undefined) wireCamera(m.camera, 'event.camera');
    if (m.event === 'joined' || m.event === 'left') rosterEntry(m, `event(${m.event})`);
    if (m.event === 'longPress') {
      str('event(longPress)', m, 'phase', { required: false, oneOf: GESTURE_PHASES });
      for (const k of ['x', 'y']) if (m[k] !== null) num('event(longPress)', m, k, { required: false });
    }
    if (m.event === 'routeChanged') {
      bool('event(routeChanged)', m, 'append');
      num('event(routeChanged)', m, 'total', { min: 0, max: MAX_ROUTE_POINTS, integer: true });
      arr('event(routeChanged)', m, 'points', { each: routePoint });
    }
    if (m.event === 'gesture') {
      str('event(gesture)', m, 'kind', { oneOf: GESTURE_KINDS });
      str('event(gesture)', m, 'phase', { required: false, nullable: true, oneOf: GESTURE_PHASES });
      bool('event(gesture)', m, 'disabled', { required: false });
    }
    if (m.event === 'followChanged') {
      str('event(followChanged)', m, 'client');
      str('event(followChanged)', m, 'state', { oneOf: FOLLOW_STATES });
    }
    if (m.event === 'summoned') {
      obj('event(summoned)', m, 'by');
      str('event(summoned).by', m.by, 'client');
      str('event(summoned).by', m.by, 'name');
    }
    if (m.event === 'followPolicyChanged') bool('event(followPolicyChanged)', m, 'explore');
    if (m.event === 'viewChanged') roomView(m.view, 'event(viewChanged).view');
    if (m.event === 'viewports') {
      arr('event(viewports)', m, 'clients', { each: memberViewport });
      num('event(viewports)', m, 'others', { min: 0, integer: true });
    }
    if (m.event === 'projectionChanged') {
      str('event(projectionChanged)', m, 'projection', { oneOf: PROJECTIONS });
      str('event(projectionChanged)', m, 'by', { required: false, nullable: true });
    }
    if (m.event === 'storyStep') {
      storySummary(m, 'event(storyStep)');
      num('event(storyStep)', m, 'index', { min: 0, integer: true });
      wireCamera(m.camera, 'event(storyStep).camera');
    }
    if (m.event === 'storyChanged') {
      str('event(storyChanged)', m, 'op', { nullable: true });
      num('event(storyChanged)', m, 'count', { min: 0, integer: true });
      if (m.index !== null) num('event(storyChanged)', m, 'index', { min: 0, integer: true });
      str('event(storyChanged)', m, 'title', { nullable: true });
      str('event(storyChanged)', m, 'notes', { nullable: true });
      bool('event(storyChanged)', m, 'playing');
      bool('event(storyChanged)', m, 'drivers');
    }
    if (m.event === 'presenterChanged') {
      str('event', m, 'client', { nullable: true });
      str('event', m, 'previous', { required: false, nullable: true });
      str('event', m, 'demoted', { required: false, nullable: true });
    }
  },
  result(m) {
    str('result', m, 'id');
    arr('result', m, 'points', { required: false });
    if (m.camera !== undefined) wireCamera(m.camera, 'result.camera');
    if (m.what === 'story') {
      arr('result(story)', m, 'steps');
      if (m.index !== null) num('result(story)', m, 'index', { min: 0, integer: true });
      bool('result(story)', m, 'playing');
      bool('result(story)', m, 'drivers');
    }
  },
  error(m) {
    str('error', m, 'code');
    str('error', m, 'message');
    str('error', m, 'ref', { required: false, nullable: true });
  },
  pong(m) {
    num('pong', m, 't', { required: false });
    num('pong', m, 'time');
  },
  tokenExpiring(m) {
    num('tokenExpiring', m, 'exp');
  },
  tokenRefreshed(m) {
    num('tokenRefreshed', m, 'exp');
  },
  gestures(m) {
    arr('gestures', m, 'disabled', { each: kindName });
  },
  // To the sender of a gesture with `seq` only (prediction.js reconciles with it).
  gestureAck(m) {
    num('gestureAck', m, 'seq', { min: 0, integer: true });
    str('gestureAck', m, 'kind', { oneOf: GESTURE_KINDS });
    str('gestureAck', m, 'phase', { nullable: true, oneOf: GESTURE_PHASES });
    num('gestureAck', m, 'time');
    wireCamera(m.camera, 'gestureAck.camera');
    if (m.animation !== undefined) {
      obj('gestureAck', m, 'animation');
      str('gestureAck.animation', m.animation, 'id');
      num('gestureAck.animation', m.animation, 'duration', { min: 0 });
      wireCamera(m.animation.to, 'gestureAck.animation.to');
    }
  },
};

/**
 * Parses and validates one hub message (JSON text, a binary frame's bytes, or an already parsed object).
 * Returns the message object; throws ProtocolError with a clear reason
 * (code 'json', 'invalid' or 'unknown-type').
 */
export function parseMessage(input) {
  let m = input;
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    m = decodeBinaryFrame(input);
  } else if (typeof input === 'string') {
    try {
      m = JSON.parse(input);
    } catch (e) {
      throw new ProtocolError(`message is not valid JSON: ${e.message}`, { code: 'json', raw: input });
    }
  }
  if (!isObject(m)) throw new ProtocolError(`message must be a JSON object, got ${describe(m)}`, { raw: input });
  if (typeof m.type !== 'string') {
    throw new ProtocolError(`message must have a string "type", got ${describe(m.type)}`, { raw: input });
  }
  const validate = serverValidators[m.type];
  if (!validate) {
    throw new ProtocolError(`unknown message type ${describe(m.type)}`, { code: 'unknown-type', raw: input });
  }
  try {
    validate(m);
  } catch (e) {
    if (e instanceof ProtocolError) e.raw = input;
    throw e;
  }
  return m;
}

// ---------------------------------------------------------------------------
// Builders for viewer -> hub messages
// ---------------------------------------------------------------------------

function idField(where, value) {
  str(where, { id: value }, 'id', { maxLength: MAX_NAME_LENGTH });
  if (value.length === 0) fail(where, 'id', 'a non-empty string', value);
  return value;
}

function cameraFields(camera, where) {
  validateCamera(camera, where, { partial: true });
  const out = {};
  for (const k of CAMERA_KEYS) if (camera[k] !== undefined) out[k] = camera[k];
  if (camera.anchor !== undefined) out.anchor = { x: camera.anchor.x, y: camera.anchor.y };
  if (camera.padding !== undefined) out.padding = { ...camera.padding };
  return out;
}

function checkViewport(where, vp) {
  if (!isObject(vp)) fail(where, 'viewport', 'an object {width, height}', vp);
  num(where, vp, 'width', { min: 1 });
  num(where, vp, 'height', { min: 1 });
}

function checkCurve(where, curve) {
  if (typeof curve === 'string') {
    if (!CURVE_NAMES.includes(curve)) fail(where, 'curve', `one of ${CURVE_NAMES.join('|')} or [x1, y1, x2, y2]`, curve);
    return curve;
  }
  if (!Array.isArray(curve) || curve.length !== 4 || !curve.every(isFiniteNumber)) {
    fail(where, 'curve', 'a curve name or [x1, y1, x2, y2]', curve);
  }
  if (curve[0] < 0 || curve[0] > 1 || curve[2] < 0 || curve[2] > 1) fail(where, 'curve', 'a Bézier with x1, x2 in [0, 1]', curve);
  return [...curve];
}

function checkPoint(where, p) {
  if (!isObject(p)) fail(where, 'point', 'an object {x, y}', p);
  num(where, p, 'x');
  num(where, p, 'y');
  return { x: p.x, y: p.y };
}

/**
 * Validates and normalizes one gesture (kind, phase, x, y, t and the optional
 * numbers) into a `gesture` message. Instantaneous kinds (tap, doubleTap,
 * twoFingerTap, scroll, longPress) are sent without a phase; continuous kinds
 * (pan, pinch, tilt, rotate) need one.
 */
export function validateGesture(g, where = 'gesture') {
  if (!isObject(g)) throw new ProtocolError(`${where} must be an object, got ${describe(g)}`);
  if (!GESTURE_KINDS.includes(g.kind)) fail(where, 'kind', `one of ${GESTURE_KINDS.join('|')}`, g.kind);
  const instant = INSTANT_GESTURE_KINDS.includes(g.kind);
  if (!instant || g.phase !== undefined) {
    if (!GESTURE_PHASES.includes(g.phase)) fail(where, 'phase', `one of ${GESTURE_PHASES.join('|')}`, g.phase);
  }
  num(where, g, 'x');
  num(where, g, 'y');
  num(where, g, 't');
  num(where, g, 'scale', { required: false, above: 0 });
  num(where, g, 'rotation', { required: false });
  num(where, g, 'dy', { required: false });
  num(where, g, 'delta', { required: false });
  if (g.kind === 'scroll' && g.delta === undefined) fail(where, 'delta', 'a finite number (scroll)', g.delta);
  const out = { type: 'gesture', kind: g.kind };
  // A long press may carry its phase (begin, change, end, cancel), as in HERE.
  if (!instant || (g.kind === 'longPress' && g.phase !== undefined)) out.phase = g.phase;
  out.x = g.x;
  out.y = g.y;
  out.t = g.t;
  for (const k of ['scale', 'rotation', 'dy', 'delta']) if (g[k] !== undefined) out[k] = g[k];
  return out;
}

function optional(where, m, values, checks) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    checks[k](where, v);
    m[k] = v;
  }
  return m;
}

const seconds = (max) => (where, v) => num(where, { duration: v }, 'duration', { min: 0, max });

// What a client may subscribe to besides frames: the event names, `animation`
// (reports of your own animations) and `roomAnimations` (everyone's).
export const SUBSCRIPTIONS = [...EVENT_NAMES, 'animation', 'roomAnimations'];

function subscriptionList(where, events) {
  if (!Array.isArray(events)) fail(where, 'events', 'an array of event names', events);
  events.forEach((e, i) => {
    if (!SUBSCRIPTIONS.includes(e)) fail(where, `events[${i}]`, `one of ${SUBSCRIPTIONS.join('|')}`, e);
  });
  return [...events];
}

/** Adds `essential` (shown moving even to clients that prefer reduced motion) when true. */
function withEssential(where, m, essential) {
  if (essential === undefined || essential === false) return m;
  bool(where, { essential }, 'essential');
  m.essential = true;
  return m;
}

export const build = {
  /**
   * @param {{room: string, role?: string, name?: string, token?: string, rate?: number,
   *   viewport?: {width: number, height: number}, events?: string[], fit?: string, encoding?: string,
   *   render?: {roll?: boolean, maxTilt?: number, globe?: boolean}}} options `render`: what this client's
   *   map can draw (default everything); the hub then sends the closest camera it can show
   */
  hello({ room, role = 'driver', name, token, rate, viewport, events, fit, encoding, render } = /** @type {any} */ ({})) {
    str('hello', { room }, 'room', { maxLength: MAX_NAME_LENGTH });
    if (room.length === 0) fail('hello', 'room', 'a non-empty string', room);
    str('hello', { role }, 'role', { oneOf: ROLES });
    const m = { type: 'hello', room, role };
    if (name !== undefined && name !== '') {
      str('hello', { name }, 'name', { maxLength: MAX_NAME_LENGTH });
      m.name = name;
    }
    if (token !== undefined && token !== '') {
      str('hello', { token }, 'token', { maxLength: 2048 });
      m.token = token;
    }
    if (rate !== undefined) {
      num('hello', { rate }, 'rate', { min: 1 });
      m.rate = rate;
    }
    if (viewport !== undefined) {
      checkViewport('hello', viewport);
      m.viewport = { width: viewport.width, height: viewport.height };
    }
    if (events !== undefined) m.events = subscriptionList('hello', events);
    if (fit !== undefined && fit !== 'same') {
      str('hello', { fit }, 'fit', { oneOf: FIT_MODES });
      m.fit = fit;
    }
    if (encoding !== undefined && encoding !== 'json') {
      str('hello', { encoding }, 'encoding', { oneOf: FRAME_ENCODINGS });
      m.encoding = encoding;
    }
    if (render !== undefined) m.render = renderFields(render);
    return m;
  },
  /** How this page fits the room's camera to its screen from now on (`same` or `cover`). */
  fit(mode) {
    str('fit', { mode }, 'mode', { oneOf: FIT_MODES });
    return { type: 'fit', mode };
  },
  subscribe(events) {
    return { type: 'subscribe', events: subscriptionList('subscribe', events) };
  },
  set(camera) {
    return { type: 'set', camera: cameraFields(camera, 'set.camera') };
  },
  /**
   * @param {object} camera
   * @param {{id?: string, duration?: number, curve?: string|number[], around?: {x: number, y: number},
   *   essential?: boolean}} options
   */
  ease(camera, { id, duration, curve, around, essential } = {}) {
    const m = { type: 'ease' };
    if (id !== undefined) m.id = idField('ease', id);
    m.camera = cameraFields(camera, 'ease.camera');
    if (duration !== undefined) {
      seconds(60)('ease', duration);
      m.duration = duration;
    }
    if (curve !== undefined) m.curve = checkCurve('ease', curve);
    if (around !== undefined) {
      if (m.camera.lat !== undefined || m.camera.lon !== undefined) {
        throw new ProtocolError('ease: "around" cannot be combined with camera.lat/lon');
      }
      m.around = checkPoint('ease.around', around);
    }
    return withEssential('ease', m, essential);
  },
  /**
   * @param {object} camera
   * @param {{id?: string, duration?: number, speed?: number, curve?: number, minZoom?: number,
   *   essential?: boolean}} options
   */
  fly(camera, { id, duration, speed, curve, minZoom, essential } = {}) {
    const m = { type: 'fly' };
    if (id !== undefined) m.id = idField('fly', id);
    m.camera = cameraFields(camera, 'fly.camera');
    withEssential('fly', m, essential);
    return optional('fly', m, { duration, speed, curve, minZoom }, {
      duration: seconds(60),
      speed: (w, v) => num(w, { speed: v }, 'speed', { above: 0, max: 100 }),
      curve: (w, v) => num(w, { curve: v }, 'curve', { above: 0, max: 10 }),
      minZoom: (w, v) => num(w, { minZoom: v }, 'minZoom', { min: 0, max: 24 }),
    });
  },
  /**
   * @param {object} to
   * @param {{id?: string, duration: number, curve?: string|number[], delay?: number, after?: string,
   *   essential?: boolean}} options
   */
  animate(to, { id, duration, curve, delay, after, essential } = /** @type {any} */ ({})) {
    const m = { type: 'animate' };
    if (id !== undefined) m.id = idField('animate', id);
    m.to = cameraFields(to, 'animate.to');
    seconds(60)('animate', duration);
    m.duration = duration;
    if (curve !== undefined) m.curve = checkCurve('animate', curve);
    if (delay !== undefined) {
      num('animate', { delay }, 'delay', { min: 0, max: 3600 });
      m.delay = delay;
    }
    if (after !== undefined) {
      m.after = idField('animate.after', after);
      if (after === id) throw new ProtocolError('animate: an animation cannot wait for itself');
    }
    return withEssential('animate', m, essential);
  },
  /** `cancel()`: this client's animations; `cancel({id})`: one; `cancel({all: true})`: the room's. */
  /** @param {{id?: string, all?: boolean}} options */
  cancel({ id, all } = {}) {
    if (id !== undefined && all) throw new ProtocolError('cancel: "id" and "all" cannot be combined');
    if (id !== undefined) return { type: 'cancel', id: idField('cancel', id) };
    if (all) return { type: 'cancel', all: true };
    return { type: 'cancel' };
  },
  gesture(g) {
    return validateGesture(g);
  },
  /** Enables/disables default gesture actions for this client (not a batch of gestures). */
  /** @param {{disable?: string[], enable?: string[]}} options */
  gestures({ disable, enable } = {}) {
    const m = { type: 'gestures' };
    for (const [k, list] of Object.entries({ disable, enable })) {
      if (list === undefined) continue;
      if (!Array.isArray(list)) fail('gestures', k, 'an array of gesture kinds', list);
      list.forEach((kind, i) => kindName(kind, `gestures.${k}[${i}]`));
      m[k] = [...list];
    }
    if (!m.disable && !m.enable) throw new ProtocolError('gestures: give "disable" and/or "enable"');
    const both = (m.disable || []).filter((k) => (m.enable || []).includes(k));
    if (both.length) throw new ProtocolError(`gestures: "${both[0]}" is both disabled and enabled`);
    return m;
  },
  viewport(width, height) {
    checkViewport('viewport', { width, height });
    return { type: 'viewport', width, height };
  },
  limits(limits) {
    if (!isObject(limits) || Object.keys(limits).length === 0) fail('limits', 'limits', 'a non-empty object', limits);
    return { type: 'limits', ...limits };
  },
  /** @param {{mode?: string, location?: {lat: number, lon: number, heading?: number}}} options */
  track({ mode, location } = {}) {
    const m = { type: 'track' };
    if (mode !== undefined) {
      str('track', { mode }, 'mode', { oneOf: TRACKING_MODES });
      m.mode = mode;
    }
    if (location !== undefined) {
      if (!isObject(location)) fail('track', 'location', 'an object {lat, lon, heading?}', location);
      num('track.location', location, 'lat', { min: -90, max: 90 });
      num('track.location', location, 'lon');
      num('track.location', location, 'heading', { required: false });
      m.location = { lat: location.lat, lon: location.lon };
      if (location.heading !== undefined) m.location.heading = location.heading;
    }
    if (m.mode === undefined && m.location === undefined) throw new ProtocolError('track: give "mode" and/or "location"');
    return m;
  },
  /** The room's route: `route(points)` replaces it ([] clears it), `route(points, {append: true})` extends it. */
  route(points, { append = false } = {}) {
    if (!Array.isArray(points)) fail('route', 'points', 'an array of {lat, lon}', points);
    points.forEach((p, i) => routePoint(p, `route.points[${i}]`));
    if (points.length === 1 && !append) throw new ProtocolError('route: a route needs at least 2 points ([] clears it)');
    if (points.length === 0 && append) throw new ProtocolError('route: nothing to append');
    const m = { type: 'route', points: points.map((p) => ({ lat: p.lat, lon: p.lon })) };
    if (append) m.append = true;
    return m;
  },
  /**
   * `query(id, 'project', {points: [{lat, lon}]})`, `'unproject'` {points: [{x, y}]}, `'bounds'`, `'fit'` {bounds, padding?},
   * `'story'` (the room's storyboard whole: presenters, drivers where allowed).
   */
  query(id, what, params = {}) {
    if (id === undefined) throw new ProtocolError('query: needs an id to match its result');
    idField('query', id);
    str('query', { what }, 'what', { oneOf: QUERY_KINDS });
    if (!isObject(params)) fail('query', 'params', 'an object', params);
    if ('type' in params || 'id' in params || 'what' in params) {
      throw new ProtocolError('query: params must not contain "type", "id" or "what"');
    }
    return { type: 'query', id, what, ...params };
  },
  ping(t) {
    num('ping', { t }, 't');
    return { type: 'ping', t };
  },
  /** A new signed token for the session (answered with tokenRefreshed, or error code token). */
  refresh(token) {
    str('refresh', { token }, 'token', { maxLength: 2048 });
    return { type: 'refresh', token };
  },
  /** Shows this page's pointer at {lat, lon} (`pointer(null)` hides it). */
  pointer(lat, lon) {
    if (lat === null) return { type: 'pointer', lat: null };
    num('pointer', { lat }, 'lat', { min: -90, max: 90 });
    num('pointer', { lon }, 'lon');
    return { type: 'pointer', lat, lon };
  },
  /** This page's own follow state. */
  follow(state) {
    str('follow', { state }, 'state', { oneOf: FOLLOW_STATES });
    return { type: 'follow', state };
  },
  /**
   * Presenter: calls back everyone who explores or is away, or only `client` (answered with a `result` of
   * `what` summon).
   * @param {string} [id] echoed in the result
   * @param {string} [client] the one client to call back
   */
  summon(id, client) {
    const m = id === undefined ? { type: 'summon' } : { type: 'summon', id: idField('summon', id) };
    if (client !== undefined) {
      str('summon', { client }, 'client');
      m.client = client;
    }
    return m;
  },
  /**
   * An exploring client's visible region (four [lon, lat] corners, see geo/region.js), or null: it stops sharing.
   * @param {number[][]|null} region
   */
  looking(region) {
    if (region === null) return { type: 'looking', region: null };
    checkRegion(region, 'looking.region');
    return { type: 'looking', region: region.map(([lon, lat]) => [lon, lat]) };
  },
  /** Presenter: `false` locks following (nobody may explore), `true` unlocks. */
  followPolicy(explore) {
    bool('followPolicy', { explore }, 'explore');
    return { type: 'followPolicy', explore };
  },
  /** Drivers, presenters: the room's map as a globe (`'globe'`) or flat (`'mercator'`). */
  projection(projection) {
    str('projection', { projection }, 'projection', { oneOf: PROJECTIONS });
    return { type: 'projection', projection };
  },
};

/** JSON text for a message object. */
export function encode(message) {
  return JSON.stringify(message);
}
