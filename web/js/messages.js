// Hub <-> viewer WebSocket messages: validation of what the hub sends and
// builders for what the viewer sends. Pure: no DOM, no socket.
//
// Camera on the wire: {"lat", "lon", "zoom", "bearing", "tilt"} plus
// "anchor": {"x", "y"} when not centred (0..1 of the viewport).
//
// Hub -> viewer (parseMessage validates; unknown extra fields are kept):
//   welcome   {type, client?, room?, camera?, seq?, time?}
//   frame     {type, seq, time, camera, moving, by?}      time = hub wall clock ms
//   animation {type, id?, kind?, phase?, duration?, by?}
//   event     {type, name, ...}
//   result    {type, id, ok?, ...}
//   error     {type, message, code?, id?}
//   pong      {type, id?, time?}
// Fields marked ? are optional, but checked when present. The optional ones
// are this module's assumption of the hub protocol (being written in parallel):
// adjust here when the hub's shapes are final.
//
// Viewer -> hub (builders return plain objects; encode() makes the JSON text):
//   hello     {type, room, name?, viewport?}
//   set       {type, camera, id?}                     camera may be partial
//   ease      {type, camera, duration?, easing?, id?}
//   fly       {type, camera, duration?, speed?, curve?, id?}
//   gesture   {type, kind, phase, x, y, t, scale?, rotation?, dy?, delta?}
//   gestures  {type, gestures: [gesture without type...]}   a batch, in order
//   viewport  {type, width, height}
//   ping      {type, id?, time}
//   query     {type, id, what, ...params}
//   cancel    {type, id?}                             stops the current (or that) animation

export class ProtocolError extends Error {
  constructor(message, { code = 'invalid', raw } = {}) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code; // 'json' | 'invalid' | 'unknown-type'
    this.raw = raw;
  }
}

export const SERVER_MESSAGE_TYPES = ['welcome', 'frame', 'animation', 'event', 'result', 'error', 'pong'];
export const GESTURE_KINDS = ['pan', 'pinch', 'tilt', 'rotate', 'doubleTap', 'twoFingerTap', 'scroll', 'tap', 'longPress'];
export const GESTURE_PHASES = ['begin', 'change', 'end', 'cancel'];
const CAMERA_KEYS = ['lat', 'lon', 'zoom', 'bearing', 'tilt'];

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

function num(where, obj, key, { required = true, min = -Infinity, max = Infinity, integer = false } = {}) {
  const v = obj[key];
  if (v === undefined && !required) return;
  if (!isFiniteNumber(v)) fail(where, key, 'a finite number', v);
  if (integer && !Number.isInteger(v)) fail(where, key, 'an integer', v);
  if (v < min || v > max) fail(where, key, `in [${min}, ${max}]`, v);
}

function str(where, obj, key, { required = true, nullable = false } = {}) {
  const v = obj[key];
  if (v === undefined && !required) return;
  if (v === null && nullable) return;
  if (typeof v !== 'string') fail(where, key, 'a string', v);
}

function bool(where, obj, key, { required = true } = {}) {
  const v = obj[key];
  if (v === undefined && !required) return;
  if (typeof v !== 'boolean') fail(where, key, 'true or false', v);
}

function id(where, obj, key, { required = true } = {}) {
  const v = obj[key];
  if (v === undefined && !required) return;
  if (!(typeof v === 'string' || (isFiniteNumber(v) && Number.isInteger(v)))) fail(where, key, 'a string or integer id', v);
}

/**
 * Validates a camera object. With `partial`, any subset of the fields is allowed
 * (but at least one). Returns the camera (not copied).
 */
export function validateCamera(camera, where = 'camera', { partial = false } = {}) {
  if (!isObject(camera)) throw new ProtocolError(`${where} must be an object, got ${describe(camera)}`);
  const req = { required: !partial };
  num(where, camera, 'lat', { ...req, min: -90, max: 90 });
  num(where, camera, 'lon', req);
  num(where, camera, 'zoom', { ...req, min: 0, max: 30 });
  num(where, camera, 'bearing', req);
  num(where, camera, 'tilt', { ...req, min: 0, max: 90 });
  if (camera.anchor !== undefined) {
    const a = camera.anchor;
    if (!isObject(a)) fail(where, 'anchor', 'an object {x, y}', a);
    num(`${where}.anchor`, a, 'x', { min: 0, max: 1 });
    num(`${where}.anchor`, a, 'y', { min: 0, max: 1 });
  }
  if (partial && !CAMERA_KEYS.some((k) => camera[k] !== undefined) && camera.anchor === undefined) {
    throw new ProtocolError(`${where} must set at least one of ${CAMERA_KEYS.join(', ')}, anchor`);
  }
  return camera;
}

const serverValidators = {
  welcome(m) {
    str('welcome', m, 'client', { required: false });
    str('welcome', m, 'room', { required: false });
    if (m.camera !== undefined) validateCamera(m.camera, 'welcome.camera');
    num('welcome', m, 'seq', { required: false, min: 0, integer: true });
    num('welcome', m, 'time', { required: false });
  },
  frame(m) {
    num('frame', m, 'seq', { min: 0, integer: true });
    num('frame', m, 'time');
    validateCamera(m.camera, 'frame.camera');
    bool('frame', m, 'moving');
    str('frame', m, 'by', { required: false, nullable: true });
  },
  animation(m) {
    id('animation', m, 'id', { required: false });
    str('animation', m, 'kind', { required: false });
    str('animation', m, 'phase', { required: false });
    num('animation', m, 'duration', { required: false, min: 0 });
    str('animation', m, 'by', { required: false, nullable: true });
  },
  event(m) {
    str('event', m, 'name');
  },
  result(m) {
    id('result', m, 'id');
    bool('result', m, 'ok', { required: false });
  },
  error(m) {
    str('error', m, 'message');
    str('error', m, 'code', { required: false });
    id('error', m, 'id', { required: false });
  },
  pong(m) {
    id('pong', m, 'id', { required: false });
    num('pong', m, 'time', { required: false });
  },
};

/**
 * Parses and validates one hub message (JSON text or an already parsed object).
 * Returns the message object; throws ProtocolError with a clear reason
 * (code 'json', 'invalid' or 'unknown-type').
 */
export function parseMessage(input) {
  let m = input;
  if (typeof input === 'string') {
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

function withId(msg, requestId) {
  if (requestId !== undefined) {
    id(msg.type, { id: requestId }, 'id');
    msg.id = requestId;
  }
  return msg;
}

function cameraFields(camera, where) {
  validateCamera(camera, where, { partial: true });
  const out = {};
  for (const k of CAMERA_KEYS) if (camera[k] !== undefined) out[k] = camera[k];
  if (camera.anchor !== undefined) out.anchor = { x: camera.anchor.x, y: camera.anchor.y };
  return out;
}

function checkViewport(where, vp) {
  if (!isObject(vp)) fail(where, 'viewport', 'an object {width, height}', vp);
  num(where, vp, 'width', { min: 1 });
  num(where, vp, 'height', { min: 1 });
}

/** Validates and normalizes one gesture (kind, phase, x, y, t and the optional numbers). */
export function validateGesture(g, where = 'gesture') {
  if (!isObject(g)) throw new ProtocolError(`${where} must be an object, got ${describe(g)}`);
  if (!GESTURE_KINDS.includes(g.kind)) fail(where, 'kind', `one of ${GESTURE_KINDS.join('|')}`, g.kind);
  if (!GESTURE_PHASES.includes(g.phase)) fail(where, 'phase', `one of ${GESTURE_PHASES.join('|')}`, g.phase);
  num(where, g, 'x');
  num(where, g, 'y');
  num(where, g, 't');
  num(where, g, 'scale', { required: false, min: 0 });
  num(where, g, 'rotation', { required: false });
  num(where, g, 'dy', { required: false });
  num(where, g, 'delta', { required: false });
  const out = { type: 'gesture', kind: g.kind, phase: g.phase, x: g.x, y: g.y, t: g.t };
  for (const k of ['scale', 'rotation', 'dy', 'delta']) if (g[k] !== undefined) out[k] = g[k];
  return out;
}

export const build = {
  hello({ room, name, viewport } = {}) {
    const m = { type: 'hello' };
    str('hello', { room }, 'room');
    m.room = room;
    if (name !== undefined) {
      str('hello', { name }, 'name');
      m.name = name;
    }
    if (viewport !== undefined) {
      checkViewport('hello', viewport);
      m.viewport = { width: viewport.width, height: viewport.height };
    }
    return m;
  },
  set(camera, { id: requestId } = {}) {
    return withId({ type: 'set', camera: cameraFields(camera, 'set.camera') }, requestId);
  },
  ease(camera, { duration, easing, id: requestId } = {}) {
    const m = { type: 'ease', camera: cameraFields(camera, 'ease.camera') };
    if (duration !== undefined) {
      num('ease', { duration }, 'duration', { min: 0 });
      m.duration = duration;
    }
    if (easing !== undefined) {
      str('ease', { easing }, 'easing');
      m.easing = easing;
    }
    return withId(m, requestId);
  },
  fly(camera, { duration, speed, curve, id: requestId } = {}) {
    const m = { type: 'fly', camera: cameraFields(camera, 'fly.camera') };
    for (const [k, v] of Object.entries({ duration, speed, curve })) {
      if (v === undefined) continue;
      num('fly', { [k]: v }, k, { min: 0 });
      m[k] = v;
    }
    return withId(m, requestId);
  },
  gesture(g) {
    return validateGesture(g);
  },
  gestures(list) {
    if (!Array.isArray(list) || list.length === 0) fail('gestures', 'gestures', 'a non-empty array', list);
    return {
      type: 'gestures',
      gestures: list.map((g, i) => {
        const { type, ...rest } = validateGesture(g, `gestures[${i}]`);
        return rest;
      }),
    };
  },
  viewport(width, height) {
    checkViewport('viewport', { width, height });
    return { type: 'viewport', width, height };
  },
  ping(time, { id: requestId } = {}) {
    num('ping', { time }, 'time');
    return withId({ type: 'ping', time }, requestId);
  },
  query(what, params = {}, { id: requestId } = {}) {
    str('query', { what }, 'what');
    if (!isObject(params)) fail('query', 'params', 'an object', params);
    if ('type' in params || 'id' in params || 'what' in params) {
      throw new ProtocolError('query: params must not contain "type", "id" or "what"');
    }
    if (requestId === undefined) throw new ProtocolError('query: needs an id to match its result');
    return withId({ type: 'query', what, ...params }, requestId);
  },
  cancel({ id: requestId } = {}) {
    return withId({ type: 'cancel' }, requestId);
  },
};

/** JSON text for a message object. */
export function encode(message) {
  return JSON.stringify(message);
}

/**
 * Converts a wire camera to MapLibre jumpTo options {center, zoom, bearing, pitch,
 * padding}. The anchor becomes padding so MapLibre's centre offset puts the
 * target (and the perspective's principal point) at (ax W, ay H): MapLibre's
 * offset is ((left - right) / 2, (top - bottom) / 2). Needs the viewport size
 * for that; without a viewport, or for a centred camera, padding is all zero.
 * (Create the map with maxPitch: 85 to allow tilts above MapLibre's default 60.)
 */
export function toMapLibreCamera(camera, viewport) {
  const padding = { top: 0, bottom: 0, left: 0, right: 0 };
  if (camera.anchor && viewport) {
    const ox = (camera.anchor.x - 0.5) * viewport.width;
    const oy = (camera.anchor.y - 0.5) * viewport.height;
    if (ox > 0) padding.left = 2 * ox;
    else if (ox < 0) padding.right = -2 * ox;
    if (oy > 0) padding.top = 2 * oy;
    else if (oy < 0) padding.bottom = -2 * oy;
  }
  return { center: [camera.lon, camera.lat], zoom: camera.zoom, bearing: camera.bearing, pitch: camera.tilt, padding };
}
