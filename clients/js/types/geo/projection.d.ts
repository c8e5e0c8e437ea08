/** Wraps a longitude in degrees into [-180, 180). */
export function wrapLongitude(lon: any): number;
/** Wraps an angle in degrees into [0, 360). */
export function normalizeBearing(deg: any): number;
/** Signed shortest turn in degrees from `from` to `to`, in (-180, 180]. */
export function shortestTurn(from: any, to: any): number;
/** The copy of `lon` (± whole turns) nearest to `reference`. */
export function nearestLongitude(lon: any, reference: any): any;
export function clampLatitude(lat: any): number;
export function worldSize(zoom: any): number;
/** Longitude (any value, not wrapped) to world x in pixels at the given world size. */
export function mercatorX(lon: any, ws: any): number;
/** Latitude (clamped to ±MAX_LATITUDE) to world y in pixels, growing southward. */
export function mercatorY(lat: any, ws: any): number;
/** World x to longitude (not wrapped). */
export function longitudeFromMercatorX(x: any, ws: any): number;
/** World y to latitude (not clamped: beyond the world's edge |lat| > 85.05, < 90). */
export function latitudeFromMercatorY(y: any, ws: any): number;
/** Forward Mercator: {lat, lon} → {x, y} world pixels at `zoom`. */
export function mercatorForward(geo: any, zoom: any): {
    x: number;
    y: number;
};
/** Inverse Mercator: {x, y} world pixels at `zoom` → {lat, lon} (longitude not wrapped). */
export function mercatorInverse(point: any, zoom: any): {
    lat: number;
    lon: number;
};
/** A roll in degrees as a camera keeps it: as it is within −180…180, else wrapped into [−180, 180). */
export function normalizeRoll(deg: any): any;
/** The camera's vertical field of view in radians (FOV when it has no `fov`). */
export function fovRadians(camera: any): number;
/**
 * Distance in pixels from the eye to the map centre: (H/2) / tan(fov/2), 1.5 H at
 * MapLibre's default field of view (`fov`: the camera's vertical field of view in
 * degrees).
 */
export function cameraDistance(viewport: any, fov?: number): number;
/**
 * World pixels per metre at latitude `lat` (degrees) and `zoom`, as MapLibre's
 * `pixelPerMeter` (mercatorZfromAltitude(1, lat) · worldSize): how far below the
 * centre the ground lies for a camera's elevation.
 */
export function pixelsPerMeter(lat: any, zoom: any): number;
/**
 * The centre of perspective {px, py}: the centre of the viewport less the
 * camera's padding, clamped into the viewport (MapLibre's EdgeInsets.getCenter).
 */
export function principalPoint(camera: any, viewport: any): {
    px: number;
    py: number;
};
/**
 * The view point `point` turned back by the camera's roll about the principal
 * point: where it would be in the level picture (the same camera without roll).
 * The point itself when the camera has no roll.
 */
export function levelPoint(camera: any, viewport: any, point: any): any;
/**
 * Screen y of the horizon in the level picture (see levelPoint): py - d
 * cot(tilt), py the principal point's y; -Infinity when looking straight down.
 * Level view points at or above it do not hit the ground. Without roll it is the
 * horizon on screen (horizonY).
 */
export function levelHorizonY(camera: any, viewport: any): number;
/**
 * Screen y of the horizon at screen x (default: the principal point's x):
 * py - d cot(tilt) without roll (py: the principal point's y); -Infinity when
 * looking straight down. Without roll (or with |roll| < 90) view points at or
 * above it (y <= horizonY) do not hit the ground; with |roll| > 90 the picture is
 * upside down and they are those at or below it; NaN at roll ±90 (the horizon is
 * upright).
 */
export function horizonY(camera: any, viewport: any, x: any): any;
/**
 * Projects a geo point to viewport pixels, or null when it lies on or behind
 * the camera plane. Uses the copy of the point's longitude nearest the camera's.
 * The point is on the ground (altitude 0), or `geo.altitude` metres above it.
 */
export function project(camera: any, viewport: any, geo: any): {
    x: number;
    y: number;
};
/**
 * Unprojects a viewport pixel onto the ground (altitude 0), or null when its ray
 * does not meet the ground in front of the eye (at or above the horizon).
 * Longitude is wrapped to [-180, 180); latitude is not clamped.
 */
export function unproject(camera: any, viewport: any, point: any): {
    lat: number;
    lon: number;
};
/**
 * MapLibre's `center` for the camera: the point drawn at the principal point
 * (at the camera's elevation), {lat, lon} with the longitude continuous with the
 * camera's. The camera's own lat/lon unless it has an anchor.
 */
export function centerPoint(camera: any, viewport: any): {
    lat: any;
    lon: any;
};
/**
 * Screen y above which corners are clamped for visible bounds, like MapLibre's
 * getBounds: py - 0.85 d cot(tilt) (-Infinity at tilt 0), at screen x (default:
 * the principal point's x; with roll it is a slanted line, see horizonY).
 */
export function boundsClampY(camera: any, viewport: any, x: any): any;
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
export function visibleQuad(camera: any, viewport: any): {
    lat: number;
    lon: number;
    view: {
        x: any;
        y: any;
    };
}[];
/**
 * Visible bounds {south, west, north, east}, antimeridian-aware: west > east
 * when the box crosses the antimeridian; west = -180, east = 180 when it spans
 * the whole world. west in [-180, 180), east in (-180, 180]. Latitudes are not
 * clamped (they can pass ±85.05 at low zoom).
 */
export function visibleBounds(camera: any, viewport: any): {
    south: number;
    west: number;
    north: number;
    east: number;
};
/** Whether bounds from visibleBounds contain {lat, lon} (with a small tolerance). */
export function boundsContain(bounds: any, geo: any, epsilon?: number): boolean;
/**
 * The camera that puts the geo point `geo` (on the ground) at the view point
 * `point`, with the same zoom, bearing, tilt, roll, elevation, fov, anchor and
 * padding (the Swift core's `ViewTransform.camera(placing:at:)`): a pan that
 * keeps a grabbed point under the finger. The longitude stays continuous with
 * the camera's (not wrapped). Null when `point` is at or above the horizon.
 */
export function cameraPlacing(camera: any, viewport: any, geo: any, point: any): any;
/** The geo point under the view point, its longitude continuous with the camera's; null at or above the horizon. */
export function groundPoint(camera: any, viewport: any, point: any): {
    lat: number;
    lon: number;
};
export const TILE_SIZE: 512;
export const MAX_LATITUDE: 85.051129;
/** Vertical field of view in radians (MapLibre's default, ≈ 36.87°). */
export const FOV: number;
/** MapLibre's default vertical field of view in degrees, 2·atan(1/3) = 36.86989764584402: a camera's `fov` when it has none. */
export const DEFAULT_FOV_DEGREES: 36.86989764584402;
/** MapLibre's earth radius in metres (its `earthRadius`): the circumference 2π · 6371008.8 m sets pixels per metre. */
export const EARTH_RADIUS: 6371008.8;
/** getBounds-style clamp: fraction of the horizon distance kept for visible bounds. */
export const HORIZON_FRACTION: 0.85;
