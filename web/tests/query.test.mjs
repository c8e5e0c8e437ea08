import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Queries, formatPoint, formatBounds, quadGeoJSON } from '../js/ui/query.js';
import { build } from '../../clients/js/src/protocol/messages.js';

test('each query gets its own id and its result is matched to it', () => {
  const q = new Queries();
  const a = q.ask('unproject', { points: [{ x: 10, y: 20 }] });
  const b = q.ask('bounds');
  assert.notEqual(a.id, b.id);
  assert.deepEqual(build.query(a.id, a.what, { points: a.points }), a, 'a message the protocol builder accepts');
  const bounds = { south: 1, west: 2, north: 3, east: 4 };
  const quad = [{ lat: 3, lon: 2 }, { lat: 3, lon: 4 }, { lat: 1, lon: 4 }, { lat: 1, lon: 2 }];
  assert.deepEqual(q.answer({ type: 'result', id: b.id, what: 'bounds', bounds, quad }), { what: 'bounds', bounds, quad });
  assert.deepEqual(q.answer({ type: 'result', id: a.id, what: 'unproject', points: [{ lat: 48.85, lon: 2.35 }] }),
    { what: 'unproject', point: { x: 10, y: 20, lat: 48.85, lon: 2.35 }, purpose: null });
  assert.equal(q.answer({ type: 'result', id: a.id, what: 'unproject', points: [] }), null, 'answered once');
  assert.equal(q.answer({ type: 'result', id: 'someone-else', what: 'bounds' }), null);
});

test('fit asks for the last visible bounds, with padding', () => {
  const q = new Queries();
  assert.equal(q.askFit(), null, 'nothing to fit before a bounds result');
  const b = q.ask('bounds');
  const bounds = { south: 1, west: 2, north: 3, east: 4 };
  q.answer({ type: 'result', id: b.id, what: 'bounds', bounds, quad: [] });
  const fit = q.askFit(20);
  assert.equal(fit.what, 'fit');
  assert.deepEqual(fit.bounds, bounds);
  assert.equal(fit.padding, 20);
});

test('points, bounds and the quad are shown for people and the map', () => {
  assert.equal(formatPoint({ lat: 48.85, lon: -2.35 }), '48.85000° N, 2.35000° W');
  assert.equal(formatPoint({ lat: null, lon: null }), 'above the horizon');
  assert.equal(formatBounds({ south: 1, west: 2, north: 3, east: 4 }), 'S 1.0000 · W 2.0000 · N 3.0000 · E 4.0000');
  const line = quadGeoJSON([{ lat: 3, lon: 2 }, { lat: 3, lon: 4 }, { lat: 1, lon: 4 }, { lat: 1, lon: 2 }]);
  const ring = line.features[0].geometry.coordinates;
  assert.equal(ring.length, 5);
  assert.deepEqual(ring[0], ring[4], 'closed');
  assert.deepEqual(quadGeoJSON(null).features, []);
});

test('a query asked for a purpose says it with its answer, and does not count as the picked point', () => {
  const q = new Queries();
  const m = q.ask('unproject', { points: [{ x: 1, y: 2 }] }, 'route');
  assert.equal(m.purpose, undefined, 'the purpose is not sent');
  const r = q.answer({ type: 'result', id: m.id, what: 'unproject', points: [{ lat: 1, lon: 2 }] });
  assert.equal(r.purpose, 'route');
  assert.equal(q.lastPoint, null);
});
