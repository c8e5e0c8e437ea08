// The page's query string: ?room=…&role=follower|driver|presenter&name=…&token=…&rate=…
// Pure: works on strings (URLSearchParams is in node and browsers).

export const DEFAULT_ROOM = 'demo';
export const DEFAULT_ROLE = 'driver';
const ROLES = ['presenter', 'driver', 'follower'];

/** Parses a query string into {room, role, name, token, rate, warnings}. */
export function parseParams(search) {
  const q = new URLSearchParams(search);
  const warnings = [];
  let room = (q.get('room') ?? '').trim();
  if (!room) room = DEFAULT_ROOM;
  if ([...room].length > 64) {
    warnings.push('room name cut to 64 characters');
    room = [...room].slice(0, 64).join('');
  }
  let role = (q.get('role') ?? '').trim().toLowerCase();
  if (!role) role = DEFAULT_ROLE;
  if (!ROLES.includes(role)) {
    warnings.push(`unknown role "${role}", using ${DEFAULT_ROLE}`);
    role = DEFAULT_ROLE;
  }
  const name = (q.get('name') ?? '').trim().slice(0, 64) || undefined;
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
