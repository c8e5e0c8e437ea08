import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PointerTrail, TRAIL_MS } from '../js/motion/pointer_trail.js';

test('the dot is the newest position and the trail fades behind it', () => {
  const trail = new PointerTrail();
  trail.update({ lat: 1, lon: 2, by: 'c1' }, 0);
  trail.update({ lat: 1, lon: 3, by: 'c1' }, 100);
  const s = trail.sample(100);
  assert.deepEqual(s.dot, { lat: 1, lon: 3, by: 'c1' });
  assert.deepEqual(s.trail.map((p) => p.lon), [2, 3]);
  assert.ok(s.trail[0].alpha < s.trail[1].alpha && s.trail[1].alpha === 1);
});

test('a repeated position adds no trail point; faded points are forgotten', () => {
  const trail = new PointerTrail();
  trail.update({ lat: 1, lon: 2, by: 'c1' }, 0);
  trail.update({ lat: 1, lon: 2, by: 'c1' }, 50);
  assert.equal(trail.sample(50).trail.length, 1);
  assert.equal(trail.sample(TRAIL_MS + 1).trail.length, 0);
  assert.ok(trail.sample(TRAIL_MS + 1).dot, 'the dot stays while the pointer is shown');
});

test('hidden: no dot, and the trail fades out', () => {
  const trail = new PointerTrail();
  trail.update({ lat: 1, lon: 2, by: 'c1' }, 0);
  trail.update(null, 100);
  const s = trail.sample(100);
  assert.equal(s.dot, null);
  assert.equal(s.trail.length, 1);
});
