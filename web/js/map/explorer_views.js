// What a presenter or driver is shown of the room's explorers (`viewports`):
// each explorer's visible region as an outline, and its name as a label at
// the middle of the region's top edge. Pure: GeoJSON for the map's
// `camhub-views` overlay, and the camera that shows a region.

import { continuousRegion } from '../../../clients/js/src/geo/region.js';
import { mercatorForward, mercatorInverse, wrapLongitude } from '../../../clients/js/src/geo/projection.js';

const NOTHING = { type: 'FeatureCollection', features: [] };

/**
 * `clients` ([{client, name, region: 4 × [lon, lat]}], a `viewports` event's list) as one FeatureCollection:
 * per explorer a closed LineString through its corners (top-left, top-right, bottom-right, bottom-left; each
 * longitude next to the one before, so a region across the antimeridian is one piece) and a Point labelled
 * with its name, both with properties {client, name}.
 */
export function viewsGeoJSON(clients) {
  if (!Array.isArray(clients) || clients.length === 0) return NOTHING;
  const features = [];
  for (const v of clients) {
    if (!Array.isArray(v.region) || v.region.length !== 4) continue;
    const ring = continuousRegion(v.region);
    ring.push(ring[0]);
    const properties = { client: v.client, name: v.name };
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
