import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLACES, IdMaker, flyTo, resetNorth, demoTour } from '../js/ui/tour.js';
import { validateCamera } from '../../clients/js/src/protocol/messages.js';

test('places are valid cameras within the default tilt limit', () => {
  assert.ok(PLACES.length >= 5);
  for (const p of PLACES) {
    validateCamera(p.camera);
    assert.ok(p.camera.tilt <= 60, p.key);
  }
  assert.ok(PLACES.some((p) => p.key === 'alps') && PLACES.some((p) => p.key === 'bosporus'));
});

test('ids are unique, recognisable as ours and labelled', () => {
  const ids = new IdMaker('ab12');
  const a = ids.next('fly', 'Fly to Paris');
  const b = ids.next('fly');
  assert.notEqual(a, b);
  assert.ok(ids.owns(a) && ids.owns(b));
  assert.ok(!ids.owns('zz-fly-1') && !ids.owns(null));
  assert.equal(ids.label(a), 'Fly to Paris');
  assert.equal(ids.label(b), b);
  assert.ok(new IdMaker().prefix.length > 0);
});

test('fly and reset north messages', () => {
  const ids = new IdMaker('p');
  const f = flyTo(PLACES[0], ids);
  assert.equal(f.type, 'fly');
  assert.deepEqual(f.camera, PLACES[0].camera);
  assert.ok(ids.owns(f.id));
  const n = resetNorth(ids);
  assert.deepEqual(n.camera, { bearing: 0, tilt: 0 });
  assert.equal(n.type, 'ease');
  assert.ok(n.duration > 0 && n.duration < 5, 'seconds');
});

test('the demo tour is a fly followed by a chain of animates linked by after', () => {
  const ids = new IdMaker('p');
  const steps = demoTour(ids);
  assert.ok(steps.length >= 4);
  assert.equal(steps[0].type, 'fly');
  for (let i = 1; i < steps.length; i++) {
    assert.equal(steps[i].type, 'animate');
    assert.equal(steps[i].after, steps[i - 1].id, `step ${i} waits for step ${i - 1}`);
    assert.ok(steps[i].duration > 0 && steps[i].duration <= 60);
    if (steps[i].to.tilt !== undefined) assert.ok(steps[i].to.tilt <= 60);
  }
  assert.equal(new Set(steps.map((s) => s.id)).size, steps.length);
  const last = steps[steps.length - 1].to;
  assert.equal(last.bearing, 0);
  assert.equal(last.tilt, 0);
});
