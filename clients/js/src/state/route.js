// The room's route as the hub announces it (welcome.route, routeChanged events),
// kept as a GeoJSON line for the map. Pure: no DOM, no map; node-tested.

export class RouteState {
  constructor() {
    /** @type {{lat: number, lon: number}[]} */
    this.points = [];
  }

  /** A `welcome` (its `route`, if any, replaces the state). */
  welcome(m) {
    this.points = Array.isArray(m.route) ? m.route.map((p) => ({ lat: p.lat, lon: p.lon })) : [];
  }

  /** A `routeChanged` event: replaces the route, or extends it with `append`. */
  changed(m) {
    const added = m.points.map((p) => ({ lat: p.lat, lon: p.lon }));
    this.points = m.append ? this.points.concat(added) : added;
  }

  /**
   * The route as a GeoJSON FeatureCollection: one LineString (none when fewer
   * than two points). Longitudes are unwrapped so a route across the
   * antimeridian is drawn the short way.
   */
  geojson() {
    if (this.points.length < 2) return { type: 'FeatureCollection', features: [] };
    const coordinates = [];
    let offset = 0;
    let previous = this.points[0].lon;
    for (const p of this.points) {
      const step = p.lon - previous;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
      previous = p.lon;
      coordinates.push([p.lon + offset, p.lat]);
    }
    return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } }] };
  }
}
