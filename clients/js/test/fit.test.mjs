// The viewer's fit rule (clients/js/src/geo/fit.js) against the shared vectors of
// Tests/Vectors/fit_cover.json, which the Swift FitMode is checked against too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fitCamera } from '../src/geo/fit.js';

const vectors = JSON.parse(readFileSync(fileURLToPath(new URL('../../../Tests/Vectors/fit_cover.json', import.meta.url)), 'utf8'));

test('the shared fit vectors are there', () => {
  assert.ok(vectors.cases.length >= 8);
});

for (const c of vectors.cases) {
  test(`fit ${c.fit}: ${c.name}`, () => {
    const shown = fitCamera(c.fit, c.camera, c.view, c.own, c.limits);
    assert.ok(Math.abs(shown.zoom - c.expected.zoom) < 1e-12, `${shown.zoom} vs ${c.expected.zoom}`);
    for (const k of ['lat', 'lon', 'bearing', 'tilt']) assert.equal(shown[k], c.expected[k], k);
  });
}

test('cover keeps roll, elevation and fov, and shows the mover\'s picture scaled on a screen scaled alike', async () => {
  const { project, unproject } = await import('../src/geo/projection.js');
  const camera = { lat: 46.5, lon: 7.9, zoom: 12, bearing: 40, tilt: 80, roll: -15, elevation: 2200, fov: 28,
    padding: { top: 30, left: 60, bottom: 0, right: 10 } };
  const view = { width: 800, height: 500 };
  const own = { width: 1600, height: 1000 };
  const shown = fitCamera('cover', camera, view, own, { minZoom: 0, maxZoom: 22 });
  assert.equal(shown.zoom, 13);
  for (const k of ['lat', 'lon', 'bearing', 'tilt', 'roll', 'elevation', 'fov']) assert.equal(shown[k], camera[k], k);
  // The same eye in metres: every point of the mover's view lands at twice its place (padding scaled too).
  const scaled = { ...shown, padding: { top: 60, left: 120, bottom: 0, right: 20 } };
  for (const p of [{ x: 100, y: 400 }, { x: 700, y: 250 }, { x: 400, y: 480 }]) {
    const geo = unproject(camera, view, p);
    const v = project(scaled, own, geo);
    assert.ok(Math.abs(v.x - 2 * p.x) < 1e-6 && Math.abs(v.y - 2 * p.y) < 1e-6, `${JSON.stringify(p)} → ${JSON.stringify(v)}`);
  }
});
