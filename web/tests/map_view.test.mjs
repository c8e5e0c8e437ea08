import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MapView } from '../js/map/map_view.js';

/** A MapLibre GL JS 5 map as far as the page's projection and camera go; `loading` until `loaded()`. */
function fakeMap() {
  const map = {
    calls: [],
    projection: undefined,
    loading: true,
    getProjection: () => map.projection,
    setProjection(p) {
      if (map.loading) throw new Error('Style is not done loading.');
      map.calls.push(['setProjection', p]);
      map.projection = p;
    },
    getVerticalFieldOfView: () => 36.86989764584402,
    jumpTo: (o) => map.calls.push(['jumpTo', o.zoom, o.roll]),
  };
  return map;
}

/** The page's map view on a fake map, showing `rendered` (no MapLibre, no DOM). */
function mapView(map, rendered) {
  return Object.assign(Object.create(MapView.prototype), {
    map, projection: 'mercator', screen: { rendered, viewport: { width: 800, height: 600 } },
  });
}

test('the page\'s map gets the room\'s projection once its style has loaded, with the rendered camera put back', () => {
  const map = fakeMap();
  const view = mapView(map, { lat: 1, lon: 2, zoom: 3, bearing: 0, tilt: 0, roll: 12 });
  view.setProjection('globe');
  assert.deepEqual(map.calls, [], 'the style still loads: MapLibre refuses');
  map.loading = false;
  view.showProjection(); // what the map's style.load does
  assert.deepEqual(map.calls, [['setProjection', { type: 'globe' }], ['jumpTo', 3, 12]]);
  view.setProjection('globe');
  assert.equal(map.calls.length, 2, 'already on the globe: nothing');
  view.setProjection('mercator');
  assert.deepEqual(map.calls.slice(2), [['setProjection', { type: 'mercator' }], ['jumpTo', 3, 12]]);
});

test('a Mercator room makes no projection call on a map whose style has none', () => {
  const map = fakeMap();
  map.loading = false;
  const view = mapView(map, null);
  view.setProjection('mercator');
  view.showProjection();
  assert.deepEqual(map.calls, []);
});
