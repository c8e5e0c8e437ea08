// Geo <-> view on the globe, as MapLibre GL JS 5 draws it below zoom 12 (its
// vertical perspective transform; from zoom 12 on MapLibre's globe is drawn
// flat, so use projection.js there). The world is a sphere of radius
// worldSize / (2 pi) / cos(latitude of the centre) pixels; the eye is
// (H/2) / tan(fov/2) pixels from the centre, pitched, turned and rolled as on
// the flat map; the principal point is the padded centre. The camera's lat/lon
// is the centre of the view (no anchor); the centre's elevation does not
// change the globe's picture (MapLibre draws the globe at sea level).
// Coordinates: the unit sphere, y through the north pole, z through 0 N 0 E.
import { cameraDistance, principalPoint, worldSize } from './projection.js';

const DEG = Math.PI / 180;

/** MapLibre's globe is drawn flat from this zoom on. */
export const GLOBE_FLAT_FROM_ZOOM = 12;

/** True when a room on the globe projection is drawn as a globe at `zoom`. */
export function isGlobe(zoom) {
  return zoom < GLOBE_FLAT_FROM_ZOOM;
}

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const normalize = (a) => scale(a, 1 / Math.sqrt(dot(a, a)));
// Row-major 3x3 rotations, gl-matrix's sense (counter-clockwise).
const rotX = (a) => [[1, 0, 0], [0, Math.cos(a), -Math.sin(a)], [0, Math.sin(a), Math.cos(a)]];
const rotY = (a) => [[Math.cos(a), 0, Math.sin(a)], [0, 1, 0], [-Math.sin(a), 0, Math.cos(a)]];
const rotZ = (a) => [[Math.cos(a), -Math.sin(a), 0], [Math.sin(a), Math.cos(a), 0], [0, 0, 1]];
const apply = (m, v) => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];
const transpose = (m) => [0, 1, 2].map((i) => [m[0][i], m[1][i], m[2][i]]);
const mul = (a, b) => {
  const t = transpose(b);
  return a.map((row) => t.map((col) => dot(row, col)));
};

function unitVector(geo) {
  const lat = geo.lat * DEG, lon = geo.lon * DEG;
  return [Math.sin(lon) * Math.cos(lat), Math.sin(lat), Math.cos(lon) * Math.cos(lat)];
}

/** The globe's frame for `camera` in `viewport`: radius, eye, rotation to the view. */
function globeFrame(camera, viewport) {
  const radius = worldSize(camera.zoom) / (2 * Math.PI) / Math.cos(camera.lat * DEG);
  const distance = cameraDistance(viewport, camera.fov);
  const { px, py } = principalPoint(camera, viewport);
  const view = mul(mul(rotZ((camera.roll || 0) * DEG), rotX(-(camera.tilt || 0) * DEG)), rotZ((camera.bearing || 0) * DEG));
  const centre = mul(rotX(camera.lat * DEG), rotY(-camera.lon * DEG));
  const eye = apply(transpose(centre), add(apply(transpose(view), [0, 0, distance / radius]), [0, 0, 1]));
  return { radius, distance, px, py, toView: mul(view, centre), eye };
}

/**
 * The view point {x, y} of `geo` ({lat, lon}) on the globe, or null when the
 * globe hides it (the far side) or it lies behind the eye.
 * @returns {{x: number, y: number} | null}
 */
export function globeProject(camera, viewport, geo) {
  const f = globeFrame(camera, viewport);
  const unit = unitVector(geo);
  if (dot(unit, f.eye) < 1) return null;
  const v = apply(f.toView, scale(add(unit, scale(f.eye, -1)), f.radius));
  const depth = -v[2];
  if (!(depth > f.distance * 1e-9)) return null;
  return { x: f.px + (f.distance * v[0]) / depth, y: f.py - (f.distance * v[1]) / depth };
}

/**
 * The point {lat, lon} of the globe under view point `point` (where its line of
 * sight first meets the sphere), or null when the line misses the globe (space)
 * or meets it only behind the eye.
 * @returns {{lat: number, lon: number} | null}
 */
export function globeUnproject(camera, viewport, point) {
  const f = globeFrame(camera, viewport);
  const u = normalize(apply(transpose(f.toView), [(point.x - f.px) / f.distance, -(point.y - f.py) / f.distance, -1]));
  const b = dot(f.eye, u);
  const inner = add(f.eye, scale(u, -b));
  const discriminant = 1 - dot(inner, inner);
  if (discriminant < 0) return null;
  const q = -b + (b < 0 ? 1 : -1) * Math.sqrt(discriminant);
  const t = Math.min((dot(f.eye, f.eye) - 1) / q, q);
  if (!(t > 0)) return null;
  const s = normalize(add(f.eye, scale(u, t)));
  return { lat: Math.asin(Math.min(Math.max(s[1], -1), 1)) / DEG, lon: Math.atan2(s[0], s[2]) / DEG };
}
