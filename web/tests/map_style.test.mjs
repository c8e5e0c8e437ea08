import { test } from 'node:test';
import assert from 'node:assert/strict';
import { absolutizeStyle, checkStyle, chooseStyle, terrainSource, CONFIG_PATH } from '../js/map/map_style.js';
import { buildVectorStyle } from '../js/map/vector_style.js';

const BASE = 'http://127.0.0.1:8080/';
const userStyle = { version: 8, name: 'mine', sources: { t: { type: 'vector', url: '/tiles.json' } }, layers: [] };

/** A fetchJson over a table of URL → JSON (a missing URL rejects like an HTTP 404). */
function fakeFetch(table) {
  const asked = [];
  const fetchJson = async (url) => {
    asked.push(url);
    if (!(url in table)) throw new Error('HTTP 404');
    return structuredClone(table[url]);
  };
  return { fetchJson, asked };
}

test('the page\'s ?style= wins over the hub\'s --style', async () => {
  const { fetchJson } = fakeFetch({
    [BASE + 'map/config.json']: { style: '/map/style.json', tiles: '/tiles.json' },
    [BASE + 'map/style.json']: { ...userStyle, name: 'hub' },
    [BASE + 'styles/page.json']: { ...userStyle, name: 'page' },
  });
  const chosen = await chooseStyle({ search: '?style=styles/page.json', base: BASE, fetchJson });
  assert.equal(chosen.from, 'page');
  assert.equal(chosen.style.name, 'page');
  assert.deepEqual(chosen.problems, []);
});

test('the hub\'s --style is used when the page names none', async () => {
  const { fetchJson } = fakeFetch({
    [BASE + 'map/config.json']: { style: '/map/style.json', tiles: null },
    [BASE + 'map/style.json']: { ...userStyle, name: 'hub' },
  });
  const chosen = await chooseStyle({ search: '', base: BASE, fetchJson });
  assert.equal(chosen.from, 'hub');
  assert.equal(chosen.url, BASE + 'map/style.json');
});

test('hub tiles without a style give the built-in vector style over /tiles.json', async () => {
  const { fetchJson } = fakeFetch({ [BASE + CONFIG_PATH.slice(1)]: { style: null, tiles: '/tiles.json' } });
  const chosen = await chooseStyle({ search: '', base: BASE, fetchJson });
  assert.equal(chosen.from, 'tiles');
  assert.equal(chosen.style.sources.tiles.url, BASE + 'tiles.json');
});

test('a hub without /map/config.json gives the built-in Natural Earth style', async () => {
  const { fetchJson } = fakeFetch({});
  const chosen = await chooseStyle({ search: '', base: BASE, fetchJson });
  assert.equal(chosen.from, 'builtin');
  assert.ok(chosen.style.sources.countries);
});

test('the hub\'s terrain comes with any style as a raster-dem source; none without it', async () => {
  const terrain = { url: '/terrain.json', encoding: 'terrarium' };
  const hub = fakeFetch({
    [BASE + 'map/config.json']: { style: '/map/style.json', tiles: '/tiles.json', terrain },
    [BASE + 'map/style.json']: { ...userStyle, name: 'hub' },
  });
  const source = { type: 'raster-dem', url: BASE + 'terrain.json', encoding: 'terrarium', tileSize: 256 };
  assert.deepEqual((await chooseStyle({ search: '', base: BASE, fetchJson: hub.fetchJson })).terrain, source);
  const tiles = fakeFetch({ [BASE + 'map/config.json']: { style: null, tiles: '/tiles.json', terrain } });
  assert.deepEqual((await chooseStyle({ search: '', base: BASE, fetchJson: tiles.fetchJson })).terrain, source);
  const none = fakeFetch({ [BASE + 'map/config.json']: { style: null, tiles: '/tiles.json', terrain: null } });
  assert.equal((await chooseStyle({ search: '', base: BASE, fetchJson: none.fetchJson })).terrain, null);
  assert.equal(terrainSource({ url: '/terrain.json', encoding: 'lerc' }, BASE), null, 'an encoding MapLibre cannot read');
});

test('a ?style= that cannot be loaded is named as a problem and the next style is used', async () => {
  const { fetchJson } = fakeFetch({ [BASE + 'map/config.json']: { style: null, tiles: '/tiles.json' } });
  const chosen = await chooseStyle({ search: '?style=nope.json', base: BASE, fetchJson });
  assert.equal(chosen.from, 'tiles');
  assert.equal(chosen.problems.length, 1);
  assert.equal(chosen.problems[0].param, 'style');
  assert.match(chosen.problems[0].why, /HTTP 404/);
  assert.equal(chosen.problems[0].used, 'the built-in vector map');
});

test('a JSON document that is not a style is refused with the reason', () => {
  assert.throws(() => checkStyle({ version: 7, sources: {}, layers: [] }), /"version" must be 8/);
  assert.throws(() => checkStyle({ version: 8, layers: [] }), /no "sources"/);
  assert.throws(() => checkStyle([]), /not a JSON object/);
});

test('relative URLs in a style resolve against its address, keeping template braces', () => {
  const style = {
    version: 8,
    glyphs: '/fonts/{fontstack}/{range}.pbf',
    sprite: 'sprites/basic',
    sources: {
      a: { type: 'vector', url: '/tiles.json' },
      b: { type: 'vector', tiles: ['/tiles/{z}/{x}/{y}.pbf', 'https://cdn.example/{z}/{x}/{y}.pbf'] },
      c: { type: 'geojson', data: '../data/x.geojson' },
      d: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
    },
    layers: [],
  };
  const out = absolutizeStyle(style, 'http://h:1/styles/my/style.json');
  assert.equal(out.glyphs, 'http://h:1/fonts/{fontstack}/{range}.pbf');
  assert.equal(out.sprite, 'http://h:1/styles/my/sprites/basic');
  assert.equal(out.sources.a.url, 'http://h:1/tiles.json');
  assert.deepEqual(out.sources.b.tiles, ['http://h:1/tiles/{z}/{x}/{y}.pbf', 'https://cdn.example/{z}/{x}/{y}.pbf']);
  assert.equal(out.sources.c.data, 'http://h:1/styles/data/x.geojson');
  assert.deepEqual(out.sources.d.data, style.sources.d.data);
  assert.equal(style.sources.a.url, '/tiles.json', 'the input is unchanged');
});

test('the vector style reads OpenMapTiles layer names from one source', () => {
  const style = buildVectorStyle({ tileJsonUrl: BASE + 'tiles.json', glyphsUrl: BASE + 'fonts/{fontstack}/{range}.pbf' });
  const layers = new Set(style.layers.filter((l) => l['source-layer']).map((l) => l['source-layer']));
  for (const name of ['water', 'boundary', 'place', 'transportation', 'landuse', 'park', 'waterway', 'building']) {
    assert.ok(layers.has(name), `draws ${name}`);
  }
  assert.ok(style.layers.every((l) => l.type === 'background' || l.source === 'tiles'));
  assert.throws(() => buildVectorStyle({ tileJsonUrl: '/tiles.json', glyphsUrl: BASE }), /absolute URL/);
});
