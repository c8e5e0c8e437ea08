// The page's query string: ?room=…&role=follower|driver|presenter&name=…&token=…&rate=…
// Pure: works on strings (URLSearchParams is in node and browsers).

export const DEFAULT_ROOM = 'demo';
export const DEFAULT_ROLE = 'driver';
const ROLES = ['presenter', 'driver', 'follower'];

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
  const cleaned = [...String(text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim()].slice(0, 64).join('');
  return cleaned || undefined;
}

/** Parses a query string into {room, role, name, token, rate, warnings}. */
export function parseParams(search) {
  const q = new URLSearchParams(search);
  const warnings = [];
  const asked = (q.get('room') ?? '').trim();
  let room = cleanRoomName(asked);
  if (asked && room !== asked) warnings.push(`room "${asked}" is not a valid room name, using "${room}"`);
  let role = (q.get('role') ?? '').trim().toLowerCase();
  if (!role) role = DEFAULT_ROLE;
  if (!ROLES.includes(role)) {
    warnings.push(`unknown role "${role}", using ${DEFAULT_ROLE}`);
    role = DEFAULT_ROLE;
  }
  const name = cleanName(q.get('name'));
  const token = q.get('token') || undefined;
  let rate;
  if (q.has('rate')) {
    const r = Number(q.get('rate'));
    if (Number.isFinite(r) && r >= 1) rate = r;
    else warnings.push(`ignoring rate "${q.get('rate')}"`);
  }
  return { room, role, name, token, rate, warnings };
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
  setOrDelete('rate', params.rate);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The hub's WebSocket URL for a page at `location` ({protocol, host}). */
export function hubUrl(location) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/hub`;
}
