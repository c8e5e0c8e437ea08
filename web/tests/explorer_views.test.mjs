// A presenter's view of the room's explorers (web/js/map/explorer_views.js): each `views` entry as a closed
// outline through its corners and a labelled point at the middle of its top edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { viewsGeoJSON } from '../js/map/explorer_views.js';

const corners = [{ lat: 48.87, lon: 2.29 }, { lat: 48.87, lon: 2.41 }, { lat: 48.83, lon: 2.41 }, { lat: 48.83, lon: 2.29 }];
const ann = { client: 'c9', name: 'ann', state: 'exploring', camera: { lat: 48.85, lon: 2.35, zoom: 13, bearing: 0, tilt: 0 },
  width: 1280, height: 720, corners };

test("an explorer's outline is its corners, closed, named after it", () => {
  const [line] = viewsGeoJSON([ann]).features;
  assert.equal(line.geometry.type, 'LineString');
  assert.deepEqual(line.geometry.coordinates, [[2.29, 48.87], [2.41, 48.87], [2.41, 48.83], [2.29, 48.83], [2.29, 48.87]]);
  assert.deepEqual(line.properties, { client: 'c9', name: 'ann' });
});

test("an explorer's label sits at the middle of its area's top edge", () => {
  const point = viewsGeoJSON([ann]).features[1];
  assert.equal(point.geometry.type, 'Point');
  assert.deepEqual(point.geometry.coordinates, [2.35, 48.87]);
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
