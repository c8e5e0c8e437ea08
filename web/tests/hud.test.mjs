import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLat, formatLon, formatCamera, formatMs, formatRate, formatPlayout, formatPrediction, connectionLabel, tapLabel } from '../js/ui/hud.js';

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
    roll: null, elevation: null, fov: null,
  });
  assert.equal(formatCamera({ lat: 1, lon: 2, zoom: 3, bearing: 0, tilt: 0, anchor: { x: 0.5, y: 0.8 } }).anchor, '0.50, 0.80');
  assert.equal(formatCamera(null).zoom, '—');
});

test('roll, elevation and field of view are shown only when not at their defaults', () => {
  const flat = { lat: 1, lon: 2, zoom: 3, bearing: 0, tilt: 80 };
  const shown = (c) => { const f = formatCamera(c); return [f.roll, f.elevation, f.fov]; };
  assert.deepEqual(shown({ ...flat, roll: -12.54, elevation: 350.4, fov: 50 }), ['-12.5°', '350 m', '50.0°']);
  assert.deepEqual(shown({ ...flat, roll: 0, elevation: 0, fov: 36.86989764584402 }), [null, null, null], 'at their defaults');
  assert.deepEqual(shown(flat), [null, null, null], 'left out (the wire leaves out defaults)');
  assert.deepEqual(shown({ ...flat, roll: 0.04 }), ['0.0°', null, null], 'off the default, however little');
  assert.deepEqual(shown(null), [null, null, null]);
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
  assert.equal(connectionLabel('refused', 'forbidden: token: wrong token for role presenter', null),
    'refused by the hub (forbidden: token: wrong token for role presenter)');
});

test('tap markers: only tap and longPress events, labelled with the sender\'s name', () => {
  const names = { c2: 'ana', c3: 'c3' };
  const nameOf = (c) => names[c] ?? c;
  assert.equal(tapLabel({ type: 'event', event: 'tap', by: 'c2', lat: 1, lon: 2 }, nameOf), 'ana tapped here');
  assert.equal(tapLabel({ type: 'event', event: 'longPress', by: 'c3', lat: 1, lon: 2 }, nameOf), 'c3 long-pressed here');
  assert.equal(tapLabel({ type: 'event', event: 'tap', by: null, lat: 1, lon: 2 }, nameOf), 'someone tapped here');
  assert.equal(tapLabel({ type: 'event', event: 'gesture', kind: 'doubleTap', by: 'c2', lat: 1, lon: 2 }, nameOf), null);
  assert.equal(tapLabel({ type: 'event', event: 'steady', camera: {} }, nameOf), null);
});

test('playout line: delay, underruns, error estimate', () => {
  assert.equal(formatPlayout(null), '—');
  assert.equal(formatPlayout({ delay: null, underruns: 0, errorPx: null }), '—');
  assert.equal(formatPlayout({ delay: 127.6, underruns: 2, errorPx: 0.345 }), '128 ms · 2 dry · 0.3 px');
  assert.equal(formatPlayout({ delay: 95, underruns: 0, errorPx: null }), '95 ms · 0 dry · —');
  assert.equal(formatPlayout({ delay: 95, underruns: 1, errorPx: null, resyncs: 0 }), '95 ms · 1 dry · —');
});

test('the prediction line: last and largest error, predictions dropped', () => {
  assert.equal(formatPrediction(null), '—');
  assert.equal(formatPrediction({ acks: 0, errorPx: 0, maxErrorPx: 0, dropped: 0 }), '—', 'nothing acknowledged yet');
  assert.equal(formatPrediction({ acks: 40, errorPx: 0.04, maxErrorPx: 1.26, dropped: 0 }), '0.0 px · max 1.3 px');
  assert.equal(formatPrediction({ acks: 9, errorPx: 2, maxErrorPx: 2, dropped: 1 }), '2.0 px · max 2.0 px · 1 dropped');
});

test('the playout line counts the playout clock\'s re-syncs once there are any', () => {
  assert.equal(formatPlayout({ delay: 140, underruns: 1, errorPx: 0.2, resyncs: 1 }), '140 ms · 1 dry · 0.2 px · 1 re-sync');
  assert.equal(formatPlayout({ delay: 140, underruns: 3, errorPx: 0.2, resyncs: 2 }), '140 ms · 3 dry · 0.2 px · 2 re-syncs');
});
