// The viewer's MapLibre style, built in code from local data only (no network
// URLs): ocean background, land, coastlines, borders, a generated graticule,
// city dots and (when glyphs are available) city names, and a sky for tilted
// views (MapLibre 5 `sky`). Pure: no DOM; pass absolute URLs (MapLibre loads
// GeoJSON and glyphs from a worker, where relative URLs do not resolve), e.g.
//
//   const base = new URL('./', document.baseURI).href;          // .../web/
//   map.setStyle(buildStyle({ dataUrl: base + 'data/', glyphsUrl: base + 'fonts/{fontstack}/{range}.pbf' }));
//
// Glyphs: web/fonts/ holds SDF glyph PBFs made by scripts/make_glyphs.py for the
// font stack FONT_STACK (ranges 0-255, 256-511, 512-767: Latin, Latin
// Extended-A/B, enough for every Natural Earth city name). Without `glyphsUrl`
// the style has no text layer and the page can draw names itself (see
// cityLabelFeatures for a helper).

export const FONT_STACK = 'DejaVuSans'; // web/fonts/DejaVuSans/ (no spaces: it goes into URLs as is)
export const ATTRIBUTION = 'Made with Natural Earth';

export const COLORS = {
  ocean: '#a9cbe0',
  land: '#f2efe6',
  landOutline: '#d9d3c4',
  coast: '#6d8fa8',
  border: '#9a8f86',
  graticule: '#ffffff',
  city: '#3a3a3a',
  cityHalo: '#ffffff',
  label: '#2b2b2b',
  labelHalo: 'rgba(255,255,255,0.9)',
  sky: '#88b9e6',
  horizon: '#e6f0f7',
  fog: '#dbe7ef',
};

/**
 * Graticule lines as GeoJSON: meridians every `step` degrees from -180 to 180
 * (spanning ±maxLat) and parallels every `step` degrees within ±maxLat
 * (including the equator). Lines are densified every `densify` degrees so they
 * follow the tilted view smoothly. Properties: kind (meridian|parallel), value.
 */
export function graticule(step = 15, { maxLat = 85, densify = 2.5 } = {}) {
  const features = [];
  for (let lon = -180; lon <= 180; lon += step) {
    const coords = [];
    for (let lat = -maxLat; lat < maxLat; lat += densify) coords.push([lon, lat]);
    coords.push([lon, maxLat]);
    features.push({ type: 'Feature', properties: { kind: 'meridian', value: lon }, geometry: { type: 'LineString', coordinates: coords } });
  }
  const first = Math.ceil(-maxLat / step) * step;
  for (let lat = first; lat <= maxLat; lat += step) {
    const coords = [];
    for (let lon = -180; lon < 180; lon += densify) coords.push([lon, lat]);
    coords.push([180, lat]);
    features.push({ type: 'Feature', properties: { kind: 'parallel', value: lat }, geometry: { type: 'LineString', coordinates: coords } });
  }
  return { type: 'FeatureCollection', features };
}

function requireAbsolute(name, url) {
  if (typeof url !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    throw new Error(`buildStyle: ${name} must be an absolute URL (MapLibre fetches from a worker), got ${url}`);
  }
}

/**
 * Builds the style object.
 * @param {object} o
 * @param {string} o.dataUrl   absolute URL of web/data/ (ending in '/')
 * @param {string} [o.glyphsUrl] absolute glyph URL template with {fontstack} and {range}; omit for no text
 * @param {number} [o.graticuleStep] degrees between graticule lines (default 15)
 * @param {object} [o.colors] overrides for COLORS
 */
export function buildStyle({ dataUrl, glyphsUrl, graticuleStep = 15, colors = {} } = {}) {
  requireAbsolute('dataUrl', dataUrl);
  const base = dataUrl.endsWith('/') ? dataUrl : dataUrl + '/';
  const c = { ...COLORS, ...colors };
  const style = {
    version: 8,
    name: 'CameraHub basemap',
    sources: {
      countries: { type: 'geojson', data: base + 'countries.geojson', attribution: ATTRIBUTION },
      boundaries: { type: 'geojson', data: base + 'boundaries.geojson' },
      cities: { type: 'geojson', data: base + 'cities.geojson' },
      graticule: { type: 'geojson', data: graticule(graticuleStep) },
    },
    sky: {
      'sky-color': c.sky,
      'sky-horizon-blend': 0.6,
      'horizon-color': c.horizon,
      'horizon-fog-blend': 0.7,
      'fog-color': c.fog,
      'fog-ground-blend': 0.9,
      'atmosphere-blend': 0,
    },
    layers: [
      { id: 'ocean', type: 'background', paint: { 'background-color': c.ocean } },
      {
        id: 'graticule',
        type: 'line',
        source: 'graticule',
        paint: {
          'line-color': c.graticule,
          'line-opacity': ['case', ['==', ['get', 'value'], 0], 0.9, 0.55],
          'line-width': ['case', ['==', ['get', 'value'], 0], 1.2, 0.7],
        },
      },
      {
        id: 'land',
        type: 'fill',
        source: 'countries',
        paint: { 'fill-color': c.land, 'fill-outline-color': c.landOutline, 'fill-antialias': true },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'boundaries',
        filter: ['==', ['get', 'kind'], 'border'],
        layout: { 'line-join': 'round' },
        paint: {
          'line-color': c.border,
          'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.5, 6, 1.5],
          'line-dasharray': [3, 2],
        },
      },
      {
        id: 'coastlines',
        type: 'line',
        source: 'boundaries',
        filter: ['==', ['get', 'kind'], 'coast'],
        layout: { 'line-join': 'round', 'line-cap': 'round' },
        paint: { 'line-color': c.coast, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 6, 1.6] },
      },
      {
        id: 'cities',
        type: 'circle',
        source: 'cities',
        paint: {
          'circle-radius': ['interpolate', ['linear'], ['zoom'], 0, 1.8, 6, 4],
          'circle-color': c.city,
          'circle-stroke-color': c.cityHalo,
          'circle-stroke-width': 1,
          'circle-pitch-alignment': 'viewport',
        },
      },
    ],
  };
  if (glyphsUrl) {
    requireAbsolute('glyphsUrl', glyphsUrl);
    style.glyphs = glyphsUrl;
    style.layers.push({
      id: 'city-labels',
      type: 'symbol',
      source: 'cities',
      minzoom: 1,
      layout: {
        'text-field': ['get', 'name'],
        'text-font': [FONT_STACK],
        'text-size': ['interpolate', ['linear'], ['zoom'], 1, 10, 6, 14],
        'text-anchor': 'top',
        'text-offset': [0, 0.4],
        'text-max-width': 8,
        'text-padding': 2,
      },
      paint: { 'text-color': c.label, 'text-halo-color': c.labelHalo, 'text-halo-width': 1.2 },
    });
  }
  return style;
}

/**
 * Helper for pages that draw city names themselves (no glyphs): the cities
 * visible in a viewport with their screen positions, given a `project`
 * function (geo -> {x, y} | null) such as projection.js's bound to a camera.
 */
export function cityLabelFeatures(cities, project, viewport, { margin = 40 } = {}) {
  const out = [];
  for (const f of cities.features) {
    const [lon, lat] = f.geometry.coordinates;
    const p = project({ lat, lon });
    if (!p) continue;
    if (p.x < -margin || p.y < -margin || p.x > viewport.width + margin || p.y > viewport.height + margin) continue;
    out.push({ name: f.properties.name, x: p.x, y: p.y });
  }
  return out;
}
