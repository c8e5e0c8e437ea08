// A presenter's view of the room's explorers (web/js/map/explorer_views.js): each `viewports` entry as a closed
// outline through its region's corners and a labelled point at the middle of its top edge, and the camera that
// shows a region.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cameraShowing, colourOf, edgeArrow, EXPLORER_COLOURS, regionCentre, viewsGeoJSON } from '../js/map/explorer_views.js';

const region = [[2.29, 48.87], [2.41, 48.87], [2.41, 48.83], [2.29, 48.83]];
const ann = { client: 'c9', name: 'ann', state: 'exploring', region };

test("an explorer's outline is its region's corners, closed, named after it", () => {
  const [line] = viewsGeoJSON([ann]).features;
  assert.equal(line.geometry.type, 'LineString');
  assert.deepEqual(line.geometry.coordinates, [[2.29, 48.87], [2.41, 48.87], [2.41, 48.83], [2.29, 48.83], [2.29, 48.87]]);
  assert.deepEqual(line.properties, { client: 'c9', name: 'ann', color: colourOf('c9') });
});

test("an outline across the antimeridian is one piece", () => {
  const far = { ...ann, region: [[179.5, 10], [-179.5, 10], [-179.5, 9], [179.5, 9]] };
  const [line] = viewsGeoJSON([far]).features;
  assert.deepEqual(line.geometry.coordinates.map((c) => c[0]), [179.5, 180.5, 180.5, 179.5, 179.5]);
});

test("an explorer's label sits at the middle of its region's top edge", () => {
  const point = viewsGeoJSON([ann]).features[1];
  assert.equal(point.geometry.type, 'Point');
  assert.ok(Math.abs(point.geometry.coordinates[0] - 2.35) < 1e-12 && point.geometry.coordinates[1] === 48.87);
  assert.equal(point.properties.name, 'ann');
});

test('every explorer gets its own outline and label', () => {
  const bob = { ...ann, client: 'c10', name: 'bob' };
  const features = viewsGeoJSON([ann, bob]).features;
  assert.deepEqual(features.map((f) => [f.geometry.type, f.properties.name]),
    [['LineString', 'ann'], ['Point', 'ann'], ['LineString', 'bob'], ['Point', 'bob']]);
});

test('nobody exploring draws nothing', () => {
  assert.deepEqual(viewsGeoJSON([]).features, []);
  assert.deepEqual(viewsGeoJSON(undefined).features, []);
});

test('the camera showing a region is centred on it, north up, zoomed to fit it with room to spare', () => {
  const c = cameraShowing(region, { width: 800, height: 600 });
  assert.ok(Math.abs(c.lon - 2.35) < 1e-9 && Math.abs(c.lat - 48.85) < 0.01, JSON.stringify(c));
  assert.equal(c.bearing, 0);
  assert.ok(c.zoom > 11 && c.zoom < 13, `zoom ${c.zoom}`);
});

test('every outline carries its explorer colour, the same for a client id each time', () => {
  const [line, point] = viewsGeoJSON([ann]).features;
  assert.equal(line.properties.color, colourOf('c9'));
  assert.equal(point.properties.color, colourOf('c9'));
  assert.ok(EXPLORER_COLOURS.includes(colourOf('c9')));
  const many = new Set(['c1', 'c2', 'c3', 'c4', 'c5'].map(colourOf));
  assert.ok(many.size >= 3, 'neighbouring ids get different colours');
});

test('a region on screen gets no arrow', () => {
  assert.equal(edgeArrow({ x: 400, y: 300 }, { width: 800, height: 600 }), null);
});

test('a region off screen to the right gets an arrow on the right edge pointing right', () => {
  const a = edgeArrow({ x: 2000, y: 300 }, { width: 800, height: 600 }, 20);
  assert.deepEqual(a, { x: 780, y: 300, angle: 0 });
});

test('a region off screen above and left gets an arrow on the edge towards it', () => {
  const a = edgeArrow({ x: -400, y: -900 }, { width: 800, height: 600 }, 20);
  assert.ok(Math.abs(a.y - 20) < 1e-9 && a.x > 20 && a.x < 400, JSON.stringify(a));
  assert.ok(a.angle < -90 && a.angle > -180);
});

test("a region's centre is the middle of its corners, across the antimeridian too", () => {
  assert.deepEqual(regionCentre([[179, 10], [-179, 10], [-179, 8], [179, 8]]), [180, 9]);
});
