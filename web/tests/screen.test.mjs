import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Screen } from '../js/state/screen.js';

const camera = (zoom) => ({ lat: 0, lon: 0, zoom, bearing: 0, tilt: 0 });
const frame = (seq, moving) => ({ type: 'frame', seq, time: seq, camera: camera(seq), moving, by: null });

test('a render is logged and becomes the rendered camera', () => {
  const s = new Screen({ width: 800, height: 600 });
  const entry = s.render(camera(3), { t: 10, rt: 5, paintAt: 12, seq: 2 });
  assert.deepEqual(entry, { t: 10, camera: camera(3), rt: 5, paintAt: 12, seq: 2, drawn: null });
  assert.deepEqual(s.rendered, camera(3));
  assert.equal(s.renderCount, 1);
  assert.deepEqual(s.renders(11), []);
  assert.deepEqual(s.renders(10), [entry]);
});

test('the render log keeps the last 300', () => {
  const s = new Screen({ width: 1, height: 1 });
  for (let i = 0; i < 310; i++) s.render(camera(i), { t: i, rt: null, paintAt: i });
  assert.equal(s.renderLog.length, 300);
  assert.equal(s.renderLog[0].t, 10);
  assert.equal(s.renderCount, 310);
});

test('settled: the resting frame on screen is the newest', () => {
  const s = new Screen({ width: 1, height: 1 });
  assert.equal(s.settled(null), false, 'nothing rendered yet');
  s.render(camera(4), { t: 1, rt: 4, paintAt: 1 });
  s.showing(false, 4);
  assert.equal(s.settled(frame(4, false)), true);
  assert.equal(s.settled(frame(5, false)), false, 'a newer frame is pending');
  assert.equal(s.settled(frame(4, true)), false, 'the newest frame moves');
  s.showing(true, null);
  assert.equal(s.settled(frame(4, false)), false, 'a prediction is on screen');
});

test('resize reports whether the size changed', () => {
  const s = new Screen({ width: 800, height: 600 });
  assert.equal(s.resize(800, 600), false);
  assert.equal(s.resize(1024, 600), true);
  assert.deepEqual(s.viewport, { width: 1024, height: 600 });
});
