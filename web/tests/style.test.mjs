import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildStyle, graticule, cityLabelFeatures, FONT_STACK, ATTRIBUTION } from '../js/map/style.js';
import { project } from '../../clients/js/src/geo/projection.js';

const webDir = fileURLToPath(new URL('../', import.meta.url));
const BASE = 'http://127.0.0.1:8080/';

function allStrings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => allStrings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => allStrings(v, out));
  return out;
}

test('the style loads only from the given base URL', () => {
  const style = buildStyle({ dataUrl: BASE + 'data/', glyphsUrl: BASE + 'fonts/{fontstack}/{range}.pbf' });
  assert.equal(style.version, 8);
  const urls = allStrings(style).filter((s) => /^[a-z]+:\/\//i.test(s) || s.includes('//'));
  assert.ok(urls.length >= 4);
  for (const u of urls) assert.ok(u.startsWith(BASE), `non-local URL ${u}`);
  assert.equal(style.glyphs, BASE + 'fonts/{fontstack}/{range}.pbf');
  assert.equal(style.sources.countries.attribution, ATTRIBUTION);
  assert.match(ATTRIBUTION, /Natural Earth/);
  for (const name of ['countries', 'boundaries', 'cities']) {
    const file = style.sources[name].data.slice((BASE + 'data/').length);
    assert.ok(existsSync(webDir + 'data/' + file), `missing web/data/${file}`);
  }
  const ids = style.layers.map((l) => l.id);
  assert.deepEqual(ids, ['ocean', 'graticule', 'land', 'borders', 'coastlines', 'cities', 'city-labels']);
  for (const l of style.layers) if (l.source) assert.ok(style.sources[l.source], `${l.id} source`);
  assert.deepEqual(style.layers.find((l) => l.id === 'city-labels').layout['text-font'], [FONT_STACK]);
  assert.ok(style.sky['sky-color'] && style.sky['horizon-color'] && style.sky['fog-color']);
  JSON.parse(JSON.stringify(style)); // plain data
});

test('without glyphs there is no text layer; relative URLs are refused', () => {
  const style = buildStyle({ dataUrl: BASE + 'data' });
  assert.equal(style.glyphs, undefined);
  assert.ok(!style.layers.some((l) => l.type === 'symbol'));
  assert.equal(style.sources.cities.data, BASE + 'data/cities.geojson');
  assert.throws(() => buildStyle({ dataUrl: 'data/' }), /absolute URL/);
  assert.throws(() => buildStyle({ dataUrl: BASE, glyphsUrl: 'fonts/{fontstack}/{range}.pbf' }), /absolute URL/);
});

test('graticule lines every 15 degrees', () => {
  const g = graticule(15);
  const meridians = g.features.filter((f) => f.properties.kind === 'meridian');
  const parallels = g.features.filter((f) => f.properties.kind === 'parallel');
  assert.equal(meridians.length, 25); // -180..180
  assert.deepEqual(parallels.map((f) => f.properties.value), [-75, -60, -45, -30, -15, 0, 15, 30, 45, 60, 75]);
  for (const f of meridians) {
    const c = f.geometry.coordinates;
    assert.deepEqual([c[0][1], c[c.length - 1][1]], [-85, 85]);
  }
  for (const f of parallels) {
    const c = f.geometry.coordinates;
    assert.deepEqual([c[0][0], c[c.length - 1][0]], [-180, 180]);
  }
  assert.equal(graticule(10).features.filter((f) => f.properties.kind === 'parallel').length, 17);
});

test('basemap data files are small, named and well-formed', () => {
  let total = 0;
  for (const name of ['countries', 'cities', 'boundaries']) {
    const path = webDir + `data/${name}.geojson`;
    total += statSync(path).size;
    const fc = JSON.parse(readFileSync(path, 'utf8'));
    assert.equal(fc.type, 'FeatureCollection');
    assert.ok(fc.features.length > 0);
    if (name !== 'boundaries') {
      for (const f of fc.features) assert.ok(f.properties.name && !f.properties.name.includes('?'), f.properties.name);
    }
  }
  assert.ok(total < 1024 * 1024, `data is ${total} bytes`);
  const cities = JSON.parse(readFileSync(webDir + 'data/cities.geojson', 'utf8'));
  const names = cities.features.map((f) => f.properties.name);
  for (const n of ['Paris', 'Tokyo', 'Sydney', 'São Paulo', 'Chișinău']) assert.ok(names.includes(n), n);
  const kinds = JSON.parse(readFileSync(webDir + 'data/boundaries.geojson', 'utf8')).features.map((f) => f.properties.kind);
  assert.deepEqual(kinds.sort(), ['border', 'coast']);
});

// Minimal protobuf reader for the glyph PBFs.
function readPbf(buf) {
  let pos = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = buf[pos++];
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
    }
  };
  const fields = (end) => {
    const out = [];
    while (pos < end) {
      const key = varint();
      const num = Math.floor(key / 8);
      const wire = key & 7;
      if (wire === 0) out.push([num, varint()]);
      else if (wire === 2) {
        const len = varint();
        out.push([num, buf.subarray(pos, pos + len), pos]);
        pos += len;
      } else throw new Error(`wire type ${wire}`);
    }
    return out;
  };
  return { fields, setPos: (p) => { pos = p; } };
}

function parseGlyphs(buf) {
  const r = readPbf(buf);
  const stacks = [];
  for (const [num, data, start] of r.fields(buf.length)) {
    assert.equal(num, 1);
    r.setPos(start);
    const stack = { glyphs: [] };
    for (const [n, v, s] of r.fields(start + data.length)) {
      if (n === 1) stack.name = Buffer.from(v).toString();
      else if (n === 2) stack.range = Buffer.from(v).toString();
      else if (n === 3) {
        const g = {};
        const save = s + v.length;
        r.setPos(s);
        for (const [gn, gv] of r.fields(s + v.length)) {
          const unzig = (x) => (x % 2 ? -(x + 1) / 2 : x / 2);
          if (gn === 1) g.id = gv;
          else if (gn === 2) g.bitmap = gv;
          else if (gn === 3) g.width = gv;
          else if (gn === 4) g.height = gv;
          else if (gn === 5) g.left = unzig(gv);
          else if (gn === 6) g.top = unzig(gv);
          else if (gn === 7) g.advance = gv;
        }
        r.setPos(save);
        stack.glyphs.push(g);
      }
    }
    r.setPos(start + data.length);
    stacks.push(stack);
  }
  return stacks;
}

test('glyph PBFs decode and cover every city name', () => {
  const have = new Set();
  for (const range of ['0-255', '256-511', '512-767']) {
    const buf = readFileSync(webDir + `fonts/${FONT_STACK}/${range}.pbf`);
    const [stack] = parseGlyphs(buf);
    assert.equal(stack.name, FONT_STACK);
    assert.equal(stack.range, range);
    for (const g of stack.glyphs) {
      have.add(g.id);
      if (g.width > 0) assert.equal(g.bitmap.length, (g.width + 6) * (g.height + 6), `glyph ${g.id}`);
      assert.ok(g.advance >= 0 && g.advance < 60);
    }
    if (range === '0-255') {
      const A = stack.glyphs.find((g) => g.id === 65);
      assert.ok(A.width > 10 && A.width < 24 && A.height > 12 && A.height < 24, JSON.stringify({ ...A, bitmap: 0 }));
      assert.ok(A.top < 0 && A.top > -12); // top above baseline minus ascender, as fontnik
      const max = Math.max(...A.bitmap);
      assert.ok(max > 191 && A.bitmap.some((v) => v === 0), 'SDF has inside and far-outside values');
      const space = stack.glyphs.find((g) => g.id === 32);
      assert.equal(space.width, 0);
      assert.ok(space.advance > 0);
    }
  }
  const cities = JSON.parse(readFileSync(webDir + 'data/cities.geojson', 'utf8'));
  for (const f of cities.features) {
    for (const ch of f.properties.name) assert.ok(have.has(ch.codePointAt(0)), `${f.properties.name}: ${ch}`);
  }
});

test('cityLabelFeatures places visible cities on screen', () => {
  const cities = JSON.parse(readFileSync(webDir + 'data/cities.geojson', 'utf8'));
  const camera = { lat: 48.8566, lon: 2.3522, zoom: 5, bearing: 0, tilt: 30 };
  const vp = { width: 1280, height: 720 };
  const labels = cityLabelFeatures(cities, (g) => project(camera, vp, g), vp);
  const paris = labels.find((l) => l.name === 'Paris');
  assert.ok(paris && Math.abs(paris.x - 640) < 5 && Math.abs(paris.y - 360) < 5, JSON.stringify(paris));
  assert.ok(!labels.some((l) => l.name === 'Tokyo'));
});
