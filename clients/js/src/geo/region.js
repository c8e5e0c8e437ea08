// The visible region an exploring client shares (`looking`): the ground under
// its viewport's four corners as [lon, lat] pairs, longitudes wrapped to
// [-180, 180). Pure. On the flat map (and on the globe from zoom 12, which
// MapLibre draws flat) it is visibleQuad's quad (corners in the sky moved
// below the horizon); on the globe below zoom 12 the globe's own corners,
// or the flat quad when a corner shows space.

import { visibleQuad, wrapLongitude } from './projection.js';
import { globeUnproject, isGlobe } from './globe.js';

/**
 * @param {object} camera the camera shown (wire form)
 * @param {{width: number, height: number}} viewport px
 * @param {string} [projection] the room's: 'mercator' (default) or 'globe'
 * @returns {number[][]} four [lon, lat]: top-left, top-right, bottom-right, bottom-left
 */
export function visibleRegion(camera, viewport, projection = 'mercator') {
  const { width: W, height: H } = viewport;
  if (projection === 'globe' && isGlobe(camera.zoom)) {
    const corners = [{ x: 0, y: 0 }, { x: W, y: 0 }, { x: W, y: H }, { x: 0, y: H }].map((p) => globeUnproject(camera, viewport, p));
    if (corners.every(Boolean)) return corners.map((g) => [wrapLongitude(g.lon), g.lat]);
  }
  return visibleQuad(camera, viewport).map((g) => [wrapLongitude(g.lon), g.lat]);
}

/**
 * A region's corners with each longitude moved by whole turns next to the one
 * before it, so an outline across the antimeridian is drawn as one piece.
 * @param {number[][]} region [lon, lat] pairs
 * @returns {number[][]}
 */
export function continuousRegion(region) {
  const out = [];
  for (const [lon, lat] of region) {
    const prev = out.length ? out[out.length - 1][0] : lon;
    out.push([lon + 360 * Math.round((prev - lon) / 360), lat]);
  }
  return out;
}
