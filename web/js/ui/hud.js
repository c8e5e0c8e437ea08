// The heads-up display: connection, role, presenter, who moved the camera
// last, the camera, frames/s, latency, the jitter buffer and the people in the room. The
// formatting functions are pure (tested under node); Hud writes them into the
// page's elements (found by data-hud attributes).

import { describeLimits } from '../map/limits.js';
import { CAMERA_DEFAULTS } from '../../../clients/js/src/protocol/messages.js';

const dash = '—';

export function formatLat(lat) {
  if (!Number.isFinite(lat)) return dash;
  return `${Math.abs(lat).toFixed(5)}° ${lat >= 0 ? 'N' : 'S'}`;
}

export function formatLon(lon) {
  if (!Number.isFinite(lon)) return dash;
  return `${Math.abs(lon).toFixed(5)}° ${lon >= 0 ? 'E' : 'W'}`;
}

/** The camera's fields that are shown only when not at their defaults (absent on the wire means the default). */
export const OPTIONAL_CAMERA_FIELDS = ['roll', 'elevation', 'fov'];

/**
 * The HUD's camera fields. `roll` ("-12.5°"), `elevation` ("350 m") and `fov` ("50.0°") are null when the
 * camera has them at their defaults (0°, 0 m, MapLibre's 36.87°) or leaves them out: their rows are hidden.
 */
export function formatCamera(c) {
  if (!c) return { lat: dash, lon: dash, zoom: dash, bearing: dash, tilt: dash, anchor: dash, roll: null, elevation: null, fov: null };
  const offDefault = (k) => c[k] !== undefined && c[k] !== CAMERA_DEFAULTS[k];
  return {
    lat: formatLat(c.lat),
    lon: formatLon(c.lon),
    zoom: c.zoom.toFixed(2),
    bearing: `${c.bearing.toFixed(1)}°`,
    tilt: `${c.tilt.toFixed(1)}°`,
    anchor: c.anchor ? `${c.anchor.x.toFixed(2)}, ${c.anchor.y.toFixed(2)}` : 'centre',
    roll: offDefault('roll') ? `${c.roll.toFixed(1)}°` : null,
    elevation: offDefault('elevation') ? `${c.elevation.toFixed(0)} m` : null,
    fov: offDefault('fov') ? `${c.fov.toFixed(1)}°` : null,
  };
}

/** "12 ms", "1.2 s", or a dash for null. Signed values keep their sign. */
export function formatMs(ms, { signed = false } = {}) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return dash;
  if (Math.abs(ms) < 0.05) ms = 0; // no "-0.0"
  const sign = signed && ms > 0 ? '+' : '';
  if (Math.abs(ms) >= 10000) return `${sign}${(ms / 1000).toFixed(0)} s`;
  if (Math.abs(ms) >= 1000) return `${sign}${(ms / 1000).toFixed(1)} s`;
  if (Math.abs(ms) >= 10) return `${sign}${ms.toFixed(0)} ms`;
  return `${sign}${ms.toFixed(1)} ms`;
}

/**
 * The jitter buffer's line: "128 ms · 0 dry · 0.3 px" (delay, underruns, error estimate), with
 * "· 2 re-syncs" once the playout clock re-synced.
 */
export function formatPlayout(p) {
  if (!p || !Number.isFinite(p.delay)) return dash;
  const err = Number.isFinite(p.errorPx) ? `${p.errorPx.toFixed(1)} px` : dash;
  const resyncs = p.resyncs > 0 ? ` · ${p.resyncs} re-sync${p.resyncs === 1 ? '' : 's'}` : '';
  return `${formatMs(p.delay)} · ${p.underruns ?? 0} dry · ${err}${resyncs}`;
}

/**
 * The driver's prediction line: "0.0 px · max 0.4 px · 3 dropped": how far the
 * last acknowledged gesture's hub camera was from the page's prediction of it
 * (centre, px), the largest such error, and the predictions dropped for
 * someone else's (a dash when not driving).
 */
export function formatPrediction(p) {
  if (!p || !p.acks) return dash;
  const dropped = p.dropped ? ` · ${p.dropped} dropped` : '';
  return `${p.errorPx.toFixed(1)} px · max ${p.maxErrorPx.toFixed(1)} px${dropped}`;
}

export function formatRate(perSecond) {
  if (!Number.isFinite(perSecond)) return dash;
  return `${perSecond.toFixed(0)}/s`;
}

const STATE_LABELS = {
  idle: 'not connected',
  connecting: 'connecting…',
  joining: 'joining…',
  joined: 'connected',
  closed: 'disconnected',
  refused: 'refused by the hub',
  stopped: 'stopped',
};

/** The connection line: "connected", "reconnecting… (…) · retry in 2 s", "disconnected (…)", … */
export function connectionLabel(state, detail, retryInMs) {
  let s = STATE_LABELS[state] ?? state;
  if (detail) s += ` (${detail})`;
  if (state === 'closed' && Number.isFinite(retryInMs)) {
    s = `reconnecting…${detail ? ` (${detail})` : ''} · retry in ${Math.max(0, Math.ceil(retryInMs / 1000))} s`;
  }
  return s;
}

export const ROLE_LABELS = { presenter: 'Presenter', driver: 'Driver', follower: 'Follower' };

/**
 * The label of a tap marker: who tapped (or long-pressed) there, by name.
 * `nameOf` maps a client id to its display name (PageState.nameOf).
 * Null for anything but a `tap` or `longPress` event.
 */
export function tapLabel(m, nameOf) {
  if (!m || m.type !== 'event' || (m.event !== 'tap' && m.event !== 'longPress')) return null;
  const who = m.by ? nameOf(m.by) : 'someone';
  return `${who} ${m.event === 'longPress' ? 'long-pressed' : 'tapped'} here`;
}

export class Hud {
  /** @param {ParentNode} root element containing [data-hud=…] fields */
  constructor(root) {
    this.root = root;
    this.fields = {};
    for (const el of root.querySelectorAll('[data-hud]')) this.fields[el.dataset.hud] = el;
    this.lastText = {};
  }

  /** A field shown only with a text: its row (the <dd> and the <dt> before it) hidden for null. */
  setOptional(key, text) {
    const el = this.fields[key];
    if (!el) return;
    const hidden = text === null;
    if (el.hidden !== hidden) {
      el.hidden = hidden;
      if (el.previousElementSibling?.tagName === 'DT') el.previousElementSibling.hidden = hidden;
    }
    if (!hidden) this.set(key, text);
  }

  set(key, text, title) {
    const el = this.fields[key];
    if (!el || this.lastText[key] === text) return;
    this.lastText[key] = text;
    el.textContent = text;
    if (title !== undefined) el.title = title;
  }

  /**
   * @param {object} s {state, detail, retryInMs, room (PageState: room, role, me, presenter, lastBy, limits,
   *   roster, nameOf), camera, moving, fps, rtt, offset, frameLatency, playout (SnapshotBuffer.stats),
   *   prediction, animations}
   */
  render(s) {
    const room = s.room;
    this.set('connection', connectionLabel(s.state, s.detail, s.retryInMs));
    const dot = this.fields.dot;
    if (dot) dot.dataset.state = s.state;
    const role = room.role;
    this.set('role', ROLE_LABELS[role] ?? role);
    if (this.fields.role) this.fields.role.dataset.role = role;
    this.setRoom(room.room);
    this.set('me', room.me ? room.nameOf(room.me) : dash);
    this.set('presenter', room.presenter ? room.nameOf(room.presenter) : 'nobody');
    this.set('by', room.lastBy ? room.nameOf(room.lastBy) : dash);
    const c = formatCamera(s.camera);
    for (const k of ['lat', 'lon', 'zoom', 'bearing', 'tilt', 'anchor']) this.set(k, c[k]);
    for (const k of OPTIONAL_CAMERA_FIELDS) this.setOptional(k, c[k]);
    this.set('moving', s.camera ? (s.moving ? 'moving' : 'at rest') : dash);
    this.set('limits', describeLimits(room.limits));
    this.set('fps', formatRate(s.fps));
    this.set('rtt', formatMs(s.rtt));
    this.set('offset', formatMs(s.offset, { signed: true }));
    this.set('latency', formatMs(s.frameLatency));
    this.set('playout', formatPlayout(s.playout));
    this.set('prediction', formatPrediction(s.prediction));
    if (s.animations !== undefined) this.set('animations', s.animations);
    this.set('follow', room.followSummary?.() ?? dash);
    this.renderPeople(room);
  }

  /**
   * The room name in the panel's header: the brand makes way for a name that
   * does not fit beside it, and the whole name is on hover when even that is
   * not enough. The role badge keeps its width.
   */
  setRoom(name) {
    const el = this.fields.room;
    if (!el || this.lastText.room === name) return;
    this.set('room', name, `room ${name}`);
    const head = el.closest('.panel-head');
    if (!head) return;
    head.classList.remove('long-room');
    if (el.scrollWidth > el.clientWidth) head.classList.add('long-room');
  }

  renderPeople(room) {
    const list = this.fields.people;
    if (!list) return;
    const people = room.roster();
    const key = JSON.stringify([room.me, room.presenter, room.headCount, people]);
    if (key === this.peopleKey) return;
    this.peopleKey = key;
    this.set('count', String(room.headCount));
    list.replaceChildren(...people.map((p) => {
      const li = list.ownerDocument.createElement('li');
      li.dataset.role = p.role;
      li.dataset.follow = p.follow ?? 'following';
      li.textContent = room.nameOf(p.client);
      const badges = list.ownerDocument.createElement('span');
      const badge = list.ownerDocument.createElement('span');
      badge.className = 'badge';
      badge.textContent = p.role;
      badges.append(badge);
      if (p.follow && p.follow !== 'following') {
        const state = list.ownerDocument.createElement('span');
        state.className = 'badge follow';
        state.textContent = ` · ${p.follow}`;
        badges.append(state);
      }
      li.append(' ', badges);
      return li;
    }));
  }
}
