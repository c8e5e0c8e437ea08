import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RouteState } from '../src/state/route.js';

test('a welcome sets the route, routeChanged replaces or extends it', () => {
  const r = new RouteState();
  r.welcome({ route: [{ lat: 1, lon: 2 }, { lat: 3, lon: 4 }] });
  assert.deepEqual(r.geojson().features[0].geometry.coordinates, [[2, 1], [4, 3]]);
  r.changed({ append: true, points: [{ lat: 5, lon: 6 }] });
  assert.equal(r.points.length, 3);
  r.changed({ append: false, points: [] });
  assert.deepEqual(r.geojson().features, [], 'cleared');
  r.welcome({});
  assert.deepEqual(r.points, []);
});

test('a route across the antimeridian is drawn the short way', () => {
  const r = new RouteState();
  r.changed({ append: false, points: [{ lat: 0, lon: 179 }, { lat: 0, lon: -179 }] });
  assert.deepEqual(r.geojson().features[0].geometry.coordinates, [[179, 0], [181, 0]]);
});
