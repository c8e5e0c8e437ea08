// Which map style the viewer starts with, and how a style document from a URL
// is made loadable. Order, first that applies:
//   1. the page's `?style=URL` (absolute, or relative to the page),
//   2. the hub's default (`camhub serve --style URL|FILE`, from /map/config.json),
//   3. the built-in vector style over the hub's tiles (/tiles.json) when it has any,
//   4. the built-in Natural Earth 1:110m GeoJSON style (web/data/), always there.
// A style that cannot be loaded is reported as a problem ({param, given, why,
// used}, as params.js reports them) and the next one in the order is used.
// Whatever the style, the hub's terrain (`camhub serve --terrain`, /map/config.json's
// `terrain`: {url, encoding} or null) comes with it as `terrain` (map_view.js adds it).
//
// Pure apart from the `fetchJson` passed in (tests pass a fake).

import { buildStyle } from './style.js';
import { buildVectorStyle } from './vector_style.js';

export const CONFIG_PATH = '/map/config.json';

/**
 * Resolves every relative URL of a style object against `baseUrl` (the
 * style's own address): sources' `url`, `tiles` and `data` (when a string),
 * `glyphs` and `sprite`. Template braces ({z}, {fontstack}) are kept as is.
 * Returns a new object; the input is not changed.
 */
export function absolutizeStyle(style, baseUrl) {
  const abs = (u) => {
    if (typeof u !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(u)) return u;
    const placeholders = [];
    const masked = u.replace(/\{[^}]*\}/g, (m) => `__camhub${placeholders.push(m) - 1}__`);
    return new URL(masked, baseUrl).href.replace(/__camhub(\d+)__/g, (_, i) => placeholders[Number(i)]);
  };
  const out = { ...style, sources: {} };
  for (const [id, source] of Object.entries(style.sources ?? {})) {
    const s = { ...source };
    if (s.url) s.url = abs(s.url);
    if (Array.isArray(s.tiles)) s.tiles = s.tiles.map(abs);
    if (typeof s.data === 'string') s.data = abs(s.data);
    out.sources[id] = s;
  }
  if (style.glyphs) out.glyphs = abs(style.glyphs);
  if (typeof style.sprite === 'string') out.sprite = abs(style.sprite);
  else if (Array.isArray(style.sprite)) out.sprite = style.sprite.map((sp) => ({ ...sp, url: abs(sp.url) }));
  return out;
}

/** Checks the parts of a style MapLibre needs to start; throws an Error saying what is missing. */
export function checkStyle(style) {
  if (!style || typeof style !== 'object' || Array.isArray(style)) throw new Error('it is not a JSON object');
  if (style.version !== 8) throw new Error('"version" must be 8');
  if (!style.sources || typeof style.sources !== 'object') throw new Error('it has no "sources" object');
  if (!Array.isArray(style.layers)) throw new Error('it has no "layers" array');
}

/** The built-in styles: the vector one when the hub serves tiles, else Natural Earth GeoJSON. */
export function builtInStyle({ base, tiles }) {
  const glyphsUrl = base + 'fonts/{fontstack}/{range}.pbf';
  if (tiles) return { style: buildVectorStyle({ tileJsonUrl: new URL(tiles, base).href, glyphsUrl }), from: 'tiles' };
  return { style: buildStyle({ dataUrl: base + 'data/', glyphsUrl }), from: 'builtin' };
}

/**
 * The style object to start the map with, where it came from
 * ('page' | 'hub' | 'tiles' | 'builtin'), its URL when it had one, and the
 * problems met on the way.
 * @param {object} o
 * @param {string} o.search    location.search
 * @param {string} o.base      absolute URL of the page's folder (ending in '/')
 * @param {(url: string) => Promise<any>} o.fetchJson  rejects on HTTP or JSON errors
 */
export async function chooseStyle({ search, base, fetchJson }) {
  const problems = [];
  let config = { style: null, tiles: null, terrain: null };
  try {
    config = { ...config, ...(await fetchJson(new URL(CONFIG_PATH, base).href)) };
  } catch {
    // an older hub or a static server: no hub style, no tiles
  }
  const fallback = builtInStyle({ base, tiles: config.tiles });
  const candidates = [];
  const asked = new URLSearchParams(search).get('style');
  if (asked) candidates.push({ url: asked, from: 'page' });
  if (config.style) candidates.push({ url: config.style, from: 'hub' });
  for (const c of candidates) {
    let url;
    try {
      url = new URL(c.url, base).href;
      const style = await fetchJson(url);
      checkStyle(style);
      return { style: absolutizeStyle(style, url), from: c.from, url, problems, terrain: terrainSource(config.terrain, base) };
    } catch (e) {
      const who = c.from === 'page' ? 'style' : 'the hub\'s --style';
      problems.push({ param: 'style', given: c.url, form: c.from === 'hub', why: `${who} could not be loaded (${e.message})`, used: 'the next style in line' });
    }
  }
  if (problems.length) problems[problems.length - 1].used = fallback.from === 'tiles' ? 'the built-in vector map' : 'the built-in world map';
  return { ...fallback, url: null, problems, terrain: terrainSource(config.terrain, base) };
}

/**
 * The MapLibre raster-dem source of the hub's terrain ({url, encoding} from /map/config.json), its TileJSON URL made
 * absolute (MapLibre fetches from a worker), or null when the hub serves none or says something else.
 */
export function terrainSource(terrain, base) {
  if (!terrain || typeof terrain.url !== 'string' || !['terrarium', 'mapbox'].includes(terrain.encoding)) return null;
  return { type: 'raster-dem', url: new URL(terrain.url, base).href, encoding: terrain.encoding, tileSize: 256 };
}

/** fetch() that rejects on a non-2xx status (naming it) and on bad JSON, within `timeoutMs`. */
export async function fetchJson(url, { timeoutMs = 5000 } = {}) {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const r = await fetch(url, { signal: ctrl.signal, cache: 'no-cache' });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return await r.json();
  } catch (e) {
    throw new Error(e.name === 'AbortError' ? `no answer within ${timeoutMs / 1000} s` : e.message);
  } finally {
    clearTimeout(timer);
  }
}
