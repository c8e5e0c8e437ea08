// An exploring follower's view of the room (web/js/map/presenter_area.js): the
// presenter's area outlined, and the arrow at the edge when it is off screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presenterArea, edgeArrow } from '../js/map/presenter_area.js';
import { project } from '../../clients/js/src/geo/projection.js';

const viewport = { width: 1000, height: 600 };
const room = { lat: 48.85, lon: 2.35, zoom: 12, bearing: 0, tilt: 0 };

test("the outline is the presenter view's ground quad, closed", () => {
  const area = presenterArea(room, { width: 1280, height: 720 });
  const ring = area.features[0].geometry.coordinates;
  assert.equal(ring.length, 5);
  assert.deepEqual(ring[0], ring[4]);
  // drawn on a page at the same camera and size, the corners are the screen's corners
  const corners = ring.slice(0, 4).map(([lon, lat]) => project(room, { width: 1280, height: 720 }, { lat, lon }));
  const expected = [[0, 0], [1280, 0], [1280, 720], [0, 720]];
  corners.forEach((c, i) => assert.ok(Math.hypot(c.x - expected[i][0], c.y - expected[i][1]) < 1e-6, JSON.stringify(c)));
});

test('no camera, no outline', () => {
  assert.deepEqual(presenterArea(null, viewport).features, []);
});

test('no arrow while the presenter is on screen', () => {
  assert.equal(edgeArrow(room, viewport, { lat: room.lat, lon: room.lon }), null);
});

test('the arrow sits on the edge towards the presenter and points at it', () => {
  const east = edgeArrow(room, viewport, { lat: room.lat, lon: room.lon + 1 });
  assert.equal(Math.round(east.x), 1000 - 24);
  assert.ok(Math.abs(east.y - 300) < 1, `${east.y}`);
  assert.ok(Math.abs(east.angle - 90) < 0.5, `${east.angle}`);
  const north = edgeArrow(room, viewport, { lat: room.lat + 1, lon: room.lon });
  assert.equal(Math.round(north.y), 24);
  assert.ok(Math.abs(north.angle) < 0.5, `${north.angle}`);
  const southWest = edgeArrow(room, viewport, { lat: room.lat - 1, lon: room.lon - 1 });
  assert.ok(southWest.angle < -90 && southWest.angle > -180, `${southWest.angle}`);
});
