// Web Mercator camera projection, closed form. Pure: no DOM, no globals.
//
// Conventions (shared with the Swift core and Tests/Vectors/projection.json):
// - Web Mercator with MapLibre's scale: tile size 512, worldSize = 512 * 2^zoom,
//   x = (lon + 180) / 360 * ws, y = (180 - (180/π) ln(tan(π/4 + lat π/360))) / 360 * ws
//   (y grows southward). Latitudes are clamped to ±85.051129 when projected.
// - Camera {lat, lon, zoom, bearing, tilt, roll?, elevation?, fov?, anchor?: {x, y},
//   padding?: {top, left, bottom, right}}: bearing in degrees
//   clockwise from north (bearing 90: east is up), tilt in degrees from nadir
//   (MapLibre's pitch, up to 85), roll in degrees (−180…180, default 0: MapLibre
//   GL JS 5's roll, the picture turned about the centre of perspective),
//   elevation in metres (default 0: MapLibre 5's centre elevation, the altitude
//   of the point the camera looks at), fov the vertical field of view in degrees
//   (default DEFAULT_FOV_DEGREES, MapLibre's), anchor = normalized viewport
//   position (default 0.5, 0.5) where the target is
//   drawn (HERE's target anchor point), a fraction of the padded area. It does
//   not move the perspective: the principal point stays at the centre of the
//   viewport less the padding (MapLibre's padding, clamped into the viewport:
//   EdgeInsets.getCenter) and the map centre (the point there, at the camera's
//   elevation) is placed so that the target, `elevation` metres above its
//   ground position, falls on the anchor (MapLibre's setLocationAtPoint, in the
//   plane at that altitude). An anchor above 85 % of the way from the principal
//   point to the horizon is drawn on that line.
// - Perspective like MapLibre GL JS: the eye is d = (H/2) / tan(fov/2) pixels
//   from the map centre (1.5 H at the default fov). No near/far clipping: a point
//   behind the camera plane projects to null, a view point whose ray does not
//   meet the ground (altitude 0) in front of the eye (at or above the horizon)
//   unprojects to null.
// - project() uses the copy of the point's longitude nearest to the camera's
//   longitude; unproject() wraps longitudes to [-180, 180).
//
// Derivation (MapLibre GL JS 5's mercator `_calcMatrices`: view = P · S(1,−1,1) ·
// T(0,0,−d) · Rz(−roll) · Rx(tilt) · Rz(−bearing) · T(−cx,−cy,0) · S(1,1,ppm) ·
// T(0,0,−elevation), checked against scripts/make_projection_vectors.py in 2D and
// Tests/Vectors/maplibre_mercator.json in 3D): with (dx, dy) the point minus the
// map centre in world pixels and h = −elevation · ppm its height (world px) relative
// to the centre (ppm: world pixels per metre at the centre's latitude), rotate by
// −bearing:  u = dx cos b + dy sin b,  v = −dx sin b + dy cos b;  tilt about the
// view's x axis:  y' = v cos t − h sin t,  depth w = d − (v sin t + h cos t);
// roll about the view axis:  x'' = u cos r + y' sin r,  y'' = −u sin r + y' cos r;
// screen offsets (d x'' / w, d y'' / w) from the principal point.

export const TILE_SIZE = 512;
export const MAX_LATITUDE = 85.051129;
/** Vertical field of view in radians (MapLibre's default, ≈ 36.87°). */
export const FOV = 2 * Math.atan(1 / 3);
/** MapLibre's default vertical field of view in degrees, 2·atan(1/3) = 36.86989764584402: a camera's `fov` when it has none. */
export const DEFAULT_FOV_DEGREES = 36.86989764584402;
/** MapLibre's earth radius in metres (its `earthRadius`): the circumference 2π · 6371008.8 m sets pixels per metre. */
export const EARTH_RADIUS = 6371008.8;
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

/** A roll in degrees as a camera keeps it: as it is within −180…180, else wrapped into [−180, 180). */
export function normalizeRoll(deg) {
  if (deg >= -180 && deg <= 180) return deg;
  return wrapLongitude(deg);
}

/** The camera's vertical field of view in radians (FOV when it has no `fov`). */
export function fovRadians(camera) {
  const fov = camera?.fov;
  return fov === undefined || fov === DEFAULT_FOV_DEGREES ? FOV : fov * DEG;
}

/**
 * Distance in pixels from the eye to the map centre: (H/2) / tan(fov/2), 1.5 H at
 * MapLibre's default field of view (`fov`: the camera's vertical field of view in
 * degrees).
 */
export function cameraDistance(viewport, fov = DEFAULT_FOV_DEGREES) {
  return viewport.height / 2 / Math.tan(fovRadians({ fov }) / 2);
}

/**
 * World pixels per metre at latitude `lat` (degrees) and `zoom`, as MapLibre's
 * `pixelPerMeter` (mercatorZfromAltitude(1, lat) · worldSize): how far below the
 * centre the ground lies for a camera's elevation.
 */
export function pixelsPerMeter(lat, zoom) {
  return worldSize(zoom) / (2 * Math.PI * EARTH_RADIUS * Math.cos(clampLatitude(lat) * DEG));
}

// The point where the ray of view direction (A, B) (the view point's offset from
// the principal point over d, turned back by the roll) meets the plane `h` world
// px above the map centre, as its offset {dx, dy} (world px) from the centre; null
// when it meets it behind the eye or not at all (at or above the horizon).
function hit(f, A, B, h) {
  const w = (f.cosT * f.d - h) / (f.cosT + B * f.sinT); // depth of the hit
  if (!(w > 0) || !Number.isFinite(w)) return null;
  const u = A * w;
  const v = f.cosT * B * w + f.sinT * (f.d - w);
  return { dx: u * f.cosB - v * f.sinB, dy: u * f.sinB + v * f.cosB };
}

// The view direction (A, B) of the view point (x, y): its offset from the principal
// point over d, turned back by the roll.
function direction(f, x, y) {
  const a = (x - f.px) / f.d;
  const b = (y - f.py) / f.d;
  return { A: f.cosR * a - f.sinR * b, B: f.sinR * a + f.cosR * b };
}

// Ground offset (world px) from the map centre of the view point (x, y), or null
// at or above the horizon.
function groundOffset(f, x, y) {
  const { A, B } = direction(f, x, y);
  return hit(f, A, B, f.h);
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
  const r = (camera.roll || 0) * DEG;
  const anchor = camera.anchor || { x: 0.5, y: 0.5 };
  const f = {
    ws,
    cx: mercatorX(camera.lon, ws),
    cy: mercatorY(camera.lat, ws),
    cosB: Math.cos(b),
    sinB: Math.sin(b),
    cosT: Math.cos(t),
    sinT: Math.sin(t),
    cosR: Math.cos(r),
    sinR: Math.sin(r),
    d: cameraDistance(viewport, camera.fov),
    h: 0,
    ...principalPoint(camera, viewport),
  };
  // The target (at the camera's elevation) is drawn at the anchor: move the
  // centre by the anchor's offset in the plane at that altitude.
  if (anchor.x !== 0.5 || anchor.y !== 0.5) {
    const pad = camera.padding || {};
    const paddedW = Math.max(0, viewport.width - (pad.left || 0) - (pad.right || 0));
    const paddedH = Math.max(0, viewport.height - (pad.top || 0) - (pad.bottom || 0));
    let { A, B } = direction(f, f.px + (anchor.x - 0.5) * paddedW, f.py + (anchor.y - 0.5) * paddedH);
    if (f.sinT > 1e-12) B = Math.max(B, (-HORIZON_FRACTION * f.cosT) / f.sinT);
    const o = hit(f, A, B, 0);
    if (o) {
      f.cx -= o.dx;
      f.cy -= o.dy;
    }
  }
  // The ground lies elevation · ppm (at the centre's latitude) below the centre.
  const elevation = camera.elevation || 0;
  if (elevation !== 0) f.h = -elevation * pixelsPerMeter(latitudeFromMercatorY(f.cy, ws), camera.zoom);
  return f;
}

// Screen y at x of the line that is `levelY` in the level picture (see levelPoint).
function lineY(f, levelY, x) {
  if (f.sinR === 0 && f.cosR === 1) return levelY;
  if (Math.abs(f.cosR) < 1e-12) return NaN;
  return f.py + (levelY - f.py - f.sinR * (x - f.px)) / f.cosR;
}

// The level picture's y of the line `fraction` of the way from the principal point to the horizon.
function levelLineY(f, fraction) {
  return fraction === 1 ? f.py - (f.d * f.cosT) / f.sinT : f.py - (fraction * f.d * f.cosT) / f.sinT;
}

/**
 * The view point `point` turned back by the camera's roll about the principal
 * point: where it would be in the level picture (the same camera without roll).
 * The point itself when the camera has no roll.
 */
export function levelPoint(camera, viewport, point) {
  if (!camera.roll) return point;
  const f = frame(camera, viewport);
  const { A, B } = direction(f, point.x, point.y);
  return { x: f.px + A * f.d, y: f.py + B * f.d };
}

// A point of the level picture turned by the roll: the inverse of levelPoint.
function rolledPoint(f, level) {
  if (f.sinR === 0 && f.cosR === 1) return level;
  const x = level.x - f.px;
  const y = level.y - f.py;
  return { x: f.px + x * f.cosR + y * f.sinR, y: f.py - x * f.sinR + y * f.cosR };
}

/**
 * Screen y of the horizon in the level picture (see levelPoint): py - d
 * cot(tilt), py the principal point's y; -Infinity when looking straight down.
 * Level view points at or above it do not hit the ground. Without roll it is the
 * horizon on screen (horizonY).
 */
export function levelHorizonY(camera, viewport) {
  const f = frame(camera, viewport);
  if (f.sinT <= 0) return -Infinity;
  return levelLineY(f, 1);
}

/**
 * Screen y of the horizon at screen x (default: the principal point's x):
 * py - d cot(tilt) without roll (py: the principal point's y); -Infinity when
 * looking straight down. Without roll (or with |roll| < 90) view points at or
 * above it (y <= horizonY) do not hit the ground; with |roll| > 90 the picture is
 * upside down and they are those at or below it; NaN at roll ±90 (the horizon is
 * upright).
 */
export function horizonY(camera, viewport, x) {
  const f = frame(camera, viewport);
  if (f.sinT <= 0) return -Infinity;
  return lineY(f, levelLineY(f, 1), x ?? f.px);
}

/**
 * Projects a geo point to viewport pixels, or null when it lies on or behind
 * the camera plane. Uses the copy of the point's longitude nearest the camera's.
 * The point is on the ground (altitude 0), or `geo.altitude` metres above it.
 */
export function project(camera, viewport, geo) {
  const f = frame(camera, viewport);
  const lon = nearestLongitude(geo.lon, camera.lon);
  const dx = mercatorX(lon, f.ws) - f.cx;
  const dy = mercatorY(geo.lat, f.ws) - f.cy;
  let h = f.h;
  if (geo.altitude) h += geo.altitude * pixelsPerMeter(latitudeFromMercatorY(f.cy, f.ws), camera.zoom);
  const u = dx * f.cosB + dy * f.sinB;
  const v = -dx * f.sinB + dy * f.cosB;
  const y1 = v * f.cosT - h * f.sinT;
  const w = f.d - (v * f.sinT + h * f.cosT);
  if (!(w > 0)) return null;
  const k = f.d / w;
  if (f.sinR === 0 && f.cosR === 1) return { x: f.px + u * k, y: f.py + y1 * k };
  return { x: f.px + (u * f.cosR + y1 * f.sinR) * k, y: f.py + (y1 * f.cosR - u * f.sinR) * k };
}

// Unprojects keeping the longitude continuous with the camera's (not wrapped).
function unprojectContinuous(camera, viewport, point) {
  const f = frame(camera, viewport);
  const o = groundOffset(f, point.x, point.y);
  if (!o) return null;
  return {
    lat: latitudeFromMercatorY(f.cy + o.dy, f.ws),
    lon: longitudeFromMercatorX(f.cx + o.dx, f.ws),
  };
}

/**
 * Unprojects a viewport pixel onto the ground (altitude 0), or null when its ray
 * does not meet the ground in front of the eye (at or above the horizon).
 * Longitude is wrapped to [-180, 180); latitude is not clamped.
 */
export function unproject(camera, viewport, point) {
  const g = unprojectContinuous(camera, viewport, point);
  if (!g) return null;
  return { lat: g.lat, lon: wrapLongitude(g.lon) };
}

/**
 * MapLibre's `center` for the camera: the point drawn at the principal point
 * (at the camera's elevation), {lat, lon} with the longitude continuous with the
 * camera's. The camera's own lat/lon unless it has an anchor.
 */
export function centerPoint(camera, viewport) {
  const a = camera.anchor;
  if (!a || (a.x === 0.5 && a.y === 0.5)) return { lat: camera.lat, lon: camera.lon };
  const f = frame(camera, viewport);
  return { lat: latitudeFromMercatorY(f.cy, f.ws), lon: longitudeFromMercatorX(f.cx, f.ws) };
}

/**
 * Screen y above which corners are clamped for visible bounds, like MapLibre's
 * getBounds: py - 0.85 d cot(tilt) (-Infinity at tilt 0), at screen x (default:
 * the principal point's x; with roll it is a slanted line, see horizonY).
 */
export function boundsClampY(camera, viewport, x) {
  const f = frame(camera, viewport);
  if (f.sinT <= 0) return -Infinity;
  return lineY(f, levelLineY(f, HORIZON_FRACTION), x ?? f.px);
}

/**
 * The ground quadrilateral seen by the camera: [topLeft, topRight, bottomRight,
 * bottomLeft] as {lat, lon}. A corner above boundsClampY (in the level picture,
 * see levelPoint, when the camera rolls) is moved down onto it (as MapLibre's
 * getBounds does, and the Swift core's VisibleRegion), so the quad stays finite
 * when the horizon is visible; should the ground not be in sight there (an
 * elevation below sea level deeper than the eye's height), the target's plane
 * stands in for it. Longitudes are continuous around the camera's
 * longitude (not wrapped) so the quad is a simple polygon even across the
 * antimeridian; wrap them with wrapLongitude for display. Also returns the
 * (possibly clamped) screen points as `view` on each corner.
 */
export function visibleQuad(camera, viewport) {
  const f = frame(camera, viewport);
  const W = viewport.width;
  const H = viewport.height;
  const clampY = f.sinT <= 0 ? -Infinity : levelLineY(f, HORIZON_FRACTION);
  const flat = f.sinR === 0 && f.cosR === 1;
  const quad = [];
  for (const corner of [{ x: 0, y: 0 }, { x: W, y: 0 }, { x: W, y: H }, { x: 0, y: H }]) {
    let view = corner;
    if (flat) {
      if (corner.y < clampY) view = { x: corner.x, y: Math.min(H, clampY) };
    } else {
      const { A, B } = direction(f, corner.x, corner.y);
      const level = { x: f.px + A * f.d, y: f.py + B * f.d };
      if (level.y < clampY) view = rolledPoint(f, { x: level.x, y: clampY });
    }
    const { A, B } = direction(f, view.x, view.y);
    const o = hit(f, A, B, f.h) ?? hit(f, A, B, 0) ?? { dx: 0, dy: 0 };
    quad.push({ lat: latitudeFromMercatorY(f.cy + o.dy, f.ws), lon: longitudeFromMercatorX(f.cx + o.dx, f.ws), view });
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
 * The camera that puts the geo point `geo` (on the ground) at the view point
 * `point`, with the same zoom, bearing, tilt, roll, elevation, fov, anchor and
 * padding (the Swift core's `ViewTransform.camera(placing:at:)`): a pan that
 * keeps a grabbed point under the finger. The longitude stays continuous with
 * the camera's (not wrapped). Null when `point` is at or above the horizon.
 */
export function cameraPlacing(camera, viewport, geo, point) {
  const lon = nearestLongitude(geo.lon, camera.lon);
  let placed = camera;
  // With elevation the ground's depth below the centre depends on the centre's
  // latitude (pixels per metre): a few rounds settle it.
  for (let round = 0; round < (camera.elevation ? 4 : 1); round++) {
    const f = frame(placed, viewport);
    const o = groundOffset(f, point.x, point.y);
    if (!o) return null;
    // The new centre puts `geo` at `point`; the target keeps its offset from the centre.
    const x = mercatorX(lon, f.ws) - o.dx + (mercatorX(placed.lon, f.ws) - f.cx);
    const y = mercatorY(geo.lat, f.ws) - o.dy + (mercatorY(placed.lat, f.ws) - f.cy);
    placed = { ...camera, lat: latitudeFromMercatorY(y, f.ws), lon: longitudeFromMercatorX(x, f.ws) };
  }
  return placed;
}

/** The geo point under the view point, its longitude continuous with the camera's; null at or above the horizon. */
export function groundPoint(camera, viewport, point) {
  return unprojectContinuous(camera, viewport, point);
}
