// Where an exploring client tells the hub it looks (clients/js/src/follow/looking.js and FollowControl.looked):
// its visible region, at most 2 `looking` a second, only when the camera changed, the last region of a move
// always, nothing while following, and `region: null` once when sharing is turned off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LookingReporter } from '../src/follow/looking.js';
import { FollowControl } from '../src/follow/follow_control.js';
import { Explorer } from '../src/follow/explore.js';
import { RoomState } from '../src/state/room_state.js';
import { build, ProtocolError } from '../src/protocol/messages.js';
import { continuousRegion, visibleRegion } from '../src/geo/region.js';
import { visibleQuad } from '../src/geo/projection.js';

const VIEWPORT = { width: 800, height: 600 };
const at = (lat) => ({ lat, lon: 2.35, zoom: 12, bearing: 0, tilt: 0 });

function reporter() {
  const sent = [];
  return { sent, r: new LookingReporter({ send: (m) => sent.push(m) }) };
}

test('looking sends the visible region of the explored camera at once', () => {
  const { sent, r } = reporter();
  assert.equal(r.update(0, at(48.85), VIEWPORT), true);
  const quad = visibleQuad(at(48.85), VIEWPORT).map((g) => [g.lon, g.lat]);
  assert.deepEqual(sent, [{ type: 'looking', region: quad }]);
});

test('looking sends at most 2 a second while the camera moves', () => {
  const { sent, r } = reporter();
  for (let frame = 0; frame <= 60; frame++) r.update((frame * 1000) / 60, at(48 + frame / 1e3), VIEWPORT);
  assert.equal(sent.length, 3); // 0, 500, 1000 ms (each call on its display frame at or after them)
  for (let i = 1; i < sent.length; i++) assert.ok(sent[i].region[0][1] > sent[i - 1].region[0][1]);
});

test('looking sends nothing for a camera at rest', () => {
  const { sent, r } = reporter();
  for (let t = 0; t <= 2000; t += 100) r.update(t, at(48), VIEWPORT);
  assert.equal(sent.length, 1);
});

test('looking sends again when only the viewport changed', () => {
  const { sent, r } = reporter();
  r.update(0, at(48), VIEWPORT);
  r.update(600, at(48), { width: 400, height: 300 });
  assert.equal(sent.length, 2);
});

test('looking sends the last region of a move once the interval has passed', () => {
  const { sent, r } = reporter();
  r.update(0, at(48), VIEWPORT);
  r.update(100, at(48.1), VIEWPORT); // too soon: held
  assert.equal(sent.length, 1);
  r.update(510, at(48.1), VIEWPORT); // the map stopped; the held region goes now
  assert.deepEqual(sent[1].region, visibleRegion(at(48.1), VIEWPORT));
});

test('turning sharing off sends region null once, and nothing more until it is on again', () => {
  const { sent, r } = reporter();
  r.update(0, at(48), VIEWPORT);
  r.setSharing(false);
  r.update(600, at(49), VIEWPORT);
  r.setSharing(false);
  assert.deepEqual(sent.map((m) => m.region === null), [false, true]);
  r.setSharing(true);
  r.update(700, at(49), VIEWPORT);
  assert.equal(sent.length, 3);
});

test('sharing off from the start sends nothing at all', () => {
  const sent = [];
  const r = new LookingReporter({ send: (m) => sent.push(m), sharing: false });
  r.update(0, at(48), VIEWPORT);
  r.setSharing(false);
  assert.deepEqual(sent, []);
});

test('a region across the antimeridian is wrapped and drawn back as one piece', () => {
  const region = visibleRegion({ lat: 10, lon: 179.99, zoom: 8, bearing: 0, tilt: 0 }, VIEWPORT);
  assert.ok(region.every(([lon]) => lon >= -180 && lon < 180));
  const drawn = continuousRegion(region);
  for (let i = 1; i < 4; i++) assert.ok(Math.abs(drawn[i][0] - drawn[i - 1][0]) < 180, `corner ${i}`);
});

test('on the globe at a low zoom the region is the globe\'s', () => {
  const camera = { lat: 0, lon: 0, zoom: 5, bearing: 0, tilt: 0 };
  const globe = visibleRegion(camera, VIEWPORT, 'globe');
  const flat = visibleRegion(camera, VIEWPORT, 'mercator');
  assert.notDeepEqual(globe, flat);
  assert.ok(Math.abs(globe[0][0] + globe[1][0]) < 1e-9, 'symmetric about the centre');
});

test('looking sends nothing without an explored camera, and the next exploration starts afresh', () => {
  const { sent, r } = reporter();
  r.update(0, at(48), VIEWPORT);
  r.update(10, null, VIEWPORT);
  r.update(20, at(48), VIEWPORT);
  assert.equal(sent.length, 2);
});

test('a follow control reports only while it explores and told the hub so', () => {
  const sent = [];
  const state = new RoomState({ room: 'r', role: 'follower' });
  state.apply({ type: 'welcome', client: 'c2', room: 'r', role: 'follower', rate: 30, tick: 60, time: 0, seq: 1, camera: at(40),
    limits: { minZoom: 0, maxZoom: 22, minTilt: 0, maxTilt: 60, maxTiltByZoom: [], bounds: null }, presenter: null, roster: [],
    gestures: [], clients: 1, followers: 1, following: 1, exploring: 0, away: 0, followPolicy: { explore: true }, events: [] });
  const explorer = new Explorer();
  const control = new FollowControl({ state, explorer, send: (m) => sent.push(m), now: () => 0, shown: () => at(40),
    roomCamera: () => at(40) });
  assert.equal(control.looked(0, at(40), VIEWPORT), false);
  control.input({ kind: 'pan', phase: 'begin', x: 10, y: 10, t: 0 });
  assert.equal(control.looked(10, at(41), VIEWPORT), true);
  assert.deepEqual(sent.map((m) => m.type), ['follow', 'looking']);
  control.back();
  assert.equal(control.looked(1000, at(42), VIEWPORT), false);
});

test('build.looking refuses a region without four corners, naming it', () => {
  assert.throws(() => build.looking([[1, 2], [3, 4], [5, 6]]), (e) => e instanceof ProtocolError && /looking\.region must be four/.test(e.message));
  assert.throws(() => build.looking([[1, 2], [3, 95], [5, 6], [7, 8]]), (e) => e instanceof ProtocolError && /looking\.region\[1\]/.test(e.message));
  assert.deepEqual(build.looking(null), { type: 'looking', region: null });
});

test('build.summon names one client when asked to', () => {
  assert.deepEqual(build.summon('s1', 'c9'), { type: 'summon', id: 's1', client: 'c9' });
  assert.deepEqual(build.summon('s1'), { type: 'summon', id: 's1' });
});

test('a region wider than half the world is drawn back in the right order, not folded', () => {
  const camera = { lat: -4.4, lon: 37.3, zoom: 1.5, bearing: 0, tilt: 0 };
  const drawn = continuousRegion(visibleRegion(camera, VIEWPORT));
  const quad = visibleQuad(camera, VIEWPORT);
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(drawn[i][0] - quad[i].lon) < 1e-9, `corner ${i}: ${drawn[i][0]} vs ${quad[i].lon}`);
});

test('a region seen south up is drawn back as one piece across the antimeridian', () => {
  const camera = { lat: 10, lon: 179.99, zoom: 6, bearing: 180, tilt: 0 };
  const drawn = continuousRegion(visibleRegion(camera, VIEWPORT));
  const quad = visibleQuad(camera, VIEWPORT);
  const shift = drawn[0][0] - quad[0].lon;
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(drawn[i][0] - quad[i].lon - shift) < 1e-9, `corner ${i}`);
});
