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
 * A region's corners with their longitudes moved by whole turns so that the outline is drawn as one piece
 * across the antimeridian: of the ways to place corners 1-3 within a turn of corner 0, the clockwise ring
 * (the quad's corners go top-left, top-right, bottom-right, bottom-left, clockwise on the map whatever the
 * bearing) with the shortest edges. A region wider than half the world (a low zoom) is placed right too,
 * which taking each corner nearest the one before would not do.
 * @param {number[][]} region [lon, lat] pairs (four)
 * @returns {number[][]}
 */
export function continuousRegion(region) {
  const [first, ...rest] = region;
  const base = rest.map(([lon, lat]) => [lon + 360 * Math.round((first[0] - lon) / 360), lat]);
  let best = null;
  let bestLength = Infinity;
  for (const turns of turnChoices(rest.length)) {
    const ring = [first, ...base.map(([lon, lat], i) => [lon + 360 * turns[i], lat])];
    if (signedArea(ring) >= 0) continue;
    const length = perimeter(ring);
    if (length < bestLength) [best, bestLength] = [ring, length];
  }
  return best ?? [first, ...base];
}

/** Every way to add -1, 0 or +1 turn to each of `n` corners (n = 3: 27 ways). */
function turnChoices(n) {
  let out = [[]];
  for (let i = 0; i < n; i++) out = out.flatMap((t) => [[...t, 0], [...t, -1], [...t, 1]]);
  return out;
}

/** Twice the ring's signed area in (lon, lat): negative when it goes clockwise. */
function signedArea(ring) {
  let sum = 0;
  ring.forEach(([x0, y0], i) => {
    const [x1, y1] = ring[(i + 1) % ring.length];
    sum += x0 * y1 - x1 * y0;
  });
  return sum;
}

function perimeter(ring) {
  let sum = 0;
  ring.forEach(([x0, y0], i) => {
    const [x1, y1] = ring[(i + 1) % ring.length];
    sum += Math.hypot(x1 - x0, y1 - y0);
  });
  return sum;
}
