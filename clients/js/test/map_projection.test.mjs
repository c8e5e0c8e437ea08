// The room's projection (Mercator or the globe) without a hub: the messages,
// the room's state, `room.setProjection` on a fake socket, and attachMapLibre
// on a fake MapLibre map (setProjection only when the map draws in another
// projection, after the style has loaded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, parseMessage, ProtocolError, PROJECTIONS, SUBSCRIPTIONS } from '../src/protocol/messages.js';
import { RoomState } from '../src/state/room_state.js';
import { eventsFor } from '../src/state/subscriptions.js';
import { connect, CamHubError } from '../src/room.js';
import { applyProjection, mapProjection } from '../src/maplibre/camera.js';
import { MapLibreAttachment } from '../src/maplibre/attach.js';

const camera = { lat: 1, lon: 2, zoom: 3, bearing: 0, tilt: 0 };
const welcome = {
  type: 'welcome', client: 'c1', room: 'demo', role: 'presenter', rate: 30, tick: 60, time: 1000, seq: 0, camera,
  limits: { minZoom: 0, maxZoom: 22, minTilt: 0, maxTilt: 60, maxTiltByZoom: [], bounds: null }, presenter: 'c1',
  roster: [], gestures: [],
};
const changed = (projection, by = 'c2') => ({ type: 'event', event: 'projectionChanged', time: 2000, projection, by });

test('welcome.projection and projectionChanged are validated: mercator or globe, by a client or null', () => {
  assert.deepEqual(PROJECTIONS, ['mercator', 'globe']);
  assert.equal(parseMessage({ ...welcome, projection: 'globe' }).projection, 'globe');
  assert.equal(parseMessage(welcome).projection, undefined, 'a hub before projections sends none');
  assert.throws(() => parseMessage({ ...welcome, projection: 'polar' }), /welcome: "projection" must be one of mercator\|globe, got "polar"/);
  assert.equal(parseMessage(JSON.stringify(changed('globe'))).projection, 'globe');
  assert.equal(parseMessage(changed('mercator', null)).by, null);
  assert.throws(() => parseMessage(changed('Globe')), /event\(projectionChanged\): "projection" must be one of mercator\|globe/);
  assert.throws(() => parseMessage({ ...changed('globe'), projection: undefined }), /"projection" must be a string, got nothing/);
});

test('every role subscribes to projectionChanged', () => {
  assert.ok(SUBSCRIPTIONS.includes('projectionChanged'));
  for (const role of ['presenter', 'driver', 'follower']) assert.ok(eventsFor(role).includes('projectionChanged'), role);
});

test('the room state keeps the projection of the welcome and of each projectionChanged, and says it changed', () => {
  const state = new RoomState({ room: 'demo', role: 'follower' });
  assert.equal(state.projection, 'mercator', 'before a welcome: Mercator');
  assert.ok(state.apply({ ...welcome, projection: 'globe' }).has('projection'));
  assert.equal(state.projection, 'globe');
  assert.equal(state.apply({ type: 'frame', seq: 1, time: 1, camera, moving: false }).has('projection'), false);
  const c = state.apply(changed('mercator'));
  assert.ok(c.has('projection'));
  assert.equal(state.projection, 'mercator');
  state.apply(changed('globe'));
  state.rejoin({ role: 'driver' });
  assert.equal(state.projection, 'globe', 'kept across sessions until the next welcome, like the camera');
  state.apply(welcome);
  assert.equal(state.projection, 'mercator', 'a welcome without one (a hub before projections): Mercator');
});

test('build.projection makes the command for mercator or globe and refuses anything else, naming projection', () => {
  assert.deepEqual(build.projection('globe'), { type: 'projection', projection: 'globe' });
  assert.deepEqual(build.projection('mercator'), { type: 'projection', projection: 'mercator' });
  for (const bad of ['polar', 'Globe', '', undefined, null, 1]) {
    assert.throws(() => build.projection(bad), (e) => e instanceof ProtocolError
      && /^projection: "projection" must be (one of mercator\|globe|a string)/.test(e.message), String(bad));
  }
});

class FakeSocket {
  constructor() {
    this.readyState = 0;
    this.sent = [];
    FakeSocket.last = this;
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  receive(m) {
    this.onmessage({ data: JSON.stringify(m) });
  }
}

const noTimers = { setTimeout: () => 0, clearTimeout: () => {}, setInterval: () => 0, clearInterval: () => {} };

/** A room on a fake socket, joined with `welcome` (its socket: `ws`). */
function joinedRoom(first = welcome) {
  const room = connect({ url: 'ws://127.0.0.1:1/hub', room: 'demo', role: 'presenter', WebSocket: FakeSocket,
    timers: noTimers, now: () => 1000 });
  const ws = FakeSocket.last;
  ws.readyState = 1;
  ws.onopen();
  ws.receive(first);
  return { room, ws };
}

test('room.setProjection sends the command; a bad value throws before anything is sent; not joined throws', () => {
  const early = connect({ url: 'ws://127.0.0.1:1/hub', room: 'demo', role: 'presenter', WebSocket: FakeSocket,
    timers: noTimers, now: () => 1000 });
  assert.throws(() => early.setProjection('globe'), (e) => e instanceof CamHubError && e.code === 'not_joined');
  early.close();

  const { room, ws } = joinedRoom();
  room.setProjection('globe');
  assert.deepEqual(ws.sent.at(-1), { type: 'projection', projection: 'globe' });
  const count = ws.sent.length;
  assert.throws(() => room.setProjection(/** @type {any} */ ('polar')), (e) => e instanceof ProtocolError && /projection/.test(e.message));
  assert.equal(ws.sent.length, count, 'nothing sent');
  room.close();
});

test('room.projection follows the welcome and projectionChanged, which is an event by name', () => {
  const { room, ws } = joinedRoom({ ...welcome, projection: 'globe' });
  assert.equal(room.projection, 'globe');
  const heard = [];
  room.on('projectionChanged', (m) => heard.push([m.projection, m.by, room.projection]));
  ws.receive(changed('mercator'));
  assert.deepEqual(heard, [['mercator', 'c2', 'mercator']], 'the state has changed when the event is emitted');
  room.close();
});

/** A MapLibre GL JS 5 map as far as projections go; `loading` makes setProjection throw as MapLibre does. */
function fakeMap({ projection, loading = false, v5 = true } = {}) {
  const map = {
    calls: [],
    listeners: new Map(),
    style: projection ? { type: projection } : undefined,
    loading,
    on(type, fn) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
    },
    off(type, fn) {
      this.listeners.set(type, (this.listeners.get(type) ?? []).filter((f) => f !== fn));
    },
    fire(type) {
      for (const fn of this.listeners.get(type) ?? []) fn();
    },
    /** A new style: its own projection (none: Mercator), loaded. */
    restyle(p) {
      this.style = p ? { type: p } : undefined;
      this.loading = false;
      this.fire('style.load');
    },
  };
  if (!v5) return map;
  map.getProjection = () => map.style;
  map.setProjection = (p) => {
    if (map.loading) throw new Error('Style is not done loading.');
    map.calls.push(p);
    map.style = p;
  };
  return map;
}

/** An attachment of `map` to a room (its state only), without the DOM: what receive() reaches is stubbed. */
function attachment(map, state) {
  return Object.assign(Object.create(MapLibreAttachment.prototype), {
    map, room: { state }, offs: [], prediction: null,
    buffer: { reset() {}, setRate() {}, setTick() {}, push() {} },
    reducedMotion: { reset() {}, report() {} },
    follow: { changed() {} },
  });
}

/** Applies `m` to the room's state and hands it to the attachment, as the room's 'message' event does. */
function deliver(attached, m) {
  const hadDocument = 'document' in globalThis;
  globalThis.document ??= /** @type {any} */ ({ hidden: false });
  try {
    attached.receive(m, 0, attached.room.state.apply(m));
  } finally {
    if (!hadDocument) delete globalThis.document;
  }
}

test('attachMapLibre puts the room\'s projection on the map at attach and when it changes, and only then', () => {
  const map = fakeMap();
  const state = new RoomState({ room: 'demo', role: 'follower' });
  const attached = attachment(map, state);
  attached.watchProjection();
  assert.deepEqual(map.calls, [], 'a Mercator room on a map without a projection: no call');
  deliver(attached, { ...welcome, role: 'follower', projection: 'globe' });
  assert.deepEqual(map.calls, [{ type: 'globe' }]);
  deliver(attached, { type: 'frame', seq: 1, time: 1, camera, moving: false });
  deliver(attached, changed('globe'));
  assert.deepEqual(map.calls, [{ type: 'globe' }], 'already on the globe: no second call');
  deliver(attached, changed('mercator'));
  assert.deepEqual(map.calls, [{ type: 'globe' }, { type: 'mercator' }]);
  assert.equal(mapProjection(map), 'mercator');

  const onGlobe = new RoomState({ room: 'demo', role: 'follower' });
  onGlobe.apply({ ...welcome, projection: 'globe' });
  const late = fakeMap();
  attachment(late, onGlobe).watchProjection();
  assert.deepEqual(late.calls, [{ type: 'globe' }], 'attached after the welcome: at once');
});

test('a map whose style is still loading gets the room\'s projection on style.load, and again after a new style', () => {
  const map = fakeMap({ loading: true });
  const state = new RoomState({ room: 'demo', role: 'follower' });
  state.apply({ ...welcome, projection: 'globe' });
  const attached = attachment(map, state);
  attached.watchProjection();
  assert.deepEqual(map.calls, [], 'not yet: MapLibre throws while the style loads');
  map.restyle(undefined);
  assert.deepEqual(map.calls, [{ type: 'globe' }], 'on style.load');
  map.restyle('mercator');
  assert.deepEqual(map.calls, [{ type: 'globe' }, { type: 'globe' }], 'a new style brings its own projection: the room\'s again');
  for (const off of attached.offs) off();
  map.restyle(undefined);
  assert.equal(map.calls.length, 2, 'detached: no longer');
});

test('applyProjection: true when the map draws in it; false on a MapLibre without projections; other errors thrown', () => {
  const v4 = fakeMap({ v5: false });
  assert.equal(applyProjection(v4, 'mercator'), true);
  assert.equal(applyProjection(v4, 'globe'), false);
  const globe = fakeMap({ projection: 'globe' });
  assert.equal(applyProjection(globe, 'globe'), true);
  assert.deepEqual(globe.calls, []);
  const broken = fakeMap();
  broken.setProjection = () => { throw new Error('WebGL context lost'); };
  assert.throws(() => applyProjection(broken, 'globe'), /WebGL context lost/);
});
