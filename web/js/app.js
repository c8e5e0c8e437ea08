// The viewer page (web/index.html): shows the room's camera from the hub on a
// MapLibre map, and lets drivers and presenters move it with gestures.
//
// The map never moves on its own authority: every MapLibre handler is off and
// the only camera change is map.jumpTo() with a camera sampled from the
// interpolation buffer of hub frames, or, while a driver's own gesture is under
// way, the page's prediction of it (prediction.js: the hub's gesture rules,
// reconciled with the hub's gestureAck), so nothing the hub sends is ever
// echoed back. The buffer plays the frames out behind an
// adaptive delay, for the time the camera will be painted (FramePacer), and
// the map is drawn right away. Local input becomes `gesture` messages
// (drivers, presenters) or a "take control?" prompt (followers).
//
// Tests read window.camhub (see the end of this file).

import { chooseStyle, fetchJson } from './map/map_style.js';
import { SUBSCRIPTIONS, build, toMapLibreCamera } from './net/messages.js';
import { SnapshotBuffer } from './motion/interpolation.js';
import { FramePacer } from './motion/playout.js';
import { Connection } from './net/connection.js';
import { RateMeter, Smoother } from './net/clock.js';
import { RoomState } from './ui/room.js';
import { Hud, tapLabel } from './ui/hud.js';
import { InputCapture } from './motion/input.js';
import { parseParams, formatParams, hubUrl, checkRoom, checkName, describeProblem, rateRefusal, settleRate } from './ui/params.js';
import { explainRefusal } from './ui/refusal.js';
import { PLACES, IdMaker, flyTo, resetNorth, demoTour } from './ui/tour.js';
import { keepToView, clearLimits } from './map/limits.js';
import { RouteState } from './map/route.js';
import { LiveAnimations } from './ui/animations.js';
import { Predictor } from './motion/prediction.js';
import { laggedWebSocket } from './net/lag.js';
import { wrapLongitude } from './map/projection.js';
import { Panel } from './ui/panel.js';

const $ = (sel) => document.querySelector(sel);
const now = () => performance.timeOrigin + performance.now();

const params = parseParams(location.search);
const room = new RoomState();
// the hub's default rate is min(30, tick); the welcome says which rate was granted
const buffer = new SnapshotBuffer({ rate: params.rate ?? 30 });
const pacer = new FramePacer();
const fps = new RateMeter();
const frameLatency = new Smoother(0.1);
const ids = new IdMaker();
const container = $('#map');
const hud = new Hud($('#hud'));

const state = {
  rendered: null, // last camera given to map.jumpTo (wire form)
  renderedMoving: false,
  renderedSeq: null,
  renderCount: 0,
  renderLog: [], // the last 300 rendered cameras with their local times (for tests)
  hubCamera: null, // newest camera received (welcome or frame)
  lastFrame: null,
  framesReceived: 0,
  gesturesSent: 0,
  errors: [],
  animations: [],
  protocolErrors: [],
  refusals: [], // every refusal of our hello: the hub's {code, message, ref} or {close, reason}
  taps: [], // labels of the tap markers shown
  viewport: { width: Math.max(1, container.clientWidth), height: Math.max(1, container.clientHeight) },
  mapLoaded: false,
  lastSample: null, // the playout buffer's last sample {camera, time, moving, seq}
};
/** The driver's own gestures, predicted at once and reconciled with the hub (?predict=0: numbered and measured only). */
const prediction = new Predictor({ viewport: state.viewport, enabled: params.predict, ackTimeoutMs: 1500 + 2 * params.lag });

// ---------------------------------------------------------------------------
// Toasts and fatal messages
// ---------------------------------------------------------------------------

function toast(text, kind = 'info', ms = 3500) {
  const box = $('#toasts');
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.textContent = text;
  box.append(el);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => el.classList.add('fade'), ms);
  setTimeout(() => el.remove(), ms + 450);
}

function showFatal(html) {
  $('#fatal-text').innerHTML = html;
  $('#fatal').hidden = false;
}

// ---------------------------------------------------------------------------
// Notices: what the page changed in its address, and why the hub refused it.
// They stay until dismissed (or, for a refusal, until the page joins).
// ---------------------------------------------------------------------------

function makeNotice(kind, name) {
  const el = document.createElement('div');
  el.className = `notice ${kind}`;
  el.dataset.notice = name;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  return el;
}

function dismissButton(onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'dismiss';
  b.setAttribute('aria-label', 'Dismiss');
  b.textContent = '×';
  b.addEventListener('click', onClick);
  return b;
}

/** One notice per parameter the page could not use as given (params.problems). */
function renderProblems() {
  const box = $('#notices');
  for (const el of box.querySelectorAll('[data-notice=param]')) el.remove();
  for (const p of params.problems) {
    if (p.dismissed) continue;
    const el = makeNotice('warn', 'param');
    el.dataset.param = p.param;
    const text = document.createElement('span');
    text.textContent = describeProblem(p);
    el.append(text, dismissButton(() => {
      p.dismissed = true;
      el.remove();
    }));
    box.append(el);
  }
}

/** The hub refused our hello: its reason, what to do, and buttons that do it. */
function showRefusal(refusal) {
  clearRefusal();
  const e = explainRefusal(refusal, params);
  const el = makeNotice('error', 'refusal');
  const title = document.createElement('strong');
  title.textContent = e.title;
  const reason = document.createElement('p');
  reason.className = 'reason';
  reason.textContent = e.reason;
  const advice = document.createElement('p');
  advice.textContent = e.advice;
  const actions = document.createElement('form');
  actions.className = 'row';
  actions.addEventListener('submit', (ev) => ev.preventDefault());
  for (const a of e.actions) {
    if (a === 'token') {
      const input = document.createElement('input');
      input.type = 'password';
      input.name = 'token';
      input.placeholder = 'token';
      input.autocomplete = 'off';
      input.setAttribute('aria-label', `${params.role} token`);
      const join = document.createElement('button');
      join.type = 'submit';
      join.className = 'primary';
      join.dataset.action = 'token';
      join.textContent = `Join as ${params.role}`;
      join.addEventListener('click', () => {
        if (input.value) rejoin({ token: input.value });
      });
      actions.append(input, join);
    } else {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.action = a;
      if (a === 'follower') {
        b.textContent = 'Join as follower';
        b.addEventListener('click', () => rejoin({ role: 'follower', token: undefined }));
      } else {
        b.textContent = 'Join again';
        b.addEventListener('click', () => rejoin({}));
      }
      actions.append(b);
    }
  }
  el.append(title, reason, advice, actions);
  $('#notices').prepend(el);
}

function clearRefusal() {
  for (const el of document.querySelectorAll('#notices [data-notice=refusal]')) el.remove();
}

function onRefused(refusal) {
  state.refusals.push(refusal);
  // A rate above this hub's tick: join at the hub's default and say so.
  const rate = rateRefusal(refusal, params);
  if (rate) {
    params.problems.push(rate);
    params.rate = undefined;
    renderProblems();
    conn.restart();
    return;
  }
  showRefusal(refusal);
}

// ---------------------------------------------------------------------------
// The map
// ---------------------------------------------------------------------------

const HANDLERS = ['dragPan', 'scrollZoom', 'boxZoom', 'dragRotate', 'keyboard', 'doubleClickZoom', 'touchZoomRotate', 'touchPitch'];

/** The style to start with (?style=, the hub's --style, its tiles, or the built-in one; see map_style.js). */
const mapStyle = await chooseStyle({ search: location.search, base: new URL('./', document.baseURI).href, fetchJson });
params.problems.push(...mapStyle.problems);

function createMap() {
  if (typeof maplibregl === 'undefined') {
    showFatal('MapLibre GL JS is missing from <code>web/vendor/maplibre/</code>. '
      + 'Run <code>scripts/install_web_vendor.sh</code> (or <code>make run</code>) and reload this page.');
    return null;
  }
  let m;
  try {
    m = new maplibregl.Map({
      container,
      style: mapStyle.style,
      center: [10, 30],
      zoom: 1.5,
      maxPitch: 85,
      maxZoom: 24,
      interactive: false,
      ...Object.fromEntries(HANDLERS.map((h) => [h, false])),
      attributionControl: { compact: true },
      renderWorldCopies: true,
      fadeDuration: 0,
    });
  } catch (e) {
    showFatal(`The map could not start (${e.message}). This page needs WebGL.`);
    return null;
  }
  // Belt and braces: the map must never move by itself.
  for (const h of HANDLERS) m[h]?.disable();
  m.on('load', () => {
    state.mapLoaded = true;
    m.addSource('camhub-route', { type: 'geojson', data: route.geojson() });
    m.addLayer({ id: 'camhub-route', type: 'line', source: 'camhub-route',
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': '#d9480f', 'line-width': 4, 'line-opacity': 0.85 } });
    m.addSource('camhub-bounds', { type: 'geojson', data: panel.boundsGeoJSON() });
    m.addLayer({ id: 'camhub-bounds', type: 'line', source: 'camhub-bounds',
      paint: { 'line-color': '#2b7bb9', 'line-width': 2, 'line-dasharray': [2, 1] } });
  });
  m.on('error', (e) => console.warn('map:', e.error?.message ?? e));
  return m;
}

/** The room's route, drawn as a line once the map has loaded. */
const route = new RouteState();
/** The room's running and queued animations, for the HUD. */
const animations = new LiveAnimations();
const map = createMap();

function drawRoute() {
  map?.getSource('camhub-route')?.setData(route.geojson());
}

function sameCamera(a, b) {
  if (!a || !b) return false;
  if (a.lat !== b.lat || a.lon !== b.lon || a.zoom !== b.zoom || a.bearing !== b.bearing || a.tilt !== b.tilt) return false;
  const aa = a.anchor;
  const ba = b.anchor;
  if (!aa || !ba) return !aa && !ba;
  return aa.x === ba.x && aa.y === ba.y;
}

function render(camera, rt, paintAt, seq = null) {
  state.rendered = camera;
  state.renderCount++;
  const entry = { t: now(), camera, rt, paintAt, seq, drawn: null };
  state.renderLog.push(entry);
  if (state.renderLog.length > 300) state.renderLog.shift();
  if (map) {
    map.jumpTo(toMapLibreCamera(camera, state.viewport));
    // Draw now rather than on the map's next animation frame: the camera is
    // on screen after this frame, a known draw time after it was computed.
    if (state.mapLoaded && !document.hidden) {
      const t0 = now();
      map.redraw();
      entry.drawn = now();
      pacer.drawn(entry.drawn - t0);
    }
  }
  $('#needle').style.transform = `rotate(${-camera.bearing}deg)`;
}

// ---------------------------------------------------------------------------
// The hub
// ---------------------------------------------------------------------------

// A follower's default subscriptions (what a map needs to stay in step) plus
// what this page shows: the roster's arrivals and departures, and taps.
const FOLLOWER_EVENTS = ['steady', 'trackingModeChanged', 'limitsChanged', 'presenterChanged', 'audience',
  'joined', 'left', 'tap', 'longPress', 'routeChanged', 'roomAnimations'];
// Drivers and presenters: everything but raw gesture reports, and the room's animations for the HUD.
const DRIVER_EVENTS = SUBSCRIPTIONS.filter((e) => e !== 'gesture');

function hello() {
  return build.hello({
    room: params.room, role: params.role, name: params.name, token: params.token, rate: params.rate, viewport: state.viewport,
    events: params.role === 'follower' ? FOLLOWER_EVENTS : DRIVER_EVENTS,
  });
}

const conn = new Connection({
  url: hubUrl(location),
  WebSocket: laggedWebSocket(globalThis.WebSocket, params.lag),
  hello,
  now,
  onMessage,
  onState: (s, detail) => {
    if (s === 'closed' && detail) console.info(`hub: ${detail}`);
    if (s === 'refused') onRefused(conn.refusal);
    updateControls();
  },
  onProtocolError: (e) => {
    state.protocolErrors.push(e.message);
    console.error(`hub sent an invalid message: ${e.message}`);
  },
});

/** The side panel's hub controls (event log, gesture switches, animations, query, tracking, plot). */
const panel = new Panel({
  conn, room, animations, route, ids, now, toast, container,
  map: () => map,
  playout: (t) => ({ latency: frameLatency.value, delay: buffer.stats.delay, fps: fps.rate(t) }),
  onChange: () => updateControls(),
});

function onMessage(m, receivedAt) {
  switch (m.type) {
    case 'welcome': {
      const requested = params.role;
      room.apply(m);
      route.welcome(m);
      drawRoute();
      animations.welcome(m);
      buffer.reset();
      buffer.setRate(m.rate ?? params.rate ?? 30);
      prediction.reset();
      prediction.setLimits(m.limits);
      fps.reset();
      frameLatency.reset();
      buffer.push({ seq: m.seq, time: m.time, camera: m.camera, moving: false, by: null }, receivedAt);
      panel.welcome(m);
      conn.latency.frame(m.time, receivedAt);
      state.hubCamera = m.camera;
      state.lastFrame = null;
      if (m.role !== requested) toast(`Joined as ${m.role} (asked for ${requested})`, 'warn');
      else toast(`Joined room ${m.room} as ${m.role}`, 'ok', 2000);
      // The address says what was joined (a reload or a shared link joins the same).
      params.room = m.room;
      params.role = m.role;
      showAddress();
      fillForm();
      clearRefusal();
      settleRate(params.problems, m.rate);
      renderProblems();
      updateControls();
      break;
    }
    case 'frame': {
      room.apply(m);
      buffer.push(m, receivedAt);
      state.framesReceived++;
      state.hubCamera = m.camera;
      state.lastFrame = m;
      fps.add(receivedAt);
      conn.latency.frame(m.time, receivedAt);
      const lat = conn.latency.frameLatency(m.time, receivedAt);
      if (lat !== null) frameLatency.add(lat);
      break;
    }
    case 'animation':
      onAnimation(m);
      panel.note(m);
      break;
    case 'event':
      onEvent(m);
      panel.note(m);
      break;
    case 'gestures':
      panel.setDisabledGestures(m.disabled ?? []);
      break;
    case 'result':
      panel.result(m);
      break;
    case 'gestureAck':
      prediction.ack(m, receivedAt);
      break;
    case 'error':
      if (m.ref === 'gesture') prediction.rejected(m, receivedAt, state.lastSample?.camera ?? null);
      state.errors.push(m);
      toast(`${m.code}: ${m.message}`, 'error', 5000);
      break;
    default:
      break; // pong (handled by the connection)
  }
}

function onAnimation(m) {
  state.animations.push(m);
  if (state.animations.length > 50) state.animations.shift();
  animations.report(m, room.me);
  if ((m.owner && m.owner !== room.me) || !ids.owns(m.id)) return;  // someone else's (roomAnimations)
  const label = ids.label(m.id);
  if (m.status === 'finished') toast(`${label}: done`, 'ok', 2500);
  else if (m.status === 'cancelled' || m.status === 'superseded') {
    const who = m.by && m.by !== room.me ? ` by ${room.nameOf(m.by)}` : '';
    toast(`${label}: ${m.status}${who}${m.reason ? ` (${m.reason})` : ''}`, 'warn');
  }
  if (m.clamped && m.clamped.length && m.status === 'started') toast(`${label}: limited (${m.clamped.join(', ')})`, 'warn');
}

function onEvent(m) {
  if (m.event === 'routeChanged') {
    route.changed(m);
    drawRoute();
  }
  const wasRole = room.role;
  const note = room.apply(m);
  if (m.event === 'limitsChanged') prediction.setLimits(room.limits);
  if (note && (m.event === 'joined' || m.event === 'left' || m.event === 'presenterChanged')) toast(note, 'info', 2500);
  if (room.role !== wasRole) {
    if (wasRole === 'presenter' && room.role === 'driver') toast('Another presenter took over: you are a driver now', 'warn', 5000);
    params.role = room.role;
    if (!room.canDrive) prediction.reset();
    showAddress();
    updateControls();
  }
  if ((m.event === 'tap' || m.event === 'longPress') && map && Number.isFinite(m.lat) && Number.isFinite(m.lon)) {
    // A long press is one marker: shown at `begin` (or a press without phases), moved on `change`.
    const held = m.event === 'longPress' && m.phase && m.phase !== 'begin' ? pressMarkers.get(m.by) : null;
    if (held) held.setLngLat([m.lon, m.lat]);
    else if (m.event === 'tap' || !m.phase || m.phase === 'begin') showTap(m);
  }
}

/** The marker of each client's long press in progress (by client id). */
const pressMarkers = new Map();

function showTap(m) {
  const text = tapLabel(m, (c) => room.nameOf(c));
  if (!text) return;
  state.taps.push(text);
  if (state.taps.length > 50) state.taps.shift();
  const el = document.createElement('div');
  el.className = 'tap-marker';
  const label = document.createElement('span');
  label.textContent = text;
  el.append(label);
  const marker = new maplibregl.Marker({ element: el }).setLngLat([m.lon, m.lat]).addTo(map);
  if (m.event === 'longPress') pressMarkers.set(m.by, marker);
  setTimeout(() => {
    marker.remove();
    if (pressMarkers.get(m.by) === marker) pressMarkers.delete(m.by);
  }, 2600);
}

function send(message) {
  if (!conn.send(message)) {
    toast('Not connected to the hub', 'error', 2000);
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------

const input = new InputCapture(container, {
  canDrive: () => conn.joined && room.canDrive,
  onGesture: (g) => {
    const m = build.gesture(g);
    // A kind switched off moves nothing on the hub: nothing to predict either.
    const predict = room.canDrive && !panel.disabledGestures.has(m.kind);
    if (conn.send(predict ? prediction.outgoing(m, now(), state.rendered) : m)) state.gesturesSent++;
  },
  onAttempt: () => {
    if (conn.joined) $('#takeover').hidden = false;
  },
});
input.setViewport(state.viewport.width, state.viewport.height);
input.attach();

// ---------------------------------------------------------------------------
// Controls: session form, drive buttons, take-over prompt, panel collapse
// ---------------------------------------------------------------------------

const form = $('#session');

function fillForm() {
  form.room.value = params.room;
  form.role.value = params.role;
  form.name.value = params.name ?? '';
}

/** Puts what the page joins (or joined) into the address bar, keeping other parameters. */
function showAddress() {
  history.replaceState(null, '', (formatParams(params, location.search) || location.pathname) + location.hash);
}

function rejoin(next) {
  input.cancel();
  Object.assign(params, next);
  showAddress();
  clearRefusal();
  fillForm();
  room.reset();
  $('#takeover').hidden = true;
  conn.restart();
  updateControls();
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const r = checkRoom(form.room.value);
  const n = checkName(form.name.value);
  // A new session: the address's problems are history, the form's are news.
  params.problems = [r.problem, n.problem].filter(Boolean).map((p) => ({ ...p, form: true }));
  renderProblems();
  rejoin({ room: r.room, role: form.role.value, name: n.name });
});

for (const place of PLACES) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = place.label;
  b.dataset.place = place.key;
  b.addEventListener('click', () => send(flyTo(place, ids)));
  $('#places').append(b);
}
$('#north').addEventListener('click', () => send(resetNorth(ids)));
$('#tour').addEventListener('click', () => {
  for (const m of demoTour(ids)) if (!send(m)) break;
  toast('Demo tour started: drag the map to take over', 'info', 3000);
});
$('#stop').addEventListener('click', () => send(build.cancel()));
$('#limits-keep').addEventListener('click', () => {
  // The area this page shows of the room's camera (the map renders the hub's camera).
  const b = map.getBounds();
  const zoom = state.hubCamera?.zoom ?? map.getZoom();
  send(build.limits(keepToView({ south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() }, zoom)));
});
$('#limits-clear').addEventListener('click', () => send(build.limits(clearLimits())));
$('#takeover-yes').addEventListener('click', () => rejoin({ role: 'driver' }));
$('#takeover-no').addEventListener('click', () => {
  $('#takeover').hidden = true;
});
for (const b of document.querySelectorAll('[data-collapse]')) {
  b.addEventListener('click', () => {
    const panel = document.getElementById(b.dataset.collapse);
    const collapsed = panel.classList.toggle('collapsed');
    b.textContent = collapsed ? '+' : '–';
  });
}

function updateControls() {
  const role = room.role ?? params.role;
  const driving = conn.joined && room.canDrive;
  document.body.classList.toggle('following', role === 'follower');
  document.body.classList.toggle('presenting', role === 'presenter');
  for (const b of document.querySelectorAll('#drive button, #drive input, #drive select')) b.disabled = !driving;
  panel.update(driving);
  if (driving) $('#takeover').hidden = true;
  document.title = `CameraHub · ${room.room ?? params.room} · ${role}`;
}

fillForm();
renderProblems();
showAddress();

// ---------------------------------------------------------------------------
// Viewport
// ---------------------------------------------------------------------------

let viewportTimer = null;
function onResize() {
  const width = Math.max(1, container.clientWidth);
  const height = Math.max(1, container.clientHeight);
  if (width === state.viewport.width && height === state.viewport.height) return;
  state.viewport = { width, height };
  input.setViewport(width, height);
  prediction.setViewport(state.viewport);
  if (map) {
    map.resize();
    if (state.rendered) map.jumpTo(toMapLibreCamera(state.rendered, state.viewport)); // the anchor's padding depends on the size
  }
  clearTimeout(viewportTimer);
  viewportTimer = setTimeout(() => conn.send(build.viewport(state.viewport.width, state.viewport.height)), 150);
}
new ResizeObserver(onResize).observe(container);

// ---------------------------------------------------------------------------
// The render loop: hub frames played out behind the jitter buffer's delay,
// each camera computed for the time it will be on screen (drawn at once, see
// render(); FramePacer predicts how long that takes)
// ---------------------------------------------------------------------------

let lastHud = 0;
function step(t, paintAt) {
  const s = buffer.sample(t, paintAt);
  state.lastSample = s;
  const predicted = prediction.sample(paintAt, s);
  if (predicted) {
    const camera = { ...predicted, lon: wrapLongitude(predicted.lon) };
    if (!sameCamera(camera, state.rendered)) render(camera, s?.time ?? null, paintAt, prediction.lastSentSeq);
    state.renderedMoving = true;
    state.renderedSeq = null;
  } else if (s) {
    if (!sameCamera(s.camera, state.rendered)) render(s.camera, s.time, paintAt, prediction.seqAt(s.time));
    state.renderedMoving = s.moving;
    state.renderedSeq = s.seq;
  }
  input.tick(t);
  if (t - lastHud >= 100) {
    lastHud = t;
    hud.render({
      state: conn.state,
      detail: conn.detail,
      retryInMs: conn.nextRetryAt !== null ? conn.nextRetryAt - t : null,
      room,
      params,
      camera: state.rendered,
      moving: state.renderedMoving,
      fps: fps.rate(t),
      rtt: conn.latency.lastRtt,
      offset: conn.latency.offset,
      frameLatency: frameLatency.value,
      playout: buffer.stats,
      prediction: room.canDrive ? prediction.stats : null,
      animations: animations.describe((c) => room.nameOf(c)),
    });
    panel.sample(t);
  }
}

function loop() {
  // Ask for the next frame first: this callback then runs before the map's own
  // in that frame, and the synchronous draw replaces the map's (no double draw).
  requestAnimationFrame(loop);
  const t = now();
  pacer.tick(t);
  step(t, pacer.paintTime(t));
}
requestAnimationFrame(loop);
// Hidden pages get no animation frames: keep landing on the hub's camera anyway.
setInterval(() => {
  if (document.hidden) {
    const t = now();
    step(t, t);
  }
}, 250);

conn.start();
updateControls();

// ---------------------------------------------------------------------------
// For tests and the console
// ---------------------------------------------------------------------------

window.camhub = {
  map,
  /** Where the map's style came from ('page' | 'hub' | 'tiles' | 'builtin') and its URL. */
  mapStyle: { from: mapStyle.from, url: mapStyle.url, name: mapStyle.style.name },
  params,
  room,
  buffer,
  connection: conn,
  get state() {
    return conn.state;
  },
  get client() {
    return room.me;
  },
  get role() {
    return room.role;
  },
  /** The camera last given to map.jumpTo (exactly the hub's once it rests). */
  get rendered() {
    return state.rendered;
  },
  /** True when the rendered camera is a resting frame's and nothing newer is pending. */
  get settled() {
    if (!state.rendered || state.renderedMoving) return false;
    const f = state.lastFrame;
    return f === null || (!f.moving && state.renderedSeq === f.seq);
  },
  get hubCamera() {
    return state.hubCamera;
  },
  /** Why the hub refused the last hello ({code, message, ref} or {close, reason}), null once joined. */
  get refusal() {
    return conn.refusal;
  },
  /**
   * Rendered cameras since local time `since` (ms, the page clock: performance.timeOrigin + performance.now()):
   * {t, camera, rt (the hub time it shows), paintAt (when it was expected on screen), seq (the newest of this
   * page's gestures it shows), drawn (when the synchronous draw ended, null when not drawn)}.
   */
  renders(since = 0) {
    return state.renderLog.filter((r) => r.t >= since);
  },
  now,
  /** Click-to-query: the last picked point {x, y, lat, lon} and visible bounds {bounds, quad}. */
  get query() {
    return { point: panel.queries.lastPoint, bounds: panel.queries.lastBounds };
  },
  /** Tracking from the panel: the route being drawn and whether a simulated drive runs. */
  get tracking() {
    return { draft: [...panel.draft], driving: panel.drive !== null };
  },
  /** The event log's lines, newest first. */
  get eventLog() {
    return panel.eventLog.lines();
  },
  /** Gesture kinds switched off for this page, as the hub last said. */
  get disabledGestures() {
    return [...panel.disabledGestures];
  },
  /** The frame-delay plot's samples {t, latency, delay, fps} of the last minute. */
  get delayPlot() {
    return panel.delayPlot.points;
  },
  /** The jitter buffer: delay, targetDelay, interval, jitter, lead, underruns, drySamples, samples, errorPx; frameMs. */
  get playout() {
    return { ...buffer.stats, frameMs: pacer.frameMs, drawMs: pacer.drawMs };
  },
  get viewport() {
    return state.viewport;
  },
  /** The driver's prediction: mode, stats {acks, errorPx, maxErrorPx, correctionPx, maxCorrectionPx, dropped}, sentLog. */
  prediction,
  get stats() {
    const { rendered, hubCamera, lastFrame, renderLog, lastSample, ...rest } = state;
    return { ...rest, seq: lastFrame ? lastFrame.seq : null, sent: conn.sent, received: conn.received, gesturesCaptured: input.sentCount };
  },
  /** MapLibre's own view of the camera. */
  mapCamera() {
    if (!map) return null;
    const c = map.getCenter();
    return { lat: c.lat, lon: c.lng, zoom: map.getZoom(), bearing: map.getBearing(), tilt: map.getPitch() };
  },
  /** Names of MapLibre handlers that are enabled (should be none). */
  handlersEnabled() {
    return map ? HANDLERS.filter((h) => map[h] && map[h].isEnabled()) : [];
  },
  /**
   * Sets `camera` on the page's map, returns map.project() of each {lat, lon}
   * (the longitude copy nearest the map's centre unless nearestCopy is false)
   * and MapLibre's resulting camera, then puts the rendered camera back.
   */
  projectWithMapLibre(camera, points, { nearestCopy = true } = {}) {
    if (!map) return null;
    map.jumpTo(toMapLibreCamera(camera, state.viewport));
    const centerLon = map.getCenter().lng;
    const projected = points.map((p) => {
      // like projection.js: the copy of the longitude nearest the camera's
      const lon = nearestCopy ? centerLon + ((((p.lon - centerLon + 180) % 360) + 360) % 360) - 180 : p.lon;
      const v = map.project([lon, p.lat]);
      return { x: v.x, y: v.y };
    });
    const result = { points: projected, camera: this.mapCamera(), viewport: { ...state.viewport } };
    if (state.rendered) map.jumpTo(toMapLibreCamera(state.rendered, state.viewport));
    return result;
  },
  send: (message) => conn.send(message),
};
