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
