// What a presenter or driver is shown of the room's explorers (`views`): each
// explorer's visible area as an outline, and its name as a label at the middle
// of the area's top edge. Pure: GeoJSON for the map's `camhub-views` overlay.

const NOTHING = { type: 'FeatureCollection', features: [] };

/**
 * `views` ([{client, name, corners: 4 × {lat, lon}}], a `views` event's list) as one FeatureCollection: per view
 * a closed LineString through its corners (top-left, top-right, bottom-right, bottom-left) and a Point labelled
 * with its name, both with properties {client, name}.
 */
export function viewsGeoJSON(views) {
  if (!Array.isArray(views) || views.length === 0) return NOTHING;
  const features = [];
  for (const v of views) {
    if (!Array.isArray(v.corners) || v.corners.length !== 4) continue;
    const ring = v.corners.map((c) => [c.lon, c.lat]);
    ring.push(ring[0]);
    const properties = { client: v.client, name: v.name };
    features.push({ type: 'Feature', properties, geometry: { type: 'LineString', coordinates: ring } });
    const [a, b] = v.corners;
    const top = [(a.lon + b.lon) / 2, (a.lat + b.lat) / 2];
    features.push({ type: 'Feature', properties, geometry: { type: 'Point', coordinates: top } });
  }
  return { type: 'FeatureCollection', features };
}
