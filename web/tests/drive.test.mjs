import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTE_CHUNK, SimulatedDrive, bearing, metres, parseRouteFile, routeMessages } from '../js/map/drive.js';
import { build } from '../../clients/js/src/protocol/messages.js';

const berlin = [{ lat: 52.52, lon: 13.40 }, { lat: 52.52, lon: 13.41 }, { lat: 52.53, lon: 13.41 }];

test('a route is sent as one replacing message and appended pieces the protocol accepts', () => {
  const long = Array.from({ length: ROUTE_CHUNK * 2 + 5 }, (_, i) => ({ lat: 52 + i * 1e-4, lon: 13 }));
  const messages = routeMessages(long);
  assert.equal(messages.length, 3);
  assert.equal(messages[0].append, undefined);
  assert.ok(messages.slice(1).every((m) => m.append === true));
  assert.equal(messages.reduce((n, m) => n + m.points.length, 0), long.length);
  for (const m of messages) assert.deepEqual(build.route(m.points, { append: m.append === true }), m);
  assert.throws(() => routeMessages([berlin[0]]), /at least 2 points/);
});

test('a GeoJSON file gives its first LineString, and a bad one says what is wrong', () => {
  const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] } },
    { type: 'Feature', geometry: { type: 'LineString', coordinates: [[13.40, 52.52], [13.41, 52.52]] } }] };
  assert.deepEqual(parseRouteFile(JSON.stringify(fc)), berlin.slice(0, 2));
  assert.throws(() => parseRouteFile('{nope'), /not JSON/);
  assert.throws(() => parseRouteFile('{"type":"Point","coordinates":[0,0]}'), /no LineString/);
  assert.throws(() => parseRouteFile('{"type":"LineString","coordinates":[[0,95],[1,1]]}'), /coordinate 0/);
  assert.throws(() => parseRouteFile('{"type":"LineString","coordinates":[[0,1]]}'), /at least 2/);
});

test('a simulated drive moves along the route at its speed, heading along each leg, and stops at the end', () => {
  const drive = new SimulatedDrive(berlin, 10);
  const firstLeg = metres(berlin[0], berlin[1]);
  assert.ok(Math.abs(drive.length - firstLeg - metres(berlin[1], berlin[2])) < 1e-6);
  const start = drive.at(0);
  assert.deepEqual([start.lat, start.lon, start.done], [52.52, 13.40, false]);
  assert.ok(Math.abs(start.heading - bearing(berlin[0], berlin[1])) < 1e-9 && Math.abs(start.heading - 90) < 0.01);
  const half = drive.at(firstLeg / 2 / 10);
  assert.ok(Math.abs(half.lon - 13.405) < 1e-9 && half.lat === 52.52);
  const turned = drive.at((firstLeg + 10) / 10);
  assert.ok(Math.abs(turned.heading) < 0.01, `north on the second leg: ${turned.heading}`);
  const end = drive.at(1e6);
  assert.deepEqual([end.lat, end.lon, end.done], [52.53, 13.41, true]);
});
