// The room's storyboard on the wire: `story` (edits) and `step` (going
// through it), built and checked as the hub checks them, so that a bad step
// throws here, naming the field, before anything is sent. Pure.
//
//   story  {op: set, steps}                 replaces every step ([] clears)
//          {op: insert, steps, index?}      before step `index` (absent: at the end)
//          {op: update, index, step}        replaces step `index`
//          {op: move, from, to}             moves step `from` to position `to`
//          {op: remove, index}              takes step `index` out
//          {drivers}                        presenters: whether drivers may edit and step (on any op, or alone)
//   step   {to: next|previous|play|pause|N, id?}
//   a step {camera: {lat, lon, zoom, bearing?, tilt?, roll?, elevation?, fov?, anchor?, padding?},
//           via?: fly|ease|jump, duration?, speed? (fly), curve? (ease), hold?, title?, notes?, essential?}
//
// Indices count from 0. The hub checks them against the room's storyboard.

import { validateCamera, CURVE_NAMES, MAX_NAME_LENGTH } from './messages.js';
import { ProtocolError } from './protocol_error.js';

/** The bounds the hub keeps a storyboard within. */
export const STORY_LIMITS = Object.freeze({ steps: 100, titleLength: 120, notesLength: 2000, duration: 60, speed: 100, hold: 3600 });
/** How a step takes the room's camera to its own. */
export const STORY_VIAS = ['fly', 'ease', 'jump'];
/** What `step` may go to besides an index. */
export const STEP_TARGETS = ['next', 'previous', 'play', 'pause'];
/** The hub's largest client message (bytes); `storySet` splits a storyboard to fit. */
export const MAX_MESSAGE_BYTES = 8 * 1024;

const STEP_KEYS = ['camera', 'via', 'duration', 'speed', 'curve', 'hold', 'title', 'notes', 'essential'];
const CAMERA_KEYS = ['lat', 'lon', 'zoom', 'bearing', 'tilt', 'roll', 'elevation', 'fov', 'anchor', 'padding'];

function fail(field, message) {
  throw new ProtocolError(`${field}: ${message}`);
}

function number(where, value, min, max, { above = false } = {}) {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(where, `must be a finite number (got ${JSON.stringify(value)})`);
  if ((above ? value <= min : value < min) || value > max) fail(where, `must be within ${min}…${max} (got ${value})`);
  return value;
}

function index(where, value) {
  if (!Number.isInteger(value) || value < 0) fail(where, `must be a whole number ≥ 0 (got ${JSON.stringify(value)})`);
  return value;
}

function text(where, value, maxLength, newlines) {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') fail(where, `must be a string (got ${typeof value})`);
  const length = [...value].length;
  if (length > maxLength) fail(where, `must be at most ${maxLength} characters (got ${length})`);
  // eslint-disable-next-line no-control-regex
  const control = newlines ? /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/ : /[\u0000-\u001F\u007F-\u009F]/;
  if (control.test(value)) fail(where, newlines ? 'must not contain control characters but new lines' : 'must be one line without control characters');
  return value;
}

/**
 * One step, checked and copied with only the fields the hub reads (those at their defaults left out).
 * @param {object} step
 * @param {string} [where]
 * @returns {object}
 */
export function validateStep(step, where = 'step') {
  if (step === null || typeof step !== 'object' || Array.isArray(step)) fail(where, 'must be an object');
  for (const key of Object.keys(step)) if (!STEP_KEYS.includes(key)) fail(`${where}.${key}`, `unknown field in a step (known: ${STEP_KEYS.join(', ')})`);
  const camera = step.camera;
  if (camera === null || typeof camera !== 'object') fail(`${where}.camera`, 'missing (a step\'s camera needs lat, lon and zoom)');
  for (const key of ['lat', 'lon', 'zoom']) if (camera[key] === undefined) fail(`${where}.camera.${key}`, "missing (a step's camera needs lat, lon and zoom)");
  validateCamera(camera, `${where}.camera`, { partial: true });
  const out = { camera: {} };
  for (const key of CAMERA_KEYS) if (camera[key] !== undefined) out.camera[key] = typeof camera[key] === 'object' ? { ...camera[key] } : camera[key];
  const via = step.via ?? 'fly';
  if (!STORY_VIAS.includes(via)) fail(`${where}.via`, `unknown way '${via}' (known: ${STORY_VIAS.join(', ')})`);
  if (via !== 'fly') out.via = via;
  if (step.duration !== undefined) {
    if (via === 'jump') fail(`${where}.duration`, 'a jump takes no time (via is jump)');
    out.duration = number(`${where}.duration`, step.duration, 0, STORY_LIMITS.duration);
  }
  if (step.speed !== undefined) {
    if (via !== 'fly') fail(`${where}.speed`, `only a flight has a speed (via is ${via})`);
    out.speed = number(`${where}.speed`, step.speed, 0, STORY_LIMITS.speed, { above: true });
  }
  if (step.curve !== undefined) {
    if (via !== 'ease') fail(`${where}.curve`, `only an ease has a curve (via is ${via})`);
    const c = step.curve;
    const named = typeof c === 'string' && CURVE_NAMES.includes(c);
    const bezier = Array.isArray(c) && c.length === 4 && c.every((v) => Number.isFinite(v)) && c[0] >= 0 && c[0] <= 1 && c[2] >= 0 && c[2] <= 1;
    if (!named && !bezier) fail(`${where}.curve`, `must be one of ${CURVE_NAMES.join(', ')} or [x1, y1, x2, y2]`);
    out.curve = Array.isArray(c) ? [...c] : c;
  }
  if (step.hold !== undefined && step.hold !== null) out.hold = number(`${where}.hold`, step.hold, 0, STORY_LIMITS.hold);
  const title = text(`${where}.title`, step.title, STORY_LIMITS.titleLength, false);
  if (title !== undefined) out.title = title;
  const notes = text(`${where}.notes`, step.notes, STORY_LIMITS.notesLength, true);
  if (notes !== undefined) out.notes = notes;
  if (step.essential === true) out.essential = true;
  else if (step.essential !== undefined && step.essential !== false) fail(`${where}.essential`, 'must be true or false');
  return out;
}

function steps(list, where, { allowEmpty }) {
  if (!Array.isArray(list)) fail(where, 'must be an array of steps');
  if (!allowEmpty && list.length === 0) fail(where, 'must hold at least one step');
  if (list.length > STORY_LIMITS.steps) fail(where, `must hold at most ${STORY_LIMITS.steps} steps (got ${list.length})`);
  return list.map((s, i) => validateStep(s, `${where}[${i}]`));
}

function drivers(m, value) {
  if (value === undefined) return m;
  if (typeof value !== 'boolean') fail('drivers', 'must be true or false');
  m.drivers = value;
  return m;
}

/** Builders of `story` and `step` messages (each throws a ProtocolError naming the field). */
export const buildStory = {
  /** Replaces every step; `{drivers}` (presenters) lets drivers edit and step it. */
  set(list, options = {}) {
    return drivers({ type: 'story', op: 'set', steps: steps(list, 'steps', { allowEmpty: true }) }, options.drivers);
  },
  /** Puts `list` before step `at` (undefined: at the end). */
  insert(list, at) {
    const m = { type: 'story', op: 'insert', steps: steps(list, 'steps', { allowEmpty: false }) };
    if (at !== undefined) m.index = index('index', at);
    return m;
  },
  update(at, step) {
    return { type: 'story', op: 'update', index: index('index', at), step: validateStep(step) };
  },
  move(from, to) {
    return { type: 'story', op: 'move', from: index('from', from), to: index('to', to) };
  },
  remove(at) {
    return { type: 'story', op: 'remove', index: index('index', at) };
  },
  /** Presenters: whether drivers may edit and step the storyboard. */
  drivers(allow) {
    return drivers({ type: 'story' }, allow);
  },
  /** `to`: 'next', 'previous', 'play', 'pause' or a step's index; `id`: the step's move's animation id. */
  step(to, id) {
    const m = { type: 'step' };
    if (typeof to === 'string') {
      if (!STEP_TARGETS.includes(to)) fail('to', `unknown step '${to}' (next, previous, play, pause or a step's index)`);
      m.to = to;
    } else {
      m.to = index('to', to);
    }
    if (id !== undefined) {
      if (typeof id !== 'string' || id.length === 0 || [...id].length > MAX_NAME_LENGTH) fail('id', `must be 1…${MAX_NAME_LENGTH} characters`);
      m.id = id;
    }
    return m;
  },
};

/**
 * A whole storyboard as the messages that send it: one `set` when it fits in one message, else a `set` of the
 * first steps and `insert`s of the rest, each under the hub's message size.
 * @param {object[]} list
 * @param {{drivers?: boolean}} [options]
 * @returns {object[]}
 */
export function storySet(list, options = {}) {
  const whole = buildStory.set(list, options);
  const size = (m) => new TextEncoder().encode(JSON.stringify(m)).length;
  if (size(whole) <= MAX_MESSAGE_BYTES) return [whole];
  const messages = [];
  let current = drivers({ type: 'story', op: 'set', steps: [] }, options.drivers);
  for (const step of whole.steps) {
    current.steps.push(step);
    if (size(current) > MAX_MESSAGE_BYTES) {
      current.steps.pop();
      if (current.steps.length === 0) fail('steps', 'a step is larger than one message');
      messages.push(current);
      current = { type: 'story', op: 'insert', steps: [step] };
    }
  }
  messages.push(current);
  return messages;
}
