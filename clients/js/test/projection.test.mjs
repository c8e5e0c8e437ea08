import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  FOV, project, unproject, visibleQuad, visibleBounds, boundsContain, horizonY, boundsClampY,
  wrapLongitude, normalizeBearing, shortestTurn, nearestLongitude, mercatorForward, mercatorInverse,
  worldSize, cameraDistance, principalPoint, centerPoint, groundPoint, cameraPlacing, normalizeRoll, pixelsPerMeter, levelPoint,
  levelHorizonY,
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

// ---------------------------------------------------------------------------
// Roll, elevation, field of view (MapLibre GL JS 5)
// ---------------------------------------------------------------------------

const D2R = Math.PI / 180;

// MapLibre GL JS 5's mercator `_calcMatrices` rebuilt with gl-matrix's (column-major) semantics:
// P · S(1,-1,1) · T(0,0,-d) · Rz(-roll) · Rx(pitch) · Rz(-bearing) · T(-x,-y,0) · S(1,1,ppm) · T(0,0,-elevation).
function maplibreMatrix(camera, vp) {
  const mul = (a, b) => {
    const o = new Array(16).fill(0);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
    return o;
  };
  const id = () => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const scale = (x, y, z) => Object.assign(id(), { 0: x, 5: y, 10: z });
  const translate = (x, y, z) => Object.assign(id(), { 12: x, 13: y, 14: z });
  const rotZ = (t) => Object.assign(id(), { 0: Math.cos(t), 1: Math.sin(t), 4: -Math.sin(t), 5: Math.cos(t) });
  const rotX = (t) => Object.assign(id(), { 5: Math.cos(t), 6: Math.sin(t), 9: -Math.sin(t), 10: Math.cos(t) });
  const { width: W, height: H } = vp;
  const fov = (camera.fov ?? 36.86989764584402) * D2R;
  const d = (0.5 / Math.tan(fov / 2)) * H;
  const p = { top: 0, left: 0, bottom: 0, right: 0, ...camera.padding };
  const ox = Math.min(Math.max((p.left + W - p.right) / 2, 0), W) - W / 2;
  const oy = Math.min(Math.max((p.top + H - p.bottom) / 2, 0), H) - H / 2;
  const ws = worldSize(camera.zoom);
  const x = ((camera.lon + 180) / 360) * ws;
  const y = mercatorForward(camera, camera.zoom).y;
  const ppm = ws / (2 * Math.PI * 6371008.8 * Math.cos(camera.lat * D2R));
  const near = H / 50;
  const far = 100 * H;
  let m = new Array(16).fill(0);
  const f = 1 / Math.tan(fov / 2);
  Object.assign(m, { 0: f / (W / H), 5: f, 10: (far + near) / (near - far), 11: -1, 14: (2 * far * near) / (near - far) });
  m[8] = (-ox * 2) / W;
  m[9] = (oy * 2) / H;
  for (const t of [scale(1, -1, 1), translate(0, 0, -d), rotZ(-(camera.roll ?? 0) * D2R), rotX(camera.tilt * D2R),
    rotZ(-camera.bearing * D2R), translate(-x, -y, 0), scale(1, 1, ppm), translate(0, 0, -(camera.elevation ?? 0))]) m = mul(m, t);
  return (geo) => {
    const v = [((geo.lon + 180) / 360) * ws, mercatorForward(geo, camera.zoom).y, 0, 1];
    const c = [0, 1, 2, 3].map((r) => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3]);
    if (!(c[3] > 0)) return null;
    return { x: ((c[0] / c[3] + 1) * W) / 2, y: ((1 - c[1] / c[3]) * H) / 2 };
  };
}

/** Deterministic cameras with roll, elevation, fov, tilt up to 85 and padding. */
function cameras3D(n) {
  let seed = 11;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const out = [];
  for (let i = 0; i < n; i++) {
    const vp = { width: 320 + Math.round(rnd() * 1400), height: 320 + Math.round(rnd() * 800) };
    const camera = { lat: (rnd() * 2 - 1) * 70, lon: (rnd() * 2 - 1) * 180, zoom: 6 + rnd() * 14, bearing: rnd() * 360,
      tilt: rnd() * 85, roll: (rnd() * 2 - 1) * 180, elevation: (rnd() * 2 - 1) * 3000, fov: 5 + rnd() * 55 };
    if (i % 2) camera.padding = { top: rnd() * 150, left: rnd() * 150, bottom: rnd() * 150, right: rnd() * 150 };
    out.push({ camera, vp, views: Array.from({ length: 12 }, () => ({ x: rnd() * vp.width, y: rnd() * vp.height })) });
  }
  return out;
}

test('a camera with roll 0, elevation 0 and the default fov projects exactly as one without', () => {
  for (const c of vectors.cases.slice(0, 40)) {
    const same = { ...c.camera, roll: 0, elevation: 0, fov: 36.86989764584402 };
    assert.deepEqual(project(same, c.viewport, c.geo), project(c.camera, c.viewport, c.geo), c.name);
  }
  for (const c of vectors.unprojectCases) {
    const same = { ...c.camera, roll: 0, elevation: 0, fov: 36.86989764584402 };
    assert.deepEqual(unproject(same, c.viewport, c.view), unproject(c.camera, c.viewport, c.view), c.name);
  }
});

test('project matches MapLibre 5\'s matrices with roll, elevation, fov, tilt to 85 and padding', () => {
  let checked = 0;
  for (const { camera, vp, views } of cameras3D(300)) {
    const maplibre = maplibreMatrix(camera, vp);
    for (const view of views) {
      const g = groundPoint(camera, vp, view);
      // (near the horizon of a wide view the ground hit can be half a world away: project takes the nearer copy)
      if (!g || Math.abs(g.lat) > 85 || Math.abs(g.lon - camera.lon) > 170) continue;
      const expected = maplibre(g);
      const v = project(camera, vp, g);
      assert.ok(expected && v, `${JSON.stringify(camera)} ${JSON.stringify(view)}`);
      near(v.x, expected.x, 1e-5, 'x');
      near(v.y, expected.y, 1e-5, 'y');
      near(v.x, view.x, 1e-5, 'round trip x');
      near(v.y, view.y, 1e-5, 'round trip y');
      checked++;
    }
  }
  assert.ok(checked > 2500, `checked ${checked}`);
});

test('roll turns the picture about the centre of perspective', () => {
  const vp = { width: 1000, height: 700 };
  const camera = { lat: 47.37, lon: 8.54, zoom: 13, bearing: 25, tilt: 55, padding: { top: 40, left: 200, bottom: 0, right: 0 } };
  const { px, py } = principalPoint(camera, vp);
  for (const roll of [30, -90, 180, 179.5]) {
    const r = roll * D2R;
    for (const geo of [{ lat: 47.38, lon: 8.55 }, { lat: 47.365, lon: 8.53 }, { lat: 47.37, lon: 8.54 }]) {
      const flat = project(camera, vp, geo);
      const rolled = project({ ...camera, roll }, vp, geo);
      const X = flat.x - px;
      const Y = flat.y - py;
      near(rolled.x, px + X * Math.cos(r) + Y * Math.sin(r), 1e-7, `x at roll ${roll}`);
      near(rolled.y, py - X * Math.sin(r) + Y * Math.cos(r), 1e-7, `y at roll ${roll}`);
    }
  }
  // roll 90: what was to the right of the principal point is above it
  const right = project(camera, vp, unproject(camera, vp, { x: px + 100, y: py }));
  const turned = project({ ...camera, roll: 90 }, vp, unproject(camera, vp, { x: px + 100, y: py }));
  near(right.x, px + 100, 1e-7, 'flat');
  near(turned.x, px, 1e-7, 'roll 90 x');
  near(turned.y, py - 100, 1e-7, 'roll 90 y');
});

test('elevation: the ground lies elevation metres below the target, which is drawn at the anchor', () => {
  const vp = { width: 800, height: 600 };
  const camera = { lat: 46.5, lon: 7.9, zoom: 14, bearing: 0, tilt: 0, elevation: 2500 };
  const ppm = worldSize(14) / (2 * Math.PI * 6371008.8 * Math.cos(46.5 * D2R));
  const d = cameraDistance(vp);
  // looking straight down, the ground is further away: scaled by d / (d + elevation · ppm) about the centre
  const east = mercatorInverse({ x: mercatorForward(camera, 14).x + 100, y: mercatorForward(camera, 14).y }, 14);
  near(project(camera, vp, east).x, 400 + (100 * d) / (d + 2500 * ppm), 1e-7, 'scale');
  near(project(camera, vp, { lat: 46.5, lon: 7.9 }).y, 300, 1e-9, 'the ground under the target, straight down');
  // tilted: the ground under the target appears below the principal point
  const tilted = { ...camera, tilt: 60, bearing: 40 };
  const t = 60 * D2R;
  const under = project(tilted, vp, { lat: 46.5, lon: 7.9 });
  near(under.x, 400, 1e-7, 'under x');
  near(under.y, 300 + (d * 2500 * ppm * Math.sin(t)) / (d + 2500 * ppm * Math.cos(t)), 1e-7, 'under y');
  // the point `elevation` above the target is the target: drawn at the principal point, and at an anchor
  const top = project(tilted, vp, { lat: 46.5, lon: 7.9, altitude: 2500 });
  near(top.x, 400, 1e-7, 'target x');
  near(top.y, 300, 1e-7, 'target y');
  const anchored = { ...tilted, roll: 20, fov: 50, anchor: { x: 0.3, y: 0.7 }, padding: { top: 0, left: 100, bottom: 50, right: 0 } };
  const at = project(anchored, vp, { lat: 46.5, lon: 7.9, altitude: 2500 });
  near(at.x, 100 + 0.3 * 700, 1e-7, 'anchored x');
  near(at.y, 0.7 * 550, 1e-7, 'anchored y');
  // MapLibre's centre (the point at the principal point, at that altitude) is not the target then
  const c = centerPoint(anchored, vp);
  const drawn = project(anchored, vp, { ...c, altitude: 2500 });
  const p = principalPoint(anchored, vp);
  near(drawn.x, p.px, 1e-7, 'centre x');
  near(drawn.y, p.py, 1e-7, 'centre y');
  assert.deepEqual(centerPoint(tilted, vp), { lat: 46.5, lon: 7.9 }, 'no anchor: the target');
});

test('fov sets the eye\'s distance; straight down without elevation the ground looks the same at any fov', () => {
  const vp = { width: 900, height: 600 };
  near(cameraDistance(vp, 60), 300 / Math.tan(30 * D2R), 1e-9, 'distance at 60');
  assert.equal(cameraDistance(vp), cameraDistance(vp, 36.86989764584402));
  const camera = { lat: -33.9, lon: 18.4, zoom: 11, bearing: 70, tilt: 0 };
  const geo = { lat: -33.95, lon: 18.5 };
  const base = project(camera, vp, geo);
  for (const fov of [10, 60]) {
    const v = project({ ...camera, fov }, vp, geo);
    near(v.x, base.x, 1e-7, `x at ${fov}`);
    near(v.y, base.y, 1e-7, `y at ${fov}`);
  }
  // tilted, a narrower fov flattens the perspective: the horizon moves up
  const tilted = { ...camera, tilt: 70 };
  assert.ok(horizonY({ ...tilted, fov: 20 }, vp) < horizonY(tilted, vp));
  near(horizonY({ ...tilted, fov: 20 }, vp), 300 - cameraDistance(vp, 20) / Math.tan(70 * D2R), 1e-9, 'horizon');
});

test('with roll the horizon is slanted: just below it hits the ground, just above is null', () => {
  const vp = { width: 1280, height: 720 };
  const camera = { lat: 10, lon: 20, zoom: 6, bearing: 10, tilt: 80, roll: 15, elevation: 800, fov: 45 };
  for (const x of [0, 300, 640, 1280]) {
    const y = horizonY(camera, vp, x);
    assert.ok(Number.isFinite(y));
    assert.equal(unproject(camera, vp, { x, y: y - 0.5 }), null, `above at x ${x}`);
    assert.ok(unproject(camera, vp, { x, y: y + 0.5 }), `below at x ${x}`);
  }
  assert.ok(horizonY(camera, vp, 0) > horizonY(camera, vp, 1280), 'rolled left: the horizon rises to the right');
  // upside down: the sky is below the horizon
  const flipped = { ...camera, roll: 180 };
  const y = horizonY(flipped, vp, 640);
  assert.equal(unproject(flipped, vp, { x: 640, y: y + 0.5 }), null);
  assert.ok(unproject(flipped, vp, { x: 640, y: y - 0.5 }));
  assert.ok(Number.isNaN(horizonY({ ...camera, roll: 90 }, vp)), 'roll 90: an upright horizon has no y');
  // in the level picture (the roll turned back) the horizon is level, where the unrolled camera has it
  near(levelHorizonY(camera, vp), horizonY({ ...camera, roll: 0 }, vp), 1e-9, 'level horizon');
  const onIt = levelPoint(camera, vp, { x: 200, y: horizonY(camera, vp, 200) });
  near(onIt.y, levelHorizonY(camera, vp), 1e-9, 'a point of the horizon, levelled');
  assert.deepEqual(levelPoint({ ...camera, roll: 0 }, vp, { x: 1, y: 2 }), { x: 1, y: 2 });
  assert.equal(horizonY({ ...camera, tilt: 0 }, vp), -Infinity);
});

test('visible area with roll: a corner in the sky moves onto the slanted line at 85 % of the way to the horizon', () => {
  const vp = { width: 1280, height: 720 };
  for (const camera of [
    { lat: 20, lon: 100, zoom: 5, bearing: 90, tilt: 80, roll: 20 },
    { lat: -33.86, lon: 151.21, zoom: 12, bearing: 271.5, tilt: 75, roll: -35, elevation: 600, fov: 50, anchor: { x: 0.3, y: 0.6 } },
    { lat: 0, lon: 179.9, zoom: 8, bearing: 30, tilt: 60, roll: 170, fov: 20 },
    { lat: 45, lon: 5, zoom: 9, bearing: 0, tilt: 0, roll: 45, elevation: 1000 },
  ]) {
    const quad = visibleQuad(camera, vp);
    assert.equal(quad.length, 4);
    const b = visibleBounds(camera, vp);
    const clamp = camera.tilt === 0 ? -Infinity : levelPoint(camera, vp, { x: 0, y: boundsClampY(camera, vp, 0) }).y;
    const corners = [{ x: 0, y: 0 }, { x: vp.width, y: 0 }, { x: vp.width, y: vp.height }, { x: 0, y: vp.height }];
    quad.forEach((p, i) => {
      const level = levelPoint(camera, vp, corners[i]);
      const moved = levelPoint(camera, vp, p.view);
      if (level.y >= clamp) assert.deepEqual(p.view, corners[i], 'a corner on the ground stays');
      else {
        near(moved.x, level.x, 1e-6, 'moved straight down in the level picture');
        near(moved.y, clamp, 1e-6, 'onto the clamp line');
      }
      const g = unproject(camera, vp, p.view);
      near(g.lat, p.lat, 1e-9, 'lat');
      near(shortestTurn(g.lon, p.lon), 0, 1e-9, 'lon');
      assert.ok(boundsContain(b, p));
    });
    const { px, py } = principalPoint(camera, vp);
    assert.ok(boundsContain(b, unproject(camera, vp, { x: px, y: py })), 'the ground at the centre of perspective');
  }
  // with roll 0 the corners are those of the flat picture, exactly
  const flat = { lat: 20, lon: 100, zoom: 5, bearing: 90, tilt: 80 };
  assert.deepEqual(visibleQuad({ ...flat, roll: 0 }, vp), visibleQuad(flat, vp));
});

test('cameraPlacing keeps a grabbed ground point under the finger with roll, elevation and fov', () => {
  const vp = { width: 800, height: 600 };
  const camera = { lat: 46.5, lon: 7.9, zoom: 12, bearing: 30, tilt: 70, roll: -12, elevation: 3000, fov: 30,
    anchor: { x: 0.5, y: 0.7 } };
  const geo = groundPoint(camera, vp, { x: 300, y: 420 });
  for (const point of [{ x: 500, y: 300 }, { x: 100, y: 550 }]) {
    const placed = cameraPlacing(camera, vp, geo, point);
    for (const k of ['zoom', 'bearing', 'tilt', 'roll', 'elevation', 'fov', 'anchor']) assert.deepEqual(placed[k], camera[k], k);
    const v = project(placed, vp, geo);
    near(v.x, point.x, 1e-6, 'x');
    near(v.y, point.y, 1e-6, 'y');
  }
  assert.equal(normalizeRoll(180), 180);
  assert.equal(normalizeRoll(-180), -180);
  assert.equal(normalizeRoll(190), -170);
  assert.equal(normalizeRoll(-540), -180);
  near(pixelsPerMeter(0, 0), 512 / (2 * Math.PI * 6371008.8), 1e-18, 'ppm at the equator');
});
