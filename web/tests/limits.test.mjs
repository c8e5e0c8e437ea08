import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepToView, clearLimits, describeLimits } from '../js/map/limits.js';
import { MAX_LATITUDE } from '../../clients/js/src/geo/projection.js';

test('keep to this view bounds the target to the visible area and the zoom to the current one', () => {
  const m = keepToView({ south: 48.1, west: 1.2, north: 49.6, east: 3.5 }, 7.456);
  assert.deepEqual(m, { minZoom: 7.45, bounds: { south: 48.1, west: 1.2, north: 49.6, east: 3.5 } });
});

test('the min zoom is rounded down, so the current camera stays allowed', () => {
  assert.equal(keepToView({ south: 0, west: 0, north: 1, east: 1 }, 6.999).minZoom, 6.99);
  assert.equal(keepToView({ south: 0, west: 0, north: 1, east: 1 }, 6).minZoom, 6);
  assert.equal(keepToView({ south: 0, west: 0, north: 1, east: 1 }, -0.5).minZoom, 0);
});

test('a view across the antimeridian gives a box whose west is east of its east', () => {
  const m = keepToView({ south: -20, west: 170, north: 10, east: 195 }, 4);
  assert.deepEqual(m.bounds, { south: -20, west: 170, north: 10, east: -165 });
  const left = keepToView({ south: -20, west: -200, north: 10, east: -170 }, 4);
  assert.deepEqual(left.bounds, { south: -20, west: 160, north: 10, east: -170 });
});

test('a view as wide as the world limits the zoom only', () => {
  assert.deepEqual(keepToView({ south: -80, west: -250, north: 80, east: 200 }, 0.7), { minZoom: 0.7, bounds: null });
});

test('latitudes are clamped to what Web Mercator can show', () => {
  const m = keepToView({ south: -89, west: -10, north: 89.5, east: 10 }, 1);
  assert.equal(m.bounds.south, -MAX_LATITUDE);
  assert.equal(m.bounds.north, MAX_LATITUDE);
});

test('non-finite numbers are refused with the field named', () => {
  assert.throws(() => keepToView({ south: NaN, west: 0, north: 1, east: 1 }, 3), /south must be a finite number/);
  assert.throws(() => keepToView({ south: 0, west: 0, north: 1, east: 1 }, Infinity), /zoom must be a finite number/);
});

test('clear limits sends null for every limit', () => {
  assert.deepEqual(clearLimits(), { minZoom: null, maxZoom: null, minTilt: null, maxTilt: null, maxTiltByZoom: null, bounds: null });
});

test('the HUD shows none for the defaults and what differs otherwise', () => {
  assert.equal(describeLimits(null), '—');
  assert.equal(describeLimits({ minZoom: 0, maxZoom: 22, minTilt: 0, maxTilt: 60, maxTiltByZoom: [], bounds: null }), 'none');
  assert.equal(describeLimits({ minZoom: 6, maxZoom: 22, minTilt: 0, maxTilt: 45, maxTiltByZoom: [], bounds: null }), 'zoom ≥ 6 · tilt ≤ 45°');
  assert.equal(describeLimits({ minZoom: 2, maxZoom: 12.5, minTilt: 10, maxTilt: 60, maxTiltByZoom: [[10, 30]], bounds: null }),
    'zoom 2–12.5 · tilt 10–60° · tilt by zoom');
  assert.equal(describeLimits({ minZoom: 0, maxZoom: 22, minTilt: 0, maxTilt: 60, bounds: { south: 48.12, west: 1.2, north: 49.6, east: -3.5 } }),
    'area 48.1°N–49.6°N, 1.2°E–3.5°W');
});
