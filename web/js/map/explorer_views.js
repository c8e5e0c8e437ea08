// What a presenter or driver is shown of the room's explorers (`viewports`):
// each explorer's visible region as an outline in its own colour, and its
// name as a label at the middle of the region's top edge; an arrow at the
// screen's edge for a region off screen. Pure: GeoJSON for the map's
// `camhub-views` overlay, colours, the arrow's place, and the camera that
// shows a region.

import { continuousRegion } from '../../../clients/js/src/geo/region.js';
import { mercatorForward, mercatorInverse, wrapLongitude } from '../../../clients/js/src/geo/projection.js';

const NOTHING = { type: 'FeatureCollection', features: [] };

/**
 * `clients` ([{client, name, region: 4 × [lon, lat]}], a `viewports` event's list) as one FeatureCollection:
 * per explorer a closed LineString through its corners (top-left, top-right, bottom-right, bottom-left; each
 * longitude next to the one before, so a region across the antimeridian is one piece) and a Point labelled
 * with its name, both with properties {client, name, color} (colourOf).
 */
export function viewsGeoJSON(clients) {
  if (!Array.isArray(clients) || clients.length === 0) return NOTHING;
  const features = [];
  for (const v of clients) {
    if (!Array.isArray(v.region) || v.region.length !== 4) continue;
    const ring = continuousRegion(v.region);
    ring.push(ring[0]);
    const properties = { client: v.client, name: v.name, color: colourOf(v.client) };
    features.push({ type: 'Feature', properties, geometry: { type: 'LineString', coordinates: ring } });
    const [a, b] = ring;
    features.push({ type: 'Feature', properties, geometry: { type: 'Point', coordinates: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] } });
  }
  return { type: 'FeatureCollection', features };
}

/**
 * A flat, north-up camera that shows `region` whole in `viewport` (px), with `margin` zoom levels to spare:
 * centred on the middle of its Mercator extent.
 * @param {number[][]} region four [lon, lat]
 * @param {{width: number, height: number}} viewport
 * @returns {{lat: number, lon: number, zoom: number, bearing: number, tilt: number}}
 */
export function cameraShowing(region, viewport, margin = 0.5) {
  const points = continuousRegion(region).map(([lon, lat]) => mercatorForward({ lat, lon }, 0));
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const fit = Math.min(viewport.width / Math.max(x1 - x0, 1e-9), viewport.height / Math.max(y1 - y0, 1e-9));
  const zoom = Math.max(0, Math.min(22, Math.log2(fit) - margin));
  const centre = mercatorInverse({ x: (x0 + x1) / 2, y: (y0 + y1) / 2 }, 0);
  return { lat: centre.lat, lon: wrapLongitude(centre.lon), zoom, bearing: 0, tilt: 0 };
}

/** Colours far apart from each other and from the map's own (the presenter's area is blue, routes orange). */
export const EXPLORER_COLOURS = ['#7048e8', '#e8590c', '#2f9e44', '#c2255c', '#1098ad', '#f08c00', '#5c940d', '#ae3ec9',
  '#d6336c', '#0b7285'];

/** An explorer's colour: the same for a client id on every presenter's page and every event. */
export function colourOf(client) {
  let h = 0;
  for (const ch of String(client)) h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return EXPLORER_COLOURS[h % EXPLORER_COLOURS.length];
}

/** The middle of a region (the mean of its corners, longitudes made continuous first): [lon, lat]. */
export function regionCentre(region) {
  const ring = continuousRegion(region);
  return [ring.reduce((a, c) => a + c[0], 0) / ring.length, ring.reduce((a, c) => a + c[1], 0) / ring.length];
}

/**
 * Where the arrow to a region off screen goes: `point` is the region's centre on screen (px; null when it is
 * behind the globe or the eye), `size` the map's {width, height}. Null when the point is on screen; else the
 * place on the edge, `inset` px inside, on the line from the screen's middle towards the point, and the
 * arrow's angle (degrees, 0 pointing right, clockwise).
 * @returns {{x: number, y: number, angle: number} | null}
 */
export function edgeArrow(point, size, inset = 24) {
  if (!point) return null;
  const { width: W, height: H } = size;
  if (point.x >= 0 && point.x <= W && point.y >= 0 && point.y <= H) return null;
  const cx = W / 2;
  const cy = H / 2;
  const dx = point.x - cx;
  const dy = point.y - cy;
  const scale = Math.min(Math.abs((cx - inset) / (dx || 1e-9)), Math.abs((cy - inset) / (dy || 1e-9)));
  return { x: cx + dx * scale, y: cy + dy * scale, angle: (Math.atan2(dy, dx) * 180) / Math.PI };
}
