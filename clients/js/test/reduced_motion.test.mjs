import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReducedMotion } from '../src/follow/reduced_motion.js';

const to = { lat: 40.71, lon: -74, zoom: 11, bearing: 0, tilt: 0 };
const started = (fields = {}) => ({ type: 'animation', id: 'f1', status: 'started', owner: 'c1', to, essential: false, time: 1000, ...fields });

test("another client's non-essential animation is shown as its end from the start until the frames reach its end", () => {
  const r = new ReducedMotion(true);
  r.report(started(), 'c9');
  assert.deepEqual(r.camera(1000), to);
  r.report({ type: 'animation', id: 'f1', status: 'finished', owner: 'c1', time: 5000 }, 'c9');
  assert.deepEqual(r.camera(4900), to, 'frames from before its end are not animated');
  assert.equal(r.camera(5000), null, 'then the frames again');
});

test('an essential animation, our own, or a page that does not prefer reduced motion is shown as it is', () => {
  const r = new ReducedMotion(true);
  r.report(started({ essential: true }), 'c9');
  assert.equal(r.camera(1000), null);
  r.report(started(), 'c1');
  assert.equal(r.camera(1000), null, 'our own');
  const off = new ReducedMotion(false);
  off.report(started(), 'c9');
  assert.equal(off.camera(1000), null);
});

test('an interruption does not end the jump; a cancel does, where the camera then stands', () => {
  const r = new ReducedMotion(true);
  r.report(started(), 'c9');
  r.report({ type: 'animation', id: 'f1', status: 'interrupted', owner: 'c1', time: 2000 }, 'c9');
  assert.deepEqual(r.camera(2500), to);
  r.report({ type: 'animation', id: 'f1', status: 'cancelled', owner: 'c1', time: 3000 }, 'c9');
  assert.equal(r.camera(3000), null);
});
