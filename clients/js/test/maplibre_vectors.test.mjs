// The projection (clients/js/src/geo/projection.js) against MapLibre GL JS 5.3.0
// itself: Tests/Vectors/maplibre_mercator.json, made in headless Chromium with
// the mercator projection, roll, centre elevation, field of view, tilt up to 85
// and padding. Each case's camera lat/lon is MapLibre's centre (the target at the
// centre of the padded view). Project: within 0.5 px of MapLibre's view point.
// Unproject: our ground point projects back within 0.5 px of the view point, and
// lies within the equivalent of 0.5 px (through the view's local scale) of
// MapLibre's. The worst errors are reported as diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { project, unproject, groundPoint, nearestLongitude, mercatorX, worldSize } from '../src/geo/projection.js';

// (MAPLIBRE_VECTORS names another file of the same shape.)
const path = process.env.MAPLIBRE_VECTORS ?? fileURLToPath(new URL('../../../Tests/Vectors/maplibre_mercator.json', import.meta.url));
const present = existsSync(path);
const vectors = present ? JSON.parse(readFileSync(path, 'utf8')) : null;
const skip = present ? false : 'Tests/Vectors/maplibre_mercator.json is not there yet';
const TOLERANCE_PX = 0.5;

/** The case's camera in the library's form (every field as MapLibre had it). */
function cameraOf(c) {
  const { lat, lon, zoom, bearing, tilt, roll, elevation, fov, padding } = c.camera;
  const camera = { lat, lon, zoom, bearing, tilt };
  if (roll !== undefined) camera.roll = roll;
  if (elevation !== undefined) camera.elevation = elevation;
  if (fov !== undefined) camera.fov = fov;
  if (padding) camera.padding = { top: padding.top ?? 0, left: padding.left ?? 0, bottom: padding.bottom ?? 0, right: padding.right ?? 0 };
  return camera;
}

const fmt = (x) => (x === null ? 'null' : x.toPrecision(3));

/** World pixels of {lat, lon} with the latitude not clamped (ground beyond the world's edge), at world size ws. */
function worldPoint(g, ws) {
  return { x: mercatorX(g.lon, ws), y: ((180 - (180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (g.lat * Math.PI) / 360))) / 360) * ws };
}

test('the MapLibre vectors are MapLibre 5.3.0\'s mercator, with roll, elevation and fov', { skip }, () => {
  assert.equal(typeof vectors.description, 'string');
  assert.equal(vectors.maplibre, '5.3.0');
  assert.equal(vectors.projection, 'mercator');
  assert.ok(Array.isArray(vectors.cases) && vectors.cases.length > 0);
  for (const c of vectors.cases) {
    assert.equal(typeof c.name, 'string');
    assert.ok(c.viewport.width > 0 && c.viewport.height > 0, c.name);
    assert.ok(Array.isArray(c.project) && Array.isArray(c.unproject), c.name);
  }
});

test('project matches MapLibre 5.3.0 within 0.5 px', { skip }, (t) => {
  let worst = { error: 0, where: 'none' };
  let checked = 0;
  let farCopies = 0;
  const failures = [];
  for (const c of vectors.cases) {
    const camera = cameraOf(c);
    for (const [i, p] of c.project.entries()) {
      const where = `${c.name} project[${i}] ${JSON.stringify(p.geo)}`;
      // MapLibre projects the longitude as given; the library the copy nearest the camera's
      if (Math.abs(p.geo.lon - camera.lon) > 180) {
        farCopies++;
        continue;
      }
      const v = project(camera, c.viewport, p.geo);
      if (p.view === null || v === null) {
        if (p.view !== v) failures.push(`${where}: MapLibre ${JSON.stringify(p.view)}, ours ${JSON.stringify(v)}`);
        continue;
      }
      const error = Math.hypot(v.x - p.view.x, v.y - p.view.y);
      checked++;
      if (error > worst.error) worst = { error, where };
      if (!(error <= TOLERANCE_PX)) failures.push(`${where}: ${fmt(error)} px (MapLibre ${p.view.x}, ${p.view.y}; ours ${v.x}, ${v.y})`);
    }
  }
  t.diagnostic(`project: ${checked} points, worst ${fmt(worst.error)} px at ${worst.where}; ${farCopies} beyond ±180° of the camera skipped`);
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of the project points are off`);
  assert.ok(checked > 0);
});

test('unproject matches MapLibre 5.3.0 within 0.5 px', { skip }, (t) => {
  let worstBack = { error: 0, where: 'none' };
  let worstGeo = { error: 0, where: 'none' };
  let checked = 0;
  let saturated = 0;
  const failures = [];
  for (const c of vectors.cases) {
    const camera = cameraOf(c);
    const ws = worldSize(camera.zoom);
    const world = (g) => worldPoint(g, ws);
    for (const [i, u] of c.unproject.entries()) {
      const where = `${c.name} unproject[${i}] ${JSON.stringify(u.view)}`;
      const g = unproject(camera, c.viewport, u.view);
      if (u.geo === null || g === null) {
        if (u.geo !== g) failures.push(`${where}: MapLibre ${JSON.stringify(u.geo)}, ours ${JSON.stringify(g)}`);
        continue;
      }
      checked++;
      // 1. ours projects back onto the view point (unless beyond the world's edge or half a world away)
      const ours = groundPoint(camera, c.viewport, u.view);
      if (Math.abs(ours.lat) < 85.05 && Math.abs(ours.lon - camera.lon) <= 180) {
        const v = project(camera, c.viewport, g);
        const back = v ? Math.hypot(v.x - u.view.x, v.y - u.view.y) : Infinity;
        if (back > worstBack.error) worstBack = { error: back, where };
        if (!(back <= TOLERANCE_PX)) failures.push(`${where}: projects back ${fmt(back)} px away`);
      }
      // 2. MapLibre's ground point, in view px through the local scale (d world / d view) at the view point
      const h = 0.25;
      const gx = groundPoint(camera, c.viewport, { x: u.view.x + h, y: u.view.y });
      const gy = groundPoint(camera, c.viewport, { x: u.view.x, y: u.view.y + h });
      if (!gx || !gy) continue; // right at the horizon
      const o = world(ours);
      const ax = world(gx);
      const ay = world(gy);
      const theirs = world({ lat: u.geo.lat, lon: nearestLongitude(u.geo.lon, ours.lon) });
      const j = [(ax.x - o.x) / h, (ay.x - o.x) / h, (ax.y - o.y) / h, (ay.y - o.y) / h]; // [dX/dx, dX/dy, dY/dx, dY/dy]
      const det = j[0] * j[3] - j[1] * j[2];
      if (![o.y, ax.y, ay.y, theirs.y, det].every(Number.isFinite) || det === 0) {
        // far beyond the world's edge the inverse Mercator saturates at ±90°: no scale to compare with
        saturated++;
        assert.equal(Math.sign(u.geo.lat), Math.sign(g.lat), `${where}: the same pole`);
        continue;
      }
      const dX = theirs.x - o.x;
      const dY = theirs.y - o.y;
      const sx = (j[3] * dX - j[1] * dY) / det;
      const sy = (-j[2] * dX + j[0] * dY) / det;
      const error = Math.hypot(sx, sy);
      if (error > worstGeo.error) worstGeo = { error, where };
      if (!(error <= TOLERANCE_PX)) {
        failures.push(`${where}: MapLibre's ground point is ${fmt(error)} px away (MapLibre ${JSON.stringify(u.geo)}, ours ${JSON.stringify(g)})`);
      }
    }
  }
  t.diagnostic(`unproject: ${checked} points; projected back: worst ${fmt(worstBack.error)} px at ${worstBack.where}`);
  t.diagnostic(`unproject: MapLibre's ground point: worst ${fmt(worstGeo.error)} px (equivalent) at ${worstGeo.where}; `
    + `${saturated} at a latitude saturated at ±90° only checked for the pole`);
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of the unproject points are off`);
  assert.ok(checked > 0);
});
