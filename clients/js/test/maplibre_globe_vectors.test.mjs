// The globe (clients/js/src/geo/globe.js) against MapLibre GL JS 5.3.0 itself:
// Tests/Vectors/maplibre_globe.json (its vertical perspective transform below
// zoom 12). Project: within 1 px of MapLibre's view point, null where the globe
// hides the point. Unproject: our point of the globe drawn within 1 px of
// MapLibre's; null where the line of sight misses the globe, or meets it only
// behind the eye (MapLibre then still gives that point, which it does not draw).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { globeProject, globeUnproject, isGlobe } from '../src/geo/globe.js';

const path = fileURLToPath(new URL('../../../Tests/Vectors/maplibre_globe.json', import.meta.url));
const vectors = JSON.parse(readFileSync(path, 'utf8'));
const TOLERANCE_PX = 1;
const globeCases = vectors.cases.filter((c) => c.globe === true);
const viewOf = (c) => c.viewport;

test('the globe vectors are MapLibre 5.3.0\'s globe, drawn as one exactly below zoom 12', () => {
  assert.ok(existsSync(path));
  assert.equal(vectors.maplibre, '5.3.0');
  assert.equal(vectors.projection, 'globe');
  assert.ok(globeCases.length >= 200, `${globeCases.length} globe cases`);
  for (const c of vectors.cases) assert.equal(c.globe === true, isGlobe(c.camera.zoom), c.name);
});

test('globeProject draws every point of the globe where MapLibre does, within 1 px, and nothing the globe hides', (t) => {
  let worst = 0, compared = 0;
  for (const c of globeCases) {
    for (const p of c.project) {
      const got = globeProject(c.camera, viewOf(c), p.geo);
      if (p.view === null) {
        assert.equal(got, null, `${c.name}: ${JSON.stringify(p.geo)} is hidden in MapLibre`);
        continue;
      }
      assert.ok(got, `${c.name}: ${JSON.stringify(p.geo)} hidden here, MapLibre draws it`);
      const error = Math.hypot(got.x - p.view.x, got.y - p.view.y);
      worst = Math.max(worst, error);
      compared++;
      assert.ok(error <= TOLERANCE_PX, `${c.name}: ${error} px`);
    }
  }
  assert.ok(compared >= 1000);
  t.diagnostic(`project: ${compared} points, worst ${worst.toPrecision(3)} px`);
});

test('globeUnproject finds MapLibre\'s point of the globe under every view point within 1 px, and space where it has none', (t) => {
  let worst = 0, compared = 0;
  for (const c of globeCases) {
    for (const u of c.unproject) {
      const got = globeUnproject(c.camera, viewOf(c), u.view);
      const drawn = u.geo && globeProject(c.camera, viewOf(c), u.geo);
      if (!drawn) {
        assert.equal(got, null, `${c.name}: ${JSON.stringify(u.view)} shows space in MapLibre (or its hit is behind the eye)`);
        continue;
      }
      assert.ok(got, `${c.name}: ${JSON.stringify(u.view)} misses the globe here`);
      const back = globeProject(c.camera, viewOf(c), got);
      const error = Math.hypot(back.x - drawn.x, back.y - drawn.y);
      worst = Math.max(worst, error);
      compared++;
      assert.ok(error <= TOLERANCE_PX, `${c.name}: ${error} px`);
    }
  }
  assert.ok(compared >= 1000);
  t.diagnostic(`unproject: ${compared} points, worst ${worst.toPrecision(3)} px`);
});
