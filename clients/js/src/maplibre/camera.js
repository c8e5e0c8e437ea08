// A hub camera (wire form) as MapLibre's `jumpTo` options, a MapLibre map's
// camera in wire form, and the room's projection on a map. Pure (a map is
// only called, never made).

import { centerPoint, normalizeBearing, normalizeRoll, wrapLongitude, DEFAULT_FOV_DEGREES } from '../geo/projection.js';

/**
 * MapLibre `jumpTo` options for a hub camera in this viewport: {center, zoom,
 * bearing, pitch, padding}, and `roll` (degrees) and `elevation` (the centre's
 * altitude, m: MapLibre GL JS 5) when the camera has them. The hub draws the
 * target at its anchor without moving the perspective (HERE's target anchor
 * point), so for an anchored camera MapLibre's `center` is the point under the
 * view centre (at the camera's elevation), found with the hub's projection (the
 * same as MapLibre's setLocationAtPoint); without a viewport it falls back to
 * the target. The camera's padding is MapLibre's padding (it moves the centre
 * of perspective the same way). The field of view is not a `jumpTo` option:
 * set it with `map.setVerticalFieldOfView(camera.fov)` (attachMapLibre does).
 * (Create the map with maxPitch: 85: MapLibre's default 60 clamps higher tilts.)
 * @param {{lat: number, lon: number, zoom: number, bearing: number, tilt: number, roll?: number,
 *   elevation?: number, fov?: number, anchor?: {x: number, y: number},
 *   padding?: {top?: number, left?: number, bottom?: number, right?: number}}} camera
 * @param {{width: number, height: number}} [viewport]
 */
export function toMapLibreCamera(camera, viewport) {
  const p = camera.padding || {};
  const padding = { top: p.top || 0, bottom: p.bottom || 0, left: p.left || 0, right: p.right || 0 };
  let center = [camera.lon, camera.lat];
  const anchored = camera.anchor && (camera.anchor.x !== 0.5 || camera.anchor.y !== 0.5);
  if (anchored && viewport) {
    const c = centerPoint(camera, viewport);
    if (Number.isFinite(c.lat) && Number.isFinite(c.lon)) center = [wrapLongitude(c.lon), c.lat];
  }
  /** @type {{center: number[], zoom: number, bearing: number, pitch: number,
   *   padding: {top: number, bottom: number, left: number, right: number}, roll?: number, elevation?: number}} */
  const options = { center, zoom: camera.zoom, bearing: camera.bearing, pitch: camera.tilt, padding };
  if (camera.roll !== undefined) options.roll = camera.roll;
  if (camera.elevation !== undefined) options.elevation = camera.elevation;
  return options;
}

/**
 * A MapLibre map's camera in wire form: {lat, lon, zoom, bearing, tilt} and
 * `roll`, `elevation` (getCenterElevation) and `fov` (getVerticalFieldOfView)
 * only when not at their defaults (0, 0, 36.86989764584402 degrees; a MapLibre
 * before 5 has none of them), `padding` when the map has some. `lon` is wrapped
 * into [-180, 180), `bearing` into [0, 360). The map's centre is its point under
 * the view centre: the camera has no anchor.
 * @param {any} map a MapLibre map
 */
export function fromMapLibreCamera(map) {
  const c = map.getCenter();
  /** @type {{lat: number, lon: number, zoom: number, bearing: number, tilt: number, roll?: number, elevation?: number,
   *   fov?: number, padding?: {top: number, left: number, bottom: number, right: number}}} */
  const camera = { lat: c.lat, lon: wrapLongitude(c.lng), zoom: map.getZoom(), bearing: normalizeBearing(map.getBearing()),
    tilt: map.getPitch() };
  const roll = typeof map.getRoll === 'function' ? normalizeRoll(map.getRoll()) : 0;
  if (roll !== 0) camera.roll = roll;
  const elevation = typeof map.getCenterElevation === 'function' ? map.getCenterElevation() : 0;
  if (elevation !== 0) camera.elevation = elevation;
  const fov = typeof map.getVerticalFieldOfView === 'function' ? map.getVerticalFieldOfView() : DEFAULT_FOV_DEGREES;
  if (Math.abs(fov - DEFAULT_FOV_DEGREES) > 1e-9) camera.fov = fov; // (degrees → radians → degrees may round)
  const p = typeof map.getPadding === 'function' ? map.getPadding() : null;
  if (p && (p.top || p.left || p.bottom || p.right)) {
    camera.padding = { top: p.top || 0, left: p.left || 0, bottom: p.bottom || 0, right: p.right || 0 };
  }
  return camera;
}

/** MapLibre's input handlers. A map that follows or drives a room has them all off: it moves only as the room does. */
export const MAPLIBRE_HANDLERS = ['dragPan', 'scrollZoom', 'boxZoom', 'dragRotate', 'keyboard', 'doubleClickZoom', 'touchZoomRotate',
  'touchPitch'];

/**
 * The projection a MapLibre map draws in: its style's `projection.type` ('mercator', 'globe', …), 'mercator'
 * for a map whose style has none (MapLibre's default) or a MapLibre before 5 (no `getProjection`).
 * @param {any} map a MapLibre map
 * @returns {string}
 */
export function mapProjection(map) {
  return map.getProjection?.()?.type ?? 'mercator';
}

/**
 * Puts a room's projection on a MapLibre GL JS 5 map: `map.setProjection({type: projection})`, only when the
 * map draws in another one (so a Mercator room makes no call on a map that never had a projection). Returns
 * true when the map draws in `projection` now; false when it cannot yet, because its style is still loading
 * (MapLibre throws "Style is not done loading": call again on the map's `style.load`, which also comes after
 * each `setStyle`, whose style brings its own projection), or because the map has no projections (MapLibre
 * before 5: Mercator only).
 * @param {any} map a MapLibre map
 * @param {'mercator'|'globe'} projection the room's (`room.projection`)
 * @returns {boolean}
 */
export function applyProjection(map, projection) {
  if (mapProjection(map) === projection) return true;
  if (typeof map.setProjection !== 'function') return false;
  try {
    map.setProjection({ type: projection });
  } catch (e) {
    if (/not done loading/i.test(e?.message ?? '')) return false;
    throw e;
  }
  return true;
}
