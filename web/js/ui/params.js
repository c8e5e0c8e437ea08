// The page's query string: ?room=…&role=follower|driver|presenter&name=…&token=…&rate=…&fit=same|cover
// &motion=reduced (as the system's prefers-reduced-motion)&share=0 (an explorer does not share where it looks)
// (and, for tests and demos, &lag=MS (lag.js) and &predict=0)
// Pure: works on strings (URLSearchParams is in node and browsers).
//
// A value the page cannot use is replaced, and the replacement is reported as
// a problem {param, given, why, used} (describeProblem turns it into the
// sentence the page shows), so nobody is left wondering why the page joined
// another room or role than the address asked for.

import { parseLag } from '../net/lag.js';
import { FIT_MODES } from '../../../clients/js/src/geo/fit.js';

export const DEFAULT_ROOM = 'demo';
export const DEFAULT_ROLE = 'driver';
export const ROLES = ['presenter', 'driver', 'follower'];
/** The parameters the page reads. */
export const PARAMS = ['room', 'role', 'name', 'token', 'tokenUrl', 'rate', 'fit', 'motion', 'share', 'lag', 'predict'];
/** The highest rate any hub sends: its tick (`camhub serve --tick`, 1…240 Hz). Each hub's own limit is its tick. */
export const MAX_RATE = 240;
const MAX_NAME = 64;
const HUB_DEFAULT_RATE = "the hub's default rate";

/**
 * A valid hub room name (1–64 of [A-Za-z0-9_-]) from what a person typed:
 * blanks become '-', other characters are dropped; empty becomes the default.
 */
export function cleanRoomName(text) {
  const cleaned = String(text ?? '').trim().replace(/\s+/g, '-').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 64);
  return cleaned || DEFAULT_ROOM;
}

/** A display name without control characters, at most 64 characters (undefined when empty). */
export function cleanName(text) {
  const cleaned = [...String(text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim()].slice(0, MAX_NAME).join('');
  return cleaned || undefined;
}

/** The room for what a person typed, and the problem when it had to be changed (else null). */
export function checkRoom(text) {
  const asked = String(text ?? '').trim();
  const room = cleanRoomName(asked);
  if (!asked || room === asked) return { room, problem: null };
  const why = asked.length > 64 && cleanRoomName(asked.slice(0, 64)) === asked.slice(0, 64)
    ? 'a room name has at most 64 characters'
    : 'a room name has only letters, digits, _ and - (1–64 of them)';
  return { room, problem: { param: 'room', given: asked, why, used: `room "${room}"` } };
}

/** The name for what a person typed, and the problem when it had to be changed (else null). */
export function checkName(text) {
  const asked = String(text ?? '').trim();
  const name = cleanName(asked);
  if (!asked || name === asked) return { name, problem: null };
  const control = /[\u0000-\u001f\u007f-\u009f]/.test(asked);
  const why = control ? 'a name may not contain control characters' : `a name has at most ${MAX_NAME} characters`;
  return { name, problem: { param: 'name', given: asked, why, used: name === undefined ? 'no name (your client id)' : `"${name}"` } };
}

/**
 * Parses a query string into {room, role, name, token, rate, problems}: what
 * the page will ask the hub for, and a problem for each parameter it could not
 * use as given.
 */
export function parseParams(search) {
  const q = new URLSearchParams(search);
  const problems = [];
  const r = checkRoom(q.get('room'));
  if (r.problem) problems.push(r.problem);
  const room = r.room;

  const askedRole = (q.get('role') ?? '').trim();
  let role = askedRole.toLowerCase() || DEFAULT_ROLE;
  if (!ROLES.includes(role)) {
    problems.push({ param: 'role', given: askedRole, why: 'the roles are presenter, driver and follower', used: DEFAULT_ROLE });
    role = DEFAULT_ROLE;
  }

  const n = checkName(q.get('name'));
  if (n.problem) problems.push(n.problem);
  const name = n.name;
  const token = q.get('token') || undefined;
  // ?tokenUrl=/path: where the page gets a new signed token when the hub says its token expires soon
  // (the page may fetch from its own origin only: a path).
  let tokenUrl = (q.get('tokenUrl') ?? '').trim() || undefined;
  if (tokenUrl !== undefined && !(tokenUrl.startsWith('/') && !tokenUrl.startsWith('//'))) {
    problems.push({ param: 'tokenUrl', given: tokenUrl, why: "tokenUrl is a path on this page's own origin, such as /auth/camhub-token", used: 'nothing: the token is not refreshed' });
    tokenUrl = undefined;
  }

  let rate;
  const askedRate = (q.get('rate') ?? '').trim();
  if (askedRate) {
    const value = Number(askedRate);
    if (!Number.isFinite(value)) {
      problems.push({ param: 'rate', given: askedRate, why: 'the rate is a number of frames per second', used: HUB_DEFAULT_RATE });
    } else if (value < 1 || value > MAX_RATE) {
      problems.push({ param: 'rate', given: askedRate, why: `the rate is 1…${MAX_RATE} frames per second (and at most the hub's tick)`, used: HUB_DEFAULT_RATE });
    } else {
      rate = value;
    }
  }

  // ?fit=cover: a follower shows at least what the presenter's view shows (map/fit.js).
  const askedFit = (q.get('fit') ?? '').trim();
  let fit = askedFit.toLowerCase() || 'same';
  if (!FIT_MODES.includes(fit)) {
    problems.push({ param: 'fit', given: askedFit, why: 'fit is same or cover', used: 'same' });
    fit = 'same';
  }

  // ?motion=reduced: other clients' non-essential animations jump to their end (motion/reduced_motion.js).
  const askedMotion = (q.get('motion') ?? '').trim();
  let motion = askedMotion.toLowerCase() || undefined;
  if (motion !== undefined && motion !== 'reduced' && motion !== 'full') {
    problems.push({ param: 'motion', given: askedMotion, why: 'motion is reduced or full', used: "the system's setting" });
    motion = undefined;
  }

  // ?share=0: an exploring follower does not tell the presenter where it looks (page/sharing.js); absent: as
  // the person last chose on this browser.
  const askedShare = (q.get('share') ?? '').trim().toLowerCase();
  let share;
  if (['0', 'false', 'off', 'no'].includes(askedShare)) share = false;
  else if (['1', 'true', 'on', 'yes'].includes(askedShare)) share = true;
  else if (askedShare) problems.push({ param: 'share', given: q.get('share'), why: 'share is 1 or 0', used: 'your last choice' });

  // ?lag=MS delays the page's messages (MS/2 each way); ?predict=0 turns the driver's prediction off.
  const l = parseLag(q.get('lag'));
  if (l.problem) problems.push(l.problem);
  const lag = l.lag;
  const askedPredict = (q.get('predict') ?? '').trim();
  const predict = !['0', 'false', 'off', 'no'].includes(askedPredict.toLowerCase());
  if (askedPredict && !['0', 'false', 'off', 'no', '1', 'true', 'on', 'yes'].includes(askedPredict.toLowerCase())) {
    problems.push({ param: 'predict', given: askedPredict, why: 'predict is 1 or 0', used: 'prediction on' });
  }

  for (const key of new Set(q.keys())) {
    if (PARAMS.includes(key)) continue;
    const known = PARAMS.find((p) => p.toLowerCase() === key.toLowerCase());
    problems.push({
      param: key, given: q.get(key), unknown: true,
      why: known ? `did you mean ${known}? Parameter names are case-sensitive.` : `the page reads ${PARAMS.slice(0, -1).join(', ')} and ${PARAMS.at(-1)}.`,
      used: 'nothing (ignored)',
    });
  }
  return { room, role, name, token, tokenUrl, rate, fit, motion, share, lag, predict, problems };
}

/**
 * The problem when the hub refused the hello because of the page's rate (the
 * hub allows 1…its tick), else null. `error` is the hub's `error` message.
 */
export function rateRefusal(error, params) {
  if (!error || params.rate === undefined || error.code !== 'bad_message' || !/^rate:/.test(error.message ?? '')) return null;
  return { param: 'rate', given: String(params.rate), why: `the hub refused it (${error.message})`, used: HUB_DEFAULT_RATE };
}

/** Once joined: the rate problems say which rate the hub's default turned out to be. */
export function settleRate(problems, grantedRate) {
  for (const p of problems) {
    if (p.param === 'rate' && p.used === HUB_DEFAULT_RATE && Number.isFinite(grantedRate)) {
      p.used = `the hub's default, ${formatNumber(grantedRate)} frames per second`;
    }
  }
}

function formatNumber(x) {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}

/**
 * The sentence the page shows for a problem: `?role=admin: the roles are …;
 * using driver instead.` (`room "my room!": …` for one typed into the session
 * form, marked `form: true`).
 */
export function describeProblem(p) {
  const given = p.given.length > 80 ? `${p.given.slice(0, 77)}…` : p.given;
  if (p.unknown) return `?${p.param}=${given}: ignored; ${p.why}`;
  const what = p.form ? `${p.param} "${given}"` : `?${p.param}=${given}`;
  return `${what}: ${p.why}; using ${p.used} instead.`;
}

/** The query string for `params`, keeping other keys of `search`; defaults are left out. */
export function formatParams(params, search = '') {
  const q = new URLSearchParams(search);
  const setOrDelete = (k, v, dflt) => {
    if (v === undefined || v === null || v === '' || v === dflt) q.delete(k);
    else q.set(k, String(v));
  };
  setOrDelete('room', params.room, DEFAULT_ROOM);
  setOrDelete('role', params.role, DEFAULT_ROLE);
  setOrDelete('name', params.name);
  setOrDelete('token', params.token);
  setOrDelete('tokenUrl', params.tokenUrl);
  setOrDelete('rate', params.rate);
  setOrDelete('fit', params.fit, 'same');
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The hub's WebSocket URL for a page at `location` ({protocol, host}). */
export function hubUrl(location) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/hub`;
}
