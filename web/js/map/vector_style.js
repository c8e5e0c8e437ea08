// The viewer's vector-tile style: draws the hub's tiles (`/tiles.json`, from
// `camhub serve`, built by scripts/make_tiles.py or given with --tiles) by the
// OpenMapTiles schema's layer and attribute names, so the built-in basemap
// (water, boundary, place) and a user's OpenMapTiles archive (which adds
// landcover, landuse, park, waterway, transportation, building, and names)
// both draw with it. Layers a tileset lacks simply draw nothing.
//
// Pure: no DOM. URLs must be absolute (MapLibre fetches from a worker):
//
//   const base = new URL('./', document.baseURI).href;
//   buildVectorStyle({ tileJsonUrl: new URL('/tiles.json', base).href, glyphsUrl: base + 'fonts/{fontstack}/{range}.pbf' })

import { COLORS, FONT_STACK } from './style.js';

export const VECTOR_COLORS = {
  ...COLORS,
  land: '#f2efe6',
  water: '#a9cbe0',
  waterLine: '#7fa7c2',
  park: '#cfe3bf',
  wood: '#c2dbb0',
  residential: '#e9e3d6',
  road: '#ffffff',
  roadCasing: '#c9c0b0',
  majorRoad: '#f7d98c',
  majorCasing: '#d0a860',
  building: '#ddd5c8',
  boundary2: '#8a7f8f',
  boundary4: '#b3a9b5',
};

const NAME = ['coalesce', ['get', 'name:latin'], ['get', 'name']];

function requireAbsolute(name, url) {
  if (typeof url !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    throw new Error(`buildVectorStyle: ${name} must be an absolute URL (MapLibre fetches from a worker), got ${url}`);
  }
}

/**
 * The style object.
 * @param {object} o
 * @param {string} o.tileJsonUrl absolute URL of the hub's TileJSON (`/tiles.json`)
 * @param {string} o.glyphsUrl   absolute glyph URL template with {fontstack} and {range}
 * @param {object} [o.colors]    overrides for VECTOR_COLORS
 */
export function buildVectorStyle({ tileJsonUrl, glyphsUrl, colors = {} } = {}) {
  requireAbsolute('tileJsonUrl', tileJsonUrl);
  requireAbsolute('glyphsUrl', glyphsUrl);
  const c = { ...VECTOR_COLORS, ...colors };
  const src = 'tiles';
  const line = (id, layer, filter, paint, extra = {}) => ({
    id, type: 'line', source: src, 'source-layer': layer, ...(filter ? { filter } : {}),
    layout: { 'line-join': 'round', 'line-cap': 'round' }, paint, ...extra,
  });
  const roadWidth = (base) => ['interpolate', ['exponential', 1.5], ['zoom'], 5, base * 0.3, 10, base, 16, base * 8];
  const major = ['match', ['get', 'class'], ['motorway', 'trunk', 'primary'], true, false];
  return {
    version: 8,
    name: 'CameraHub vector basemap',
    glyphs: glyphsUrl,
    sources: { [src]: { type: 'vector', url: tileJsonUrl } },
    sky: {
      'sky-color': c.sky, 'sky-horizon-blend': 0.6, 'horizon-color': c.horizon,
      'horizon-fog-blend': 0.7, 'fog-color': c.fog, 'fog-ground-blend': 0.9, 'atmosphere-blend': 0,
    },
    layers: [
      { id: 'land', type: 'background', paint: { 'background-color': c.land } },
      { id: 'landcover-wood', type: 'fill', source: src, 'source-layer': 'landcover',
        filter: ['match', ['get', 'class'], ['wood', 'forest'], true, false], paint: { 'fill-color': c.wood, 'fill-opacity': 0.7 } },
      { id: 'landuse-residential', type: 'fill', source: src, 'source-layer': 'landuse',
        filter: ['match', ['get', 'class'], ['residential', 'suburb', 'neighbourhood'], true, false],
        paint: { 'fill-color': c.residential, 'fill-opacity': 0.8 } },
      { id: 'park', type: 'fill', source: src, 'source-layer': 'park', paint: { 'fill-color': c.park, 'fill-opacity': 0.8 } },
      { id: 'water', type: 'fill', source: src, 'source-layer': 'water', paint: { 'fill-color': c.water, 'fill-antialias': true } },
      line('coastline', 'water', ['==', ['get', 'class'], 'ocean'],
        { 'line-color': c.waterLine, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.4, 8, 1.2, 14, 2] }),
      line('waterway', 'waterway', null,
        { 'line-color': c.water, 'line-width': ['interpolate', ['linear'], ['zoom'], 8, 0.6, 14, 3] }),
      { id: 'building', type: 'fill', source: src, 'source-layer': 'building', minzoom: 13,
        paint: { 'fill-color': c.building, 'fill-outline-color': c.roadCasing } },
      line('road-casing', 'transportation', major,
        { 'line-color': c.majorCasing, 'line-width': roadWidth(1.6) }),
      line('road-minor', 'transportation', ['!', major],
        { 'line-color': c.road, 'line-width': roadWidth(0.8) }, { minzoom: 10 }),
      line('road-major', 'transportation', major,
        { 'line-color': c.majorRoad, 'line-width': roadWidth(1.1) }),
      line('boundary-state', 'boundary', ['all', ['==', ['get', 'admin_level'], 4], ['!=', ['get', 'maritime'], 1]],
        { 'line-color': c.boundary4, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.4, 10, 1.2], 'line-dasharray': [2, 2] }),
      line('boundary-country', 'boundary', ['all', ['==', ['get', 'admin_level'], 2], ['!=', ['get', 'maritime'], 1]],
        { 'line-color': c.boundary2, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 6, 1.6, 12, 3] }),
      { id: 'place-dot', type: 'circle', source: src, 'source-layer': 'place', maxzoom: 10,
        filter: ['match', ['get', 'class'], ['city', 'town'], true, false],
        paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 2, 1.6, 8, 3.5], 'circle-color': c.city,
          'circle-stroke-color': c.cityHalo, 'circle-stroke-width': 1, 'circle-pitch-alignment': 'viewport' } },
      { id: 'place-label', type: 'symbol', source: src, 'source-layer': 'place',
        filter: ['match', ['get', 'class'], ['city', 'town', 'village', 'suburb', 'neighbourhood', 'hamlet'], true, false],
        layout: {
          'text-field': NAME,
          'text-font': [FONT_STACK],
          'text-size': ['interpolate', ['linear'], ['zoom'], 2, ['match', ['get', 'class'], 'city', 11, 9],
            12, ['match', ['get', 'class'], 'city', 20, 'town', 16, 13]],
          'text-anchor': 'top',
          'text-offset': [0, 0.4],
          'text-max-width': 8,
          'text-padding': 2,
          'symbol-sort-key': ['coalesce', ['get', 'rank'], 100],
        },
        paint: { 'text-color': c.label, 'text-halo-color': c.labelHalo, 'text-halo-width': 1.4 } },
    ],
  };
}
