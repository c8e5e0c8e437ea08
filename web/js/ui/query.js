// Click-to-query in the panel: the hub's geometry for this page's viewport
// (`query` → `result`): the lat/lon of a clicked point, the visible bounds
// and their quad (drawn on the map), and the camera that fits them. Pure: the
// page sends what `ask` returns and hands `result` messages to `answer`.

export class Queries {
  constructor(prefix = 'q') {
    this.prefix = prefix;
    this.count = 0;
    this.pending = new Map(); // id → what
    this.lastBounds = null; // {bounds, quad} of the last `bounds` result
    this.lastPoint = null; // {x, y, lat, lon} of the last picked point (lat/lon null above the horizon)
  }

  /**
   * The `query` message for `what` (`unproject`, `bounds`, `fit`) and its
   * parameters; `purpose` (the page's own: what the answer is for) comes back
   * with the answer and is not sent.
   */
  ask(what, params = {}, purpose = null) {
    const id = `${this.prefix}${++this.count}`;
    this.pending.set(id, { what, params, purpose });
    return { type: 'query', id, what, ...params };
  }

  /** The `fit` query for the last bounds (null before any). */
  askFit(padding = 20) {
    return this.lastBounds ? this.ask('fit', { bounds: this.lastBounds.bounds, padding }) : null;
  }

  /** A `result`: what it answers (`{what, ...}`), or null when it is not one of ours. */
  answer(m) {
    const asked = this.pending.get(m.id);
    if (!asked) return null;
    this.pending.delete(m.id);
    switch (m.what) {
      case 'unproject': {
        const [x, y] = [asked.params.points?.[0]?.x, asked.params.points?.[0]?.y];
        const p = m.points?.[0] ?? null;
        const point = { x, y, lat: p?.lat ?? null, lon: p?.lon ?? null };
        if (!asked.purpose) this.lastPoint = point;
        return { what: 'unproject', point, purpose: asked.purpose };
      }
      case 'bounds':
        this.lastBounds = { bounds: m.bounds, quad: m.quad };
        return { what: 'bounds', ...this.lastBounds };
      case 'fit':
        return { what: 'fit', camera: m.camera };
      default:
        return { what: m.what };
    }
  }
}

/** `48.85000° N, 2.35000° E`; "above the horizon" for a point with no ground under it. */
export function formatPoint(p) {
  if (!p || p.lat === null || p.lon === null) return 'above the horizon';
  const ns = p.lat >= 0 ? 'N' : 'S';
  const ew = p.lon >= 0 ? 'E' : 'W';
  return `${Math.abs(p.lat).toFixed(5)}° ${ns}, ${Math.abs(p.lon).toFixed(5)}° ${ew}`;
}

/** `S 48.82 W 2.29 N 48.89 E 2.41` for a bounds object. */
export function formatBounds(b) {
  if (!b) return '';
  return `S ${b.south.toFixed(4)} · W ${b.west.toFixed(4)} · N ${b.north.toFixed(4)} · E ${b.east.toFixed(4)}`;
}

/** The visible quad as a closed GeoJSON line (an empty collection without one). */
export function quadGeoJSON(quad) {
  if (!Array.isArray(quad) || quad.length < 3) return { type: 'FeatureCollection', features: [] };
  const ring = quad.map((c) => [c.lon, c.lat]);
  ring.push(ring[0]);
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: ring } }] };
}
