// The room's camera limits as the page shows them, and the two limit
// messages a presenter sends from the page: "keep to this view" and "clear
// limits". Pure functions (tested under node); app.js wires them to buttons.

import { MAX_LATITUDE, wrapLongitude } from '../../../clients/js/src/geo/projection.js';

/** The hub's defaults: what "clear limits" comes back to. */
export const DEFAULT_LIMITS = Object.freeze({ minZoom: 0, maxZoom: 22, minTilt: 0, maxTilt: 60 });

// In-range longitudes go through untouched, so the bounds are MapLibre's doubles exactly.
const wrap = (lon) => (lon >= -180 && lon < 180 ? lon : wrapLongitude(lon));
const floor2 = (x) => Math.floor(x * 100 + 1e-9) / 100;

/**
 * The `limits` message that keeps every camera in the room inside the area the
 * presenter sees now (`bounds` from MapLibre's `getBounds()`, longitudes may run
 * past ±180) and no further out than `zoom` (rounded down to 0.01, so the
 * current camera stays allowed). A view as wide as the world limits the zoom
 * only. Throws on numbers that are not finite.
 * @param {{south:number, west:number, north:number, east:number}} bounds
 * @param {number} zoom
 */
export function keepToView(bounds, zoom) {
  const { south, west, north, east } = bounds ?? {};
  for (const [name, v] of Object.entries({ south, west, north, east, zoom })) {
    if (!Number.isFinite(v)) throw new TypeError(`keepToView: ${name} must be a finite number (got ${v})`);
  }
  const message = { minZoom: Math.max(0, floor2(zoom)) };
  if (east - west >= 360) return { ...message, bounds: null };
  const s = Math.max(-MAX_LATITUDE, Math.min(south, north));
  const n = Math.min(MAX_LATITUDE, Math.max(south, north));
  if (!(n > s)) return { ...message, bounds: null };
  // Wrapped, west may end up east of east: the box then crosses the antimeridian.
  message.bounds = { south: s, west: wrap(west), north: n, east: wrap(east) };
  return message;
}

/** The `limits` message that removes every limit (null resets each to its default). */
export function clearLimits() {
  return { minZoom: null, maxZoom: null, minTilt: null, maxTilt: null, maxTiltByZoom: null, bounds: null };
}

const num = (x) => (Number.isInteger(x) ? String(x) : String(Number(x.toFixed(2))));
const lat = (x) => `${Math.abs(x).toFixed(1)}°${x >= 0 ? 'N' : 'S'}`;
const lon = (x) => `${Math.abs(x).toFixed(1)}°${x >= 0 ? 'E' : 'W'}`;

/**
 * One line for the HUD: "none" when the room has only the defaults, else what
 * differs, e.g. "zoom ≥ 6 · tilt ≤ 45° · area 48.1°N–49.6°N, 1.2°E–3.5°E".
 * A dash when the limits are not known yet.
 */
export function describeLimits(limits) {
  if (!limits) return '—';
  const parts = [];
  const minZoom = limits.minZoom ?? DEFAULT_LIMITS.minZoom;
  const maxZoom = limits.maxZoom ?? DEFAULT_LIMITS.maxZoom;
  if (minZoom !== DEFAULT_LIMITS.minZoom || maxZoom !== DEFAULT_LIMITS.maxZoom) {
    if (maxZoom === DEFAULT_LIMITS.maxZoom) parts.push(`zoom ≥ ${num(minZoom)}`);
    else if (minZoom === DEFAULT_LIMITS.minZoom) parts.push(`zoom ≤ ${num(maxZoom)}`);
    else parts.push(`zoom ${num(minZoom)}–${num(maxZoom)}`);
  }
  const minTilt = limits.minTilt ?? DEFAULT_LIMITS.minTilt;
  const maxTilt = limits.maxTilt ?? DEFAULT_LIMITS.maxTilt;
  if (minTilt !== DEFAULT_LIMITS.minTilt) parts.push(`tilt ${num(minTilt)}–${num(maxTilt)}°`);
  else if (maxTilt !== DEFAULT_LIMITS.maxTilt) parts.push(`tilt ≤ ${num(maxTilt)}°`);
  if (Array.isArray(limits.maxTiltByZoom) && limits.maxTiltByZoom.length > 0) parts.push('tilt by zoom');
  const b = limits.bounds;
  if (b) parts.push(`area ${lat(b.south)}–${lat(b.north)}, ${lon(b.west)}–${lon(b.east)}`);
  return parts.length ? parts.join(' · ') : 'none';
}
