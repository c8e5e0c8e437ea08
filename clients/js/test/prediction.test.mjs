// The page's prediction of its own gestures (clients/js/src/drive/prediction.js with the
// rules of clients/js/src/drive/gesture_rules.js) against the hub's engine: the shared
// vectors in Tests/Vectors/gestures.json are written and checked by
// Tests/HubCoreTests/Hub/GestureVectorTests.swift.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Predictor, centreDistancePx } from '../src/drive/prediction.js';
import { shortestTurn, wrapLongitude } from '../src/geo/projection.js';

const vectors = JSON.parse(readFileSync(fileURLToPath(new URL('../../../Tests/Vectors/gestures.json', import.meta.url)), 'utf8'));
const caseNamed = (name) => vectors.cases.find((c) => c.name === name);

function assertCamera(actual, expected, msg, tol = 1e-7) {
  const bad = Math.abs(actual.lat - expected.lat) > tol || Math.abs(shortestTurn(expected.lon, actual.lon)) > tol
    || Math.abs(actual.zoom - expected.zoom) > tol || Math.abs(shortestTurn(expected.bearing, actual.bearing)) > tol
    || Math.abs(actual.tilt - expected.tilt) > tol;
  assert.ok(!bad, `${msg}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
}

/** A predictor fed one case's gestures at the hub's times (no acknowledgements): what the page shows. */
function predict(c) {
  const p = new Predictor({ viewport: vectors.viewport });
  p.setLimits(c.limits);
  let shown = c.camera;
  const steps = c.steps.map((s) => {
    const t = s.at * 1000;
    p.outgoing(s.gesture, t, shown);
    shown = p.sample(t, null);
    return shown;
  });
  const samples = c.samples.map((s) => p.sample(s.at * 1000, null));
  return { p, steps, samples };
}

const KINDS = new Set(vectors.cases.flatMap((c) => c.steps.map((s) => s.gesture.kind)));

test('the shared gesture vectors cover every kind that moves the camera', () => {
  assert.deepEqual([...KINDS].sort(), ['doubleTap', 'pan', 'pinch', 'rotate', 'scroll', 'tilt', 'twoFingerTap']);
});

for (const c of vectors.cases) {
  test(`prediction equals the hub's engine: ${c.name}`, () => {
    const { steps, samples } = predict(c);
    c.steps.forEach((s, i) => assertCamera(steps[i], s.camera, `step ${i} (${s.gesture.kind} ${s.gesture.phase ?? ''})`));
    c.samples.forEach((s, i) => assertCamera(samples[i], s.camera, `sample at ${s.at}`));
  });
}

test('every gesture sent is numbered in order and keeps its fields', () => {
  const p = new Predictor({ viewport: vectors.viewport });
  const c = caseNamed('pan with momentum, north up');
  const out = c.steps.map((s) => p.outgoing(s.gesture, s.at * 1000, c.camera));
  assert.deepEqual(out.map((m) => m.seq), c.steps.map((_, i) => i + 1));
  assert.deepEqual({ ...out[1], seq: undefined }, { ...c.steps[1].gesture, seq: undefined });
});

/** The hub's acknowledgement of step i of case c (its camera, and the animation it started). */
function ackOf(c, i, seq, time, animation) {
  return { type: 'gestureAck', seq, kind: c.steps[i].gesture.kind, phase: c.steps[i].gesture.phase ?? null, time,
    camera: { ...c.steps[i].camera, lon: wrapLongitude(c.steps[i].camera.lon) }, ...(animation ? { animation } : {}) };
}

test('acknowledgements that agree with the prediction change nothing on screen', () => {
  const c = caseNamed('pan tilted and turned, stopped before release (no momentum)');
  const p = new Predictor({ viewport: vectors.viewport });
  p.setLimits(c.limits);
  let shown = c.camera;
  const lag = 100;
  c.steps.forEach((s, i) => {
    const t = s.at * 1000;
    p.outgoing(s.gesture, t, shown);
    shown = p.sample(t, null);
    if (i >= 2) p.ack(ackOf(c, i - 2, i - 1, t), t + lag / 2); // two messages behind
  });
  assert.ok(p.stats.maxCorrectionPx < 1e-6, `corrections ${p.stats.maxCorrectionPx} px`);
  assert.ok(p.stats.maxErrorPx < 1e-6, `prediction error ${p.stats.maxErrorPx} px`);
});

test('a hub that began the gesture elsewhere is blended in over 100 ms, never snapped to', () => {
  const c = caseNamed('pan with momentum, north up');
  const p = new Predictor({ viewport: vectors.viewport });
  // The page showed a camera 30 px west of the hub's when the drag began (the buffer lagged behind).
  const shownAtBegin = { ...c.camera, lon: c.camera.lon - (30 / (512 * 2 ** 12)) * 360 };
  p.outgoing(c.steps[0].gesture, 10000, shownAtBegin);
  p.outgoing(c.steps[1].gesture, 10016, null);
  const before = p.sample(10030, null);
  p.ack(ackOf(c, 0, 1, 10000), 10030);
  const after = p.sample(10030, null);
  assert.ok(centreDistancePx(before, after) < 1e-6, 'no jump when the acknowledgement arrives');
  const half = p.sample(10080, null);
  const done = p.sample(10131, null);
  const target = c.steps[1].camera; // the hub's camera for the same input
  assert.ok(centreDistancePx(half, target) > 10 && centreDistancePx(half, target) < 20, 'half way after 50 ms');
  assertCamera(done, target, 'the hub-based prediction after 100 ms');
  assert.ok(Math.abs(p.stats.maxCorrectionPx - 30) < 0.01, `the correction was the 30 px difference (${p.stats.maxCorrectionPx})`);
});

test('momentum follows the hub path the acknowledgement gives, from the time the page predicted it', () => {
  const c = caseNamed('pan with momentum, north up');
  const { p } = predict(c);
  const end = c.steps.length - 1;
  // The hub's path differs from the page's (another driver moved the camera a little): its end is where the page goes.
  const to = { ...c.samples.at(-1).camera, lat: c.samples.at(-1).camera.lat + 0.0001 };
  p.ack(ackOf(c, end, end + 1, 50000, { id: 'momentum', duration: 0.6, to }), c.steps[end].at * 1000 + 50);
  const last = p.sample(c.steps[end].at * 1000 + 700, null);
  assertCamera(last, to, 'the momentum ends where the hub said');
});

test('a conflict drops the prediction and blends over to the hub frames', () => {
  const c = caseNamed('pan with momentum, north up');
  const p = new Predictor({ viewport: vectors.viewport });
  p.outgoing(c.steps[0].gesture, 10000, c.camera);
  p.outgoing(c.steps[1].gesture, 10016, null);
  const presenter = { lat: 10, lon: 10, zoom: 12, bearing: 0, tilt: 0 };
  const shown = p.sample(10020, { camera: presenter, time: 1 });
  assertCamera(shown, c.steps[1].camera, 'still predicting');
  p.rejected({ type: 'error', code: 'conflict', ref: 'gesture' }, 10020, presenter);
  assert.equal(p.mode, 'handover');
  const mid = p.sample(10070, { camera: presenter, time: 2 });
  assert.ok(centreDistancePx(mid, presenter) > 1, 'blending, not snapping');
  assert.equal(p.sample(10121, { camera: presenter, time: 3 }), null, 'then the page shows the hub frames as they are');
  // The gesture's later moves are not predicted until a new begin.
  p.outgoing(c.steps[2].gesture, 10130, presenter);
  assert.equal(p.predicting, false);
  p.outgoing({ ...c.steps[0].gesture, t: 10200 }, 10200, presenter);
  assert.equal(p.predicting, true);
});

test('after the gesture the page holds the prediction until the buffer reaches it, then shows the buffer exactly', () => {
  const c = caseNamed('pan tilted and turned, stopped before release (no momentum)');
  const p = new Predictor({ viewport: vectors.viewport });
  let shown = c.camera;
  c.steps.forEach((s, i) => {
    p.outgoing(s.gesture, s.at * 1000, shown);
    shown = p.sample(s.at * 1000, null);
    p.ack(ackOf(c, i, i + 1, 70000 + i * 16), s.at * 1000 + 50);
  });
  const final = c.steps.at(-1).camera;
  const t = c.steps.at(-1).at * 1000 + 60;
  const early = { camera: c.steps[2].camera, time: 70000 };
  assertCamera(p.sample(t, early), final, 'held while the buffer still plays the drag');
  const late = { camera: { ...final, lon: wrapLongitude(final.lon) }, time: 70000 + (c.steps.length - 1) * 16 };
  assert.equal(p.sample(t + 20, late), null, 'the buffer has the final frame: the page shows it as it is');
  assert.equal(p.predicting, false);
});

test('a glide the hub started and the page did not predict is played from the release', () => {
  const c = caseNamed('pan with momentum, north up');
  const p = new Predictor({ viewport: vectors.viewport });
  // The page released after a pause (no momentum of its own) ...
  c.steps.slice(0, -1).forEach((s) => p.outgoing(s.gesture, s.at * 1000, c.camera));
  const endT = c.steps.at(-1).at * 1000 + 200;
  const end = p.outgoing({ ...c.steps.at(-1).gesture, t: endT }, endT, null);
  c.steps.slice(0, -1).forEach((s, i) => p.ack(ackOf(c, i, i + 1, 50000 + i), endT + 10));
  assert.equal(p.anim, null, 'nothing predicted');
  // ... but the hub measured a fling: its path is played, from the release.
  const to = c.samples.at(-1).camera;
  p.ack({ ...ackOf(c, c.steps.length - 1, end.seq, 50100), animation: { id: 'momentum', duration: 0.5, to } }, endT + 60);
  assertCamera(p.sample(endT + 500, null), to, 'where the hub said, when the hub said (from the release)');
});

test('predicted gestures keep roll, elevation and fov, and corrections blend them too', async () => {
  const { cameraDifference, offsetCamera } = await import('../src/drive/prediction.js');
  const { clampCamera } = await import('../src/drive/gesture_rules.js');
  const { sameCamera } = await import('../src/follow/show.js');
  const flat = { lat: 46.5, lon: 7.9, zoom: 12, bearing: 10, tilt: 80 };
  const threeD = { ...flat, roll: 170, elevation: 1500, fov: 30 };
  // a pan predicted on a rolled, raised camera moves only the centre
  const p = new Predictor({ viewport: { width: 800, height: 600 } });
  p.setLimits({ maxTilt: 85 });
  p.outgoing({ kind: 'pan', phase: 'begin', x: 400, y: 450, t: 0 }, 0, threeD);
  p.outgoing({ kind: 'pan', phase: 'change', x: 430, y: 420, t: 16 }, 16, threeD);
  const panned = p.sample(16, null);
  for (const k of ['zoom', 'bearing', 'tilt', 'roll', 'elevation', 'fov']) assert.equal(panned[k], threeD[k], k);
  assert.ok(centreDistancePx(panned, threeD) > 1, 'the centre moved');
  // differences: roll the short way, absent = the default; none on flat cameras
  const other = { ...flat, roll: -170, elevation: 500 };
  const d = cameraDifference(other, threeD);
  assert.equal(d.roll, 20);
  assert.equal(d.elevation, -1000);
  assert.ok(Math.abs(d.fov - (36.86989764584402 - 30)) < 1e-12);
  const half = offsetCamera(threeD, d, 0.5);
  assert.deepEqual([half.roll, half.elevation], [180, 1000]);
  assert.equal(offsetCamera(threeD, d, 0.75).roll, -175, 'within -180…180');
  assert.deepEqual(Object.keys(cameraDifference(flat, { ...flat, lon: 8 })), ['x', 'y', 'zoom', 'bearing', 'tilt']);
  assert.deepEqual(Object.keys(offsetCamera(flat, cameraDifference({ ...flat, lon: 8 }, flat), 1)), Object.keys(flat));
  // the hub's roll limit, and what counts as the same camera
  assert.equal(clampCamera({ ...threeD, roll: 170 }, { maxRoll: 30 }).roll, 30);
  assert.equal(clampCamera({ ...threeD, roll: 190 }).roll, -170);
  assert.equal('roll' in clampCamera(flat), false);
  assert.ok(sameCamera(flat, { ...flat, roll: 0, elevation: 0, fov: 36.86989764584402 }));
  assert.ok(!sameCamera(flat, { ...flat, roll: 1 }));
  assert.ok(!sameCamera(threeD, { ...threeD, fov: 31 }));
});
