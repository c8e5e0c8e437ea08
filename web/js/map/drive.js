// Tracking from the panel: a route drawn by clicking or loaded from a GeoJSON
// file, sent as `route` messages, and a simulated drive along it that feeds
// `track` locations at a steady pace. Pure: no DOM, no timers; the page calls
// `SimulatedDrive.at(seconds)` on its own clock and sends what it returns.

import { normalizeBearing } from '../../../clients/js/src/geo/projection.js';

/** Points per `route` message: a message is at most 8 KiB (about 200 points). */
export const ROUTE_CHUNK = 150;

const EARTH_RADIUS = 6_371_008.8; // metres (the mean radius, as the hub's route matching)
const rad = (d) => (d * Math.PI) / 180;

/** Great-circle distance in metres. */
export function metres(a, b) {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Compass bearing (degrees clockwise from north) from `a` to `b`. */
export function bearing(a, b) {
  const y = Math.sin(rad(b.lon - a.lon)) * Math.cos(rad(b.lat));
  const x = Math.cos(rad(a.lat)) * Math.sin(rad(b.lat)) - Math.sin(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.cos(rad(b.lon - a.lon));
  return normalizeBearing((Math.atan2(y, x) * 180) / Math.PI);
}

/** The `route` messages for `points`: a first that replaces the route, then pieces appended. */
export function routeMessages(points) {
  if (points.length < 2) throw new Error(`a route needs at least 2 points (got ${points.length})`);
  const out = [];
  for (let i = 0; i < points.length; i += ROUTE_CHUNK) {
    const piece = points.slice(i, i + ROUTE_CHUNK).map((p) => ({ lat: p.lat, lon: p.lon }));
    out.push(i === 0 ? { type: 'route', points: piece } : { type: 'route', points: piece, append: true });
  }
  return out;
}

/**
 * The points of a GeoJSON route file: a LineString, a Feature with one, or a
 * FeatureCollection whose first LineString is taken. Throws an error naming
 * what is wrong.
 */
export function parseRouteFile(text) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`the file is not JSON (${e.message})`);
  }
  const lines = [];
  const visit = (g) => {
    if (!g || typeof g !== 'object') return;
    if (g.type === 'LineString') lines.push(g.coordinates);
    else if (g.type === 'Feature') visit(g.geometry);
    else if (g.type === 'FeatureCollection' && Array.isArray(g.features)) g.features.forEach(visit);
  };
  visit(doc);
  if (!lines.length) throw new Error('the file has no LineString (GeoJSON: a LineString, a Feature or a FeatureCollection with one)');
  const points = lines[0].map((c, i) => {
    if (!Array.isArray(c) || !Number.isFinite(c[0]) || !Number.isFinite(c[1]) || Math.abs(c[1]) > 90) {
      throw new Error(`coordinate ${i} is not [lon, lat] with |lat| ≤ 90: ${JSON.stringify(c)}`);
    }
    return { lat: c[1], lon: c[0] };
  });
  if (points.length < 2) throw new Error(`the LineString has ${points.length} point(s); a route needs at least 2`);
  return points;
}

/** A drive along `points` at `speed` m/s: where it is `seconds` after it started. */
export class SimulatedDrive {
  constructor(points, speed = 15) {
    if (points.length < 2) throw new Error('a drive needs a route of at least 2 points');
    this.points = points;
    this.speed = speed;
    this.along = [0];
    for (let i = 1; i < points.length; i++) this.along.push(this.along[i - 1] + metres(points[i - 1], points[i]));
    this.length = this.along[this.along.length - 1];
  }

  /** `{lat, lon, heading, done}` `seconds` into the drive (it stops at the route's end). */
  at(seconds) {
    const d = Math.min(this.length, Math.max(0, seconds * this.speed));
    let i = 1;
    while (i < this.along.length - 1 && this.along[i] < d) i++;
    const a = this.points[i - 1];
    const b = this.points[i];
    const leg = this.along[i] - this.along[i - 1];
    const f = leg > 0 ? (d - this.along[i - 1]) / leg : 1;
    return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f, heading: bearing(a, b), done: d >= this.length };
  }
}
