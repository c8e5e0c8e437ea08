import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLat, formatLon, formatCamera, formatMs, formatRate, connectionLabel } from '../js/hud.js';

test('coordinates with hemispheres', () => {
  assert.equal(formatLat(46.3), '46.30000° N');
  assert.equal(formatLat(-33.86882), '33.86882° S');
  assert.equal(formatLon(-74.006), '74.00600° W');
  assert.equal(formatLon(0), '0.00000° E');
  assert.equal(formatLat(NaN), '—');
});

test('camera fields', () => {
  assert.deepEqual(formatCamera({ lat: 1, lon: 2, zoom: 3.456, bearing: 359.96, tilt: 60 }), {
    lat: '1.00000° N', lon: '2.00000° E', zoom: '3.46', bearing: '360.0°', tilt: '60.0°', anchor: 'centre',
  });
  assert.equal(formatCamera({ lat: 1, lon: 2, zoom: 3, bearing: 0, tilt: 0, anchor: { x: 0.5, y: 0.8 } }).anchor, '0.50, 0.80');
  assert.equal(formatCamera(null).zoom, '—');
});

test('durations and rates', () => {
  assert.equal(formatMs(null), '—');
  assert.equal(formatMs(3.14), '3.1 ms');
  assert.equal(formatMs(-0.01), '0.0 ms');
  assert.equal(formatMs(42.4), '42 ms');
  assert.equal(formatMs(1500), '1.5 s');
  assert.equal(formatMs(12, { signed: true }), '+12 ms');
  assert.equal(formatMs(-12, { signed: true }), '-12 ms');
  assert.equal(formatRate(29.6), '30/s');
});

test('connection line', () => {
  assert.equal(connectionLabel('joined'), 'connected');
  assert.equal(connectionLabel('closed', 'closed (1012: service restart)', 1500), 'reconnecting… (closed (1012: service restart)) · retry in 2 s');
  assert.equal(connectionLabel('closed', 'closed (1008): refused by the hub'), 'disconnected (closed (1008): refused by the hub)');
  assert.equal(connectionLabel('connecting'), 'connecting…');
});
