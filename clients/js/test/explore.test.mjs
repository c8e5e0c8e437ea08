// A follower exploring on its own map (clients/js/src/follow/explore.js): its gestures
// move the local camera as the hub's engine would move the room's (the shared
// vectors of Tests/Vectors/gestures.json), and Back glides to the room's
// camera, ending on it exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Explorer, BACK_MAX_MS, BACK_MIN_MS, backDuration } from '../src/follow/explore.js';
import { shortestTurn } from '../src/geo/projection.js';

const vectors = JSON.parse(readFileSync(fileURLToPath(new URL('../../../Tests/Vectors/gestures.json', import.meta.url)), 'utf8'));

function assertCamera(actual, expected, msg, tol = 1e-7) {
  const bad = Math.abs(actual.lat - expected.lat) > tol || Math.abs(shortestTurn(expected.lon, actual.lon)) > tol
    || Math.abs(actual.zoom - expected.zoom) > tol || Math.abs(shortestTurn(expected.bearing, actual.bearing)) > tol
    || Math.abs(actual.tilt - expected.tilt) > tol;
  assert.ok(!bad, `${msg}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
}

const room = { lat: 48.85, lon: 2.35, zoom: 12, bearing: 0, tilt: 0 };
const viewport = { width: 1280, height: 720 };

for (const c of vectors.cases) {
  test(`exploring moves the local map as the hub's engine moves the room's: ${c.name}`, () => {
    const e = new Explorer({ viewport: vectors.viewport });
    e.setLimits(c.limits);
    e.explore(c.camera, 0);
    c.steps.forEach((s, i) => {
      e.gesture(s.gesture, s.at * 1000);
      assertCamera(e.sample(s.at * 1000, null), s.camera, `step ${i} (${s.gesture.kind} ${s.gesture.phase ?? ''})`);
    });
    c.samples.forEach((s) => assertCamera(e.sample(s.at * 1000, null), s.camera, `sample at ${s.at}`));
  });
}

test('a follower that does not explore shows the room (sample is null)', () => {
  const e = new Explorer({ viewport });
  assert.equal(e.sample(0, room), null);
  e.gesture({ kind: 'pan', phase: 'begin', x: 1, y: 1, t: 0 }, 0);
  assert.equal(e.sample(10, room), null, 'gestures before explore() move nothing');
});

test('the explored camera stays where the gestures left it while the room moves on', () => {
  const e = new Explorer({ viewport });
  e.explore(room, 0);
  e.gesture({ kind: 'pan', phase: 'begin', x: 640, y: 360, t: 0 }, 0);
  e.gesture({ kind: 'pan', phase: 'change', x: 540, y: 360, t: 500 }, 500);
  e.gesture({ kind: 'pan', phase: 'end', t: 1500 }, 1500); // a pause before the release: no momentum
  const explored = e.sample(1500, room);
  assert.ok(explored.lon > room.lon, `dragged left shows the east: ${explored.lon}`);
  const elsewhere = { ...room, lat: 10, lon: 20, zoom: 5 };
  assert.deepEqual(e.sample(5000, elsewhere), explored);
});

test('back glides to the room camera of each moment and ends on it exactly, within 1.5 s', () => {
  const e = new Explorer({ viewport });
  e.explore({ ...room, lat: 10, lon: 100, zoom: 3, bearing: 200 }, 0);
  const ms = e.back(1000, room);
  assert.ok(ms > BACK_MIN_MS && ms <= BACK_MAX_MS, `${ms} ms`);
  // the room's camera moves during the glide: the glide aims at where it is then
  const moving = (t) => ({ ...room, lon: room.lon + (t - 1000) / 1e5 });
  const first = e.sample(1000, moving(1000));
  assertCamera(first, { ...room, lat: 10, lon: 100, zoom: 3, bearing: 200 }, 'the glide starts where the page was');
  let last = first;
  for (let t = 1016; t < 1000 + ms; t += 16) {
    const c = e.sample(t, moving(t));
    assert.ok(c.zoom >= last.zoom - 1e-9, 'zooms steadily towards the room');
    last = c;
  }
  assert.ok(Math.abs(last.zoom - room.zoom) < 0.2, `nearly there before the end: ${JSON.stringify(last)}`);
  assert.equal(e.sample(1000 + ms, moving(1000 + ms)), null, 'then the page plays the room frames again');
  assert.equal(e.active, false);
});

test('a gesture during the glide back explores again from where the glide was', () => {
  const e = new Explorer({ viewport });
  e.explore({ ...room, zoom: 5 }, 0);
  const ms = e.back(0, room);
  const midway = e.sample(ms / 2, room);
  e.explore(room, ms / 2);
  assert.equal(e.exploring, true);
  assert.deepEqual(e.sample(ms, room), midway);
});

test('the glide is longer the further away the page is, never past the maximum', () => {
  const near = backDuration(room, { ...room, lon: room.lon + 0.001 }, viewport);
  const far = backDuration(room, { ...room, lat: -33, lon: 151, zoom: 4 }, viewport);
  assert.ok(near >= BACK_MIN_MS && near < far, `${near} < ${far}`);
  assert.ok(far <= BACK_MAX_MS);
});

test('a scroll while exploring zooms the local map around the pointer', () => {
  const e = new Explorer({ viewport });
  e.explore(room, 0);
  e.gesture({ kind: 'scroll', x: 640, y: 360, delta: -450, t: 0 }, 0);
  const end = e.sample(1000, room);
  assert.ok(Math.abs(end.zoom - 13) < 1e-9, `zoomed in by one: ${end.zoom}`);
});

test('back glides roll, elevation and fov too: the short way, onto the room\'s', () => {
  const e = new Explorer({ viewport });
  const roomNow = { ...room, tilt: 70, roll: -170, elevation: 800, fov: 30 };
  e.explore({ ...roomNow, roll: 160, elevation: 0, fov: 40, lon: 2.4 }, 0);
  const ms = e.back(0, roomNow);
  assert.ok(backDuration({ ...roomNow, roll: 100 }, roomNow, viewport) > backDuration(roomNow, roomNow, viewport), 'a roll back takes longer');
  const rolls = [];
  for (let t = 16; t < ms; t += 16) {
    const c = e.sample(t, roomNow);
    assert.ok(c.roll >= 160 || c.roll <= -170, `the short way round, across ±180: ${c.roll}`);
    assert.ok(c.elevation >= 0 && c.elevation <= 800 && c.fov >= 30 && c.fov <= 40);
    rolls.push(c.roll);
  }
  assert.ok(rolls.some((r) => r < 0) && rolls.some((r) => r > 0));
  assert.equal(e.sample(ms, roomNow), null, 'then the room exactly');
});
