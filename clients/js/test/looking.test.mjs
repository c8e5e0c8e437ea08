// What an exploring client tells the hub it looks at (clients/js/src/follow/looking.js and FollowControl.looked):
// at most 4 `looking` a second, only when the camera changed, the last camera of a move always, and nothing
// while following.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LookingReporter } from '../src/follow/looking.js';
import { FollowControl } from '../src/follow/follow_control.js';
import { Explorer } from '../src/follow/explore.js';
import { RoomState } from '../src/state/room_state.js';
import { build, ProtocolError } from '../src/protocol/messages.js';

const at = (lat) => ({ lat, lon: 2.35, zoom: 12, bearing: 0, tilt: 0 });

function reporter() {
  const sent = [];
  return { sent, r: new LookingReporter({ send: (m) => sent.push(m) }) };
}

test('looking sends the explored camera at once, as a whole view', () => {
  const { sent, r } = reporter();
  assert.equal(r.update(0, { ...at(48.85), roll: 5 }), true);
  assert.deepEqual(sent, [{ type: 'looking', camera: { lat: 48.85, lon: 2.35, zoom: 12, bearing: 0, tilt: 0, roll: 5 } }]);
});

test('looking sends at most 4 a second while the camera moves', () => {
  const { sent, r } = reporter();
  for (let frame = 0; frame <= 60; frame++) r.update((frame * 1000) / 60, at(48 + frame / 1e3));
  assert.equal(sent.length, 5); // 0, 250, 500, 750, 1000 ms (each call on its display frame at or after them)
  for (let i = 1; i < sent.length; i++) assert.ok(sent[i].camera.lat > sent[i - 1].camera.lat);
});

test('looking sends nothing for a camera at rest', () => {
  const { sent, r } = reporter();
  for (let t = 0; t <= 2000; t += 100) r.update(t, at(48));
  assert.equal(sent.length, 1);
});

test('looking sends the last camera of a move once the interval has passed', () => {
  const { sent, r } = reporter();
  r.update(0, at(48));
  r.update(100, at(48.1)); // too soon: held
  assert.equal(sent.length, 1);
  r.update(260, at(48.1)); // the map stopped; the held camera goes now
  assert.deepEqual(sent.map((m) => m.camera.lat), [48, 48.1]);
});

test('looking sends nothing without an explored camera, and the next exploration starts afresh', () => {
  const { sent, r } = reporter();
  r.update(0, at(48));
  r.update(10, null);
  r.update(20, at(48));
  assert.deepEqual(sent.map((m) => m.camera.lat), [48, 48]);
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
  assert.equal(control.looked(0, at(40)), false);
  control.input({ kind: 'pan', phase: 'begin', x: 10, y: 10, t: 0 });
  assert.equal(control.looked(10, at(41)), true);
  assert.deepEqual(sent.map((m) => m.type), ['follow', 'looking']);
  control.back();
  assert.equal(control.looked(1000, at(42)), false);
});

test('build.looking refuses a camera without lat, lon and zoom', () => {
  assert.throws(() => build.looking({ lat: 1, lon: 2 }), (e) => e instanceof ProtocolError && /looking\.camera: "zoom"/.test(e.message));
});

test('build.summon names one client when asked to', () => {
  assert.deepEqual(build.summon('s1', 'c9'), { type: 'summon', id: 's1', client: 'c9' });
  assert.deepEqual(build.summon('s1'), { type: 'summon', id: 's1' });
});
