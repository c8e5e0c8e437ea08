import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  FOV, project, unproject, visibleQuad, visibleBounds, boundsContain, horizonY, boundsClampY,
  wrapLongitude, normalizeBearing, shortestTurn, nearestLongitude, mercatorForward, mercatorInverse,
  worldSize, cameraDistance,
} from '../src/geo/projection.js';

const vectorsPath = fileURLToPath(new URL('../../../Tests/Vectors/projection.json', import.meta.url));
const vectors = JSON.parse(readFileSync(vectorsPath, 'utf8'));

const PX = 1e-6;
const DEG = 1e-9;

function near(actual, expected, tol, msg) {
  assert.ok(Math.abs(actual - expected) <= tol, `${msg}: ${actual} vs ${expected} (diff ${actual - expected})`);
}

test('vector file has the expected shape and size', () => {
  assert.equal(typeof vectors.description, 'string');
  near(vectors.fovRadians, FOV, 1e-15, 'fov');
  assert.ok(vectors.cases.length >= 60 && vectors.cases.length <= 140, `cases ${vectors.cases.length}`);
  assert.ok(vectors.unprojectCases.length >= 20 && vectors.unprojectCases.length <= 60);
  assert.ok(vectors.cases.filter((c) => c.camera.padding).length >= 20, 'padded cameras');
  assert.ok(vectors.cases.some((c) => c.view === null));
  assert.ok(vectors.unprojectCases.filter((c) => c.geo === null).length >= 3);
});

test('project matches every vector within 1e-6 px', () => {
  for (const c of vectors.cases) {
    const v = project(c.camera, c.viewport, c.geo);
    if (c.view === null) {
      assert.equal(v, null, `${c.name} should be behind the camera`);
      continue;
    }
    assert.ok(v, `${c.name} returned null`);
    near(v.x, c.view.x, PX, `${c.name} x`);
    near(v.y, c.view.y, PX, `${c.name} y`);
  }
});

test('unproject matches every vector within 1e-9 degrees', () => {
  for (const c of vectors.unprojectCases) {
    const g = unproject(c.camera, c.viewport, c.view);
    if (c.geo === null) {
      assert.equal(g, null, `${c.name} should be above the horizon`);
      continue;
    }
    assert.ok(g, `${c.name} returned null`);
    near(g.lat, c.geo.lat, DEG, `${c.name} lat`);
    near(shortestTurn(c.geo.lon, g.lon), 0, DEG, `${c.name} lon`);
    assert.ok(g.lon >= -180 && g.lon < 180, `${c.name} lon wrapped`);
  }
});

test('round trips: unproject(project(p)) = p and project(unproject(v)) = v', () => {
  for (const c of vectors.cases) {
    const v = project(c.camera, c.viewport, c.geo);
    if (!v) continue;
    const g = unproject(c.camera, c.viewport, v);
    assert.ok(g, c.name);
    const lat = Math.max(-85.051129, Math.min(85.051129, c.geo.lat));
    near(g.lat, lat, 1e-8, `${c.name} lat`);
    near(shortestTurn(c.geo.lon, g.lon), 0, 1e-8, `${c.name} lon`);
  }
  let farCopies = 0;
  for (const c of vectors.unprojectCases) {
    const g = unproject(c.camera, c.viewport, c.view);
    if (!g) continue;
    // Points beyond the world's edge are clamped on the way back; skip those.
    if (Math.abs(g.lat) > 85.051129) continue;
    const v = project(c.camera, c.viewport, g);
    // Near the horizon of a tilted low-zoom view the ground hit can be more than
    // 180 degrees of longitude away (or, at zoom 0, a copy of the world beside this
    // one); project() then picks the nearer copy.
    if (v === null || Math.abs(v.x - c.view.x) > 1) {
      farCopies++;
      continue;
    }
    near(v.x, c.view.x, 1e-5, `${c.name} x`);
    near(v.y, c.view.y, 1e-5, `${c.name} y`);
  }
  assert.ok(farCopies <= 3, `far copies ${farCopies}`);
});

test('target lands on the anchor pixel', () => {
  const camera = { lat: 35.6762, lon: 139.6503, zoom: 18.7, bearing: 271.5, tilt: 60, anchor: { x: 0.2, y: 0.3 } };
  const vp = { width: 800, height: 600 };
  const v = project(camera, vp, { lat: camera.lat, lon: camera.lon });
  near(v.x, 160, 1e-7, 'x');
  near(v.y, 180, 1e-7, 'y');
  const g = unproject(camera, vp, { x: 160, y: 180 });
  near(g.lat, camera.lat, 1e-10, 'lat');
  near(g.lon, camera.lon, 1e-10, 'lon');
});

test('horizon: just below hits the ground, at or above is null', () => {
  const camera = { lat: 0, lon: 0, zoom: 5, bearing: 30, tilt: 80 };
  const vp = { width: 1280, height: 720 };
  const yh = horizonY(camera, vp);
  near(yh, 360 - 1080 / Math.tan((80 * Math.PI) / 180), 1e-9, 'horizon');
  assert.equal(unproject(camera, vp, { x: 100, y: yh - 0.5 }), null);
  assert.equal(unproject(camera, vp, { x: 100, y: yh - 1e-3 }), null);
  assert.ok(unproject(camera, vp, { x: 100, y: yh + 0.5 }));
  assert.equal(horizonY({ ...camera, tilt: 0 }, vp), -Infinity);
  near(cameraDistance(vp), 1080, 1e-9, 'distance');
});

test('mercator forward/inverse', () => {
  const p = mercatorForward({ lat: 0, lon: 0 }, 0);
  near(p.x, 256, 1e-12, 'x');
  near(p.y, 256, 1e-9, 'y');
  const top = mercatorForward({ lat: 85.051129, lon: -180 }, 2);
  near(top.x, 0, 1e-12, 'x');
  near(top.y, 0, 1e-4, 'y at the limit');
  assert.equal(mercatorForward({ lat: 89, lon: 0 }, 3).y, mercatorForward({ lat: 85.051129, lon: 0 }, 3).y);
  for (const [lat, lon, z] of [[48.8566, 2.3522, 12], [-33.86, 151.2, 18.7], [0, -179.9, 0]]) {
    const g = mercatorInverse(mercatorForward({ lat, lon }, z), z);
    near(g.lat, lat, 1e-10, 'lat');
    near(g.lon, lon, 1e-10, 'lon');
  }
  assert.equal(worldSize(1), 1024);
});

test('angle helpers', () => {
  assert.equal(wrapLongitude(180), -180);
  assert.equal(wrapLongitude(-180), -180);
  assert.equal(wrapLongitude(190), -170);
  assert.equal(wrapLongitude(-190), 170);
  assert.equal(wrapLongitude(540), -180);
  assert.equal(wrapLongitude(-1e-20), 0);
  assert.equal(wrapLongitude(-180 - 1e-14), -180);
  assert.equal(normalizeBearing(-10), 350);
  assert.equal(normalizeBearing(720), 0);
  assert.ok(Object.is(normalizeBearing(-0), 0));
  assert.equal(normalizeBearing(359.5), 359.5);
  assert.equal(shortestTurn(350, 10), 20);
  assert.equal(shortestTurn(10, 350), -20);
  assert.equal(shortestTurn(0, 180), 180);
  assert.equal(shortestTurn(0, -180), 180);
  assert.equal(shortestTurn(0, 540), 180);
  near(nearestLongitude(-179.8, 179.9), 180.2, 1e-12, 'nearest');
  near(nearestLongitude(179.9, -179.8), -180.1, 1e-12, 'nearest reverse');
  near(nearestLongitude(10, 725), 730, 1e-12, 'nearest many turns');
});

const boundsCameras = [
  [{ lat: 48.8566, lon: 2.3522, zoom: 12, bearing: 0, tilt: 0 }, { width: 1280, height: 720 }],
  [{ lat: 0, lon: 179.9, zoom: 8, bearing: 30, tilt: 30 }, { width: 1280, height: 720 }],
  [{ lat: 0, lon: -179.95, zoom: 9, bearing: 200, tilt: 60, anchor: { x: 0.5, y: 0.8 } }, { width: 375, height: 812 }],
  [{ lat: 20, lon: 100, zoom: 3.5, bearing: 90, tilt: 85 }, { width: 800, height: 600 }],
  [{ lat: -33.86, lon: 151.21, zoom: 12, bearing: 271.5, tilt: 75, anchor: { x: 0.2, y: 0.3 } }, { width: 1280, height: 720 }],
  [{ lat: 0, lon: 0, zoom: 0, bearing: 0, tilt: 0 }, { width: 1280, height: 720 }],
];

test('visible bounds contain the visible corners and centre', () => {
  for (const [camera, vp] of boundsCameras) {
    const b = visibleBounds(camera, vp);
    assert.ok(b.south <= b.north);
    assert.ok(b.west >= -180 && b.west < 180 && b.east > -180 && b.east <= 180);
    const quad = visibleQuad(camera, vp);
    assert.equal(quad.length, 4);
    for (const p of quad) assert.ok(boundsContain(b, p), `${JSON.stringify(camera)} corner ${JSON.stringify(p)}`);
    // every screen point below the clamp line is inside the bounds
    const top = Math.max(0, boundsClampY(camera, vp));
    for (let i = 0; i <= 8; i++) {
      for (let j = 0; j <= 8; j++) {
        const view = { x: (vp.width * i) / 8, y: top + ((vp.height - top) * j) / 8 };
        const g = unproject(camera, vp, view);
        assert.ok(g, 'below the clamp line hits the ground');
        assert.ok(boundsContain(b, g), `${JSON.stringify(camera)} view ${JSON.stringify(view)}`);
      }
    }
  }
});

test('visible bounds across the antimeridian have west > east', () => {
  const b = visibleBounds({ lat: 0, lon: 179.9, zoom: 8, bearing: 0, tilt: 0 }, { width: 1280, height: 720 });
  assert.ok(b.west > b.east, JSON.stringify(b));
  near(b.west, 179.9 - (640 / (512 * 256)) * 360, 1e-9, 'west');
  near(b.east, 179.9 + (640 / (512 * 256)) * 360 - 360, 1e-9, 'east');
  assert.ok(boundsContain(b, { lat: 0, lon: 180 }));
  assert.ok(boundsContain(b, { lat: 0, lon: -180 }));
  assert.ok(!boundsContain(b, { lat: 0, lon: 0 }));
  const n = visibleBounds({ lat: 10, lon: 20, zoom: 8, bearing: 45, tilt: 45 }, { width: 800, height: 600 });
  assert.ok(n.west < n.east);
  const world = visibleBounds({ lat: 0, lon: 0, zoom: 0, bearing: 0, tilt: 0 }, { width: 1280, height: 720 });
  assert.deepEqual([world.west, world.east], [-180, 180]);
});

test('high tilt bounds are clamped to 85% of the horizon distance', () => {
  const camera = { lat: 0, lon: 0, zoom: 3.5, bearing: 0, tilt: 85 };
  const vp = { width: 800, height: 600 };
  const quad = visibleQuad(camera, vp);
  const clampY = 300 - (0.85 * 900) / Math.tan((85 * Math.PI) / 180);
  near(quad[0].view.y, clampY, 1e-9, 'top clamp');
  assert.ok(quad[0].view.y > horizonY(camera, vp));
  const flat = visibleQuad({ ...camera, tilt: 0 }, vp);
  assert.equal(flat[0].view.y, 0);
});
