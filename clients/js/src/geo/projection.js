// Web Mercator camera projection, closed form. Pure: no DOM, no globals.
//
// Conventions (shared with the Swift core and Tests/Vectors/projection.json):
// - Web Mercator with MapLibre's scale: tile size 512, worldSize = 512 * 2^zoom,
//   x = (lon + 180) / 360 * ws, y = (180 - (180/π) ln(tan(π/4 + lat π/360))) / 360 * ws
//   (y grows southward). Latitudes are clamped to ±85.051129 when projected.
// - Camera {lat, lon, zoom, bearing, tilt, anchor?: {x, y}, padding?: {top, left,
//   bottom, right}}: bearing in degrees
//   clockwise from north (bearing 90: east is up), tilt in degrees from nadir,
//   anchor = normalized viewport position (default 0.5, 0.5) where the target is
//   drawn (HERE's target anchor point), a fraction of the padded area. It does
//   not move the perspective: the principal point stays at the centre of the
//   viewport less the padding (MapLibre's padding, clamped into the viewport:
//   EdgeInsets.getCenter) and the map centre (the ground
//   point there) is placed so that the target falls on the anchor (MapLibre's
//   setLocationAtPoint). An anchor above 85 % of the way from the principal
//   point to the horizon is drawn on that line.
// - Perspective like MapLibre GL JS: vertical fov = 2 atan(1/3), the eye is
//   d = (H/2) / tan(fov/2) = 1.5 H pixels from the map centre. No near/far clipping:
//   a point behind the camera plane projects to null, a view point at or above
//   the horizon (y <= H/2 - d cot(tilt)) unprojects to null.
// - project() uses the copy of the point's longitude nearest to the camera's
//   longitude; unproject() wraps longitudes to [-180, 180).
//
// Derivation (checked against the matrix pipeline in
// scripts/make_projection_vectors.py): with (dx, dy) the point minus the map centre
// in world pixels, rotate by -bearing:  u = dx cos b + dy sin b,  v = -dx sin b + dy cos b;
// tilt about the screen x axis: depth w = d - v sin t;  screen offsets
// (d u / w, d v cos t / w) from the principal point.

export const TILE_SIZE = 512;
export const MAX_LATITUDE = 85.051129;
/** Vertical field of view in radians (MapLibre's default, ≈ 36.87°). */
export const FOV = 2 * Math.atan(1 / 3);
/** getBounds-style clamp: fraction of the horizon distance kept for visible bounds. */
export const HORIZON_FRACTION = 0.85;

const DEG = Math.PI / 180;

// ---------------------------------------------------------------------------
// Angles and longitudes (same semantics as the Swift core's helpers)
// ---------------------------------------------------------------------------

/** Wraps a longitude in degrees into [-180, 180). */
export function wrapLongitude(lon) {
  const wrapped = (lon + 180) % 360;
  const positive = wrapped < 0 ? wrapped + 360 : wrapped;
  return positive >= 360 ? -180 : positive - 180;
}

/** Wraps an angle in degrees into [0, 360). */
export function normalizeBearing(deg) {
  const r = deg % 360;
  const positive = r < 0 ? r + 360 : r;
  return positive >= 360 ? 0 : positive + 0; // + 0 turns -0 into 0
}

/** Signed shortest turn in degrees from `from` to `to`, in (-180, 180]. */
export function shortestTurn(from, to) {
  let d = (to - from) % 360;
  if (d > 180) d -= 360;
  else if (d <= -180) d += 360;
  return d;
}

/** The copy of `lon` (± whole turns) nearest to `reference`. */
export function nearestLongitude(lon, reference) {
  return reference + shortestTurn(reference, lon);
}

export function clampLatitude(lat) {
  return Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
}

// ---------------------------------------------------------------------------
// Mercator
// ---------------------------------------------------------------------------

export function worldSize(zoom) {
  return TILE_SIZE * Math.pow(2, zoom);
}

/** Longitude (any value, not wrapped) to world x in pixels at the given world size. */
export function mercatorX(lon, ws) {
  return ((lon + 180) / 360) * ws;
}

/** Latitude (clamped to ±MAX_LATITUDE) to world y in pixels, growing southward. */
export function mercatorY(lat, ws) {
  const phi = clampLatitude(lat);
  return ((180 - (180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (phi * Math.PI) / 360))) / 360) * ws;
}

/** World x to longitude (not wrapped). */
export function longitudeFromMercatorX(x, ws) {
  return (x / ws) * 360 - 180;
}

/** World y to latitude (not clamped: beyond the world's edge |lat| > 85.05, < 90). */
export function latitudeFromMercatorY(y, ws) {
  const y2 = 180 - (y / ws) * 360;
  return (360 / Math.PI) * Math.atan(Math.exp(y2 * DEG)) - 90;
}

/** Forward Mercator: {lat, lon} → {x, y} world pixels at `zoom`. */
export function mercatorForward(geo, zoom) {
  const ws = worldSize(zoom);
  return { x: mercatorX(geo.lon, ws), y: mercatorY(geo.lat, ws) };
}

/** Inverse Mercator: {x, y} world pixels at `zoom` → {lat, lon} (longitude not wrapped). */
export function mercatorInverse(point, zoom) {
  const ws = worldSize(zoom);
  return { lat: latitudeFromMercatorY(point.y, ws), lon: longitudeFromMercatorX(point.x, ws) };
}

// ---------------------------------------------------------------------------
// Camera geometry
// ---------------------------------------------------------------------------

/** Distance in pixels from the eye to the target: (H/2) / tan(fov/2) = 1.5 H. */
export function cameraDistance(viewport) {
  return viewport.height / 2 / Math.tan(FOV / 2);
}

// Ground offset (world px) from the map centre of the view point (x, y), or null
// at or above the horizon.
function groundOffset(f, x, y) {
  const a = (x - f.px) / f.d;
  const b = (y - f.py) / f.d;
  const denom = f.cosT + b * f.sinT; // = w cos t / d, with w the depth of the hit
  if (!(denom > 0)) return null;
  const v = (b * f.d) / denom;
  const u = (a * f.d * f.cosT) / denom;
  return { dx: u * f.cosB - v * f.sinB, dy: u * f.sinB + v * f.cosB };
}

/**
 * The centre of perspective {px, py}: the centre of the viewport less the
 * camera's padding, clamped into the viewport (MapLibre's EdgeInsets.getCenter).
 */
export function principalPoint(camera, viewport) {
  const p = camera.padding || {};
  const W = viewport.width;
  const H = viewport.height;
  return {
    px: Math.min(Math.max(((p.left || 0) + W - (p.right || 0)) / 2, 0), W),
    py: Math.min(Math.max(((p.top || 0) + H - (p.bottom || 0)) / 2, 0), H),
  };
}

function frame(camera, viewport) {
  const ws = worldSize(camera.zoom);
  const b = (camera.bearing || 0) * DEG;
  const t = (camera.tilt || 0) * DEG;
  const anchor = camera.anchor || { x: 0.5, y: 0.5 };
  const f = {
    ws,
    cx: mercatorX(camera.lon, ws),
    cy: mercatorY(camera.lat, ws),
    cosB: Math.cos(b),
    sinB: Math.sin(b),
    cosT: Math.cos(t),
    sinT: Math.sin(t),
    d: cameraDistance(viewport),
    ...principalPoint(camera, viewport),
  };
  // The target is drawn at the anchor: move the centre by the anchor's ground offset.
  const pad = camera.padding || {};
  const paddedW = Math.max(0, viewport.width - (pad.left || 0) - (pad.right || 0));
  const paddedH = Math.max(0, viewport.height - (pad.top || 0) - (pad.bottom || 0));
  const ax = f.px + (anchor.x - 0.5) * paddedW;
  let ay = f.py + (anchor.y - 0.5) * paddedH;
  if (f.sinT > 1e-12) ay = Math.max(ay, f.py - (HORIZON_FRACTION * f.d * f.cosT) / f.sinT);
  const o = groundOffset(f, ax, ay);
  if (o) {
    f.cx -= o.dx;
    f.cy -= o.dy;
  }
  return f;
}

/**
 * Screen y of the horizon: py - d cot(tilt) (py: the principal point's y); -Infinity when looking straight down.
 * View points at or above it (y <= horizonY) do not hit the ground.
 */
export function horizonY(camera, viewport) {
  const f = frame(camera, viewport);
  if (f.sinT <= 0) return -Infinity;
  return f.py - (f.d * f.cosT) / f.sinT;
}

/**
 * Projects a geo point to viewport pixels, or null when it lies on or behind
 * the camera plane. Uses the copy of the point's longitude nearest the camera's.
 */
export function project(camera, viewport, geo) {
  const f = frame(camera, viewport);
  const lon = nearestLongitude(geo.lon, camera.lon);
  const dx = mercatorX(lon, f.ws) - f.cx;
  const dy = mercatorY(geo.lat, f.ws) - f.cy;
  const u = dx * f.cosB + dy * f.sinB;
  const v = -dx * f.sinB + dy * f.cosB;
  const w = f.d - v * f.sinT;
  if (!(w > 0)) return null;
  const k = f.d / w;
  return { x: f.px + u * k, y: f.py + v * f.cosT * k };
}

// Unprojects to world pixels relative to the map centre (dx, dy), or null above the horizon.
function unprojectOffset(f, point) {
  return groundOffset(f, point.x, point.y);
}

// Unprojects keeping the longitude continuous with the camera's (not wrapped).
function unprojectContinuous(camera, viewport, point) {
  const f = frame(camera, viewport);
  const o = unprojectOffset(f, point);
  if (!o) return null;
  return {
    lat: latitudeFromMercatorY(f.cy + o.dy, f.ws),
    lon: longitudeFromMercatorX(f.cx + o.dx, f.ws),
  };
}

/**
 * Unprojects a viewport pixel onto the ground, or null when it is at or above
 * the horizon. Longitude is wrapped to [-180, 180); latitude is not clamped.
 */
export function unproject(camera, viewport, point) {
  const g = unprojectContinuous(camera, viewport, point);
  if (!g) return null;
  return { lat: g.lat, lon: wrapLongitude(g.lon) };
}

/**
 * Screen y above which corners are clamped for visible bounds, like MapLibre's
 * getBounds: py - 0.85 d cot(tilt) (-Infinity at tilt 0).
 */
export function boundsClampY(camera, viewport) {
  const f = frame(camera, viewport);
  if (f.sinT <= 0) return -Infinity;
  return f.py - (HORIZON_FRACTION * f.d * f.cosT) / f.sinT;
}

/**
 * The ground quadrilateral seen by the camera: [topLeft, topRight, bottomRight,
 * bottomLeft] as {lat, lon}. The top corners are moved down to boundsClampY when
 * they lie above it (as MapLibre's getBounds does), so the quad stays finite
 * when the horizon is visible. Longitudes are continuous around the camera's
 * longitude (not wrapped) so the quad is a simple polygon even across the
 * antimeridian; wrap them with wrapLongitude for display. Also returns the
 * (possibly clamped) screen points as `view` on each corner.
 */
export function visibleQuad(camera, viewport) {
  const W = viewport.width;
  const H = viewport.height;
  const top = Math.min(H, Math.max(0, boundsClampY(camera, viewport)));
  const corners = [
    { x: 0, y: top },
    { x: W, y: top },
    { x: W, y: H },
    { x: 0, y: H },
  ];
  const quad = [];
  for (const view of corners) {
    const g = unprojectContinuous(camera, viewport, view);
    if (g) quad.push({ lat: g.lat, lon: g.lon, view });
  }
  return quad;
}

/**
 * Visible bounds {south, west, north, east}, antimeridian-aware: west > east
 * when the box crosses the antimeridian; west = -180, east = 180 when it spans
 * the whole world. west in [-180, 180), east in (-180, 180]. Latitudes are not
 * clamped (they can pass ±85.05 at low zoom).
 */
export function visibleBounds(camera, viewport) {
  const quad = visibleQuad(camera, viewport);
  if (quad.length === 0) return null;
  let south = Infinity;
  let north = -Infinity;
  let minLon = Infinity;
  let maxLon = -Infinity;
  for (const p of quad) {
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
    minLon = Math.min(minLon, p.lon);
    maxLon = Math.max(maxLon, p.lon);
  }
  if (maxLon - minLon >= 360) return { south, west: -180, north, east: 180 };
  const west = wrapLongitude(minLon);
  const east = -wrapLongitude(-maxLon); // wraps into (-180, 180]
  return { south, west, north, east: east === 0 ? 0 : east };
}

/** Whether bounds from visibleBounds contain {lat, lon} (with a small tolerance). */
export function boundsContain(bounds, geo, epsilon = 1e-9) {
  if (geo.lat < bounds.south - epsilon || geo.lat > bounds.north + epsilon) return false;
  const span = bounds.east - bounds.west;
  if (span >= 360) return true;
  const width = span >= 0 ? span : span + 360;
  let offset = (geo.lon - bounds.west) % 360;
  if (offset < 0) offset += 360;
  return offset <= width + epsilon || offset >= 360 - epsilon;
}

/**
 * The camera that puts the geo point `geo` at the view point `point`, with the
 * same zoom, bearing, tilt, anchor and padding (the Swift core's
 * `ViewTransform.camera(placing:at:)`): a pan that keeps a grabbed point under
 * the finger. The longitude stays continuous with the camera's (not wrapped).
 * Null when `point` is at or above the horizon.
 */
export function cameraPlacing(camera, viewport, geo, point) {
  const f = frame(camera, viewport);
  const o = groundOffset(f, point.x, point.y);
  if (!o) return null;
  const lon = nearestLongitude(geo.lon, camera.lon);
  // The new centre puts `geo` at `point`; the target keeps its offset from the centre.
  const x = mercatorX(lon, f.ws) - o.dx + (mercatorX(camera.lon, f.ws) - f.cx);
  const y = mercatorY(geo.lat, f.ws) - o.dy + (mercatorY(camera.lat, f.ws) - f.cy);
  return { ...camera, lat: latitudeFromMercatorY(y, f.ws), lon: longitudeFromMercatorX(x, f.ws) };
}

/** The geo point under the view point, its longitude continuous with the camera's; null at or above the horizon. */
export function groundPoint(camera, viewport, point) {
  return unprojectContinuous(camera, viewport, point);
}
