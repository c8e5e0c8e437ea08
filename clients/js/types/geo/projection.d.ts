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
/** Distance in pixels from the eye to the target: (H/2) / tan(fov/2) = 1.5 H. */
export function cameraDistance(viewport: any): number;
/**
 * The centre of perspective {px, py}: the centre of the viewport less the
 * camera's padding, clamped into the viewport (MapLibre's EdgeInsets.getCenter).
 */
export function principalPoint(camera: any, viewport: any): {
    px: number;
    py: number;
};
/**
 * Screen y of the horizon: py - d cot(tilt) (py: the principal point's y); -Infinity when looking straight down.
 * View points at or above it (y <= horizonY) do not hit the ground.
 */
export function horizonY(camera: any, viewport: any): number;
/**
 * Projects a geo point to viewport pixels, or null when it lies on or behind
 * the camera plane. Uses the copy of the point's longitude nearest the camera's.
 */
export function project(camera: any, viewport: any, geo: any): {
    x: number;
    y: number;
};
/**
 * Unprojects a viewport pixel onto the ground, or null when it is at or above
 * the horizon. Longitude is wrapped to [-180, 180); latitude is not clamped.
 */
export function unproject(camera: any, viewport: any, point: any): {
    lat: number;
    lon: number;
};
/**
 * Screen y above which corners are clamped for visible bounds, like MapLibre's
 * getBounds: py - 0.85 d cot(tilt) (-Infinity at tilt 0).
 */
export function boundsClampY(camera: any, viewport: any): number;
/**
 * The ground quadrilateral seen by the camera: [topLeft, topRight, bottomRight,
 * bottomLeft] as {lat, lon}. The top corners are moved down to boundsClampY when
 * they lie above it (as MapLibre's getBounds does), so the quad stays finite
 * when the horizon is visible. Longitudes are continuous around the camera's
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
 * The camera that puts the geo point `geo` at the view point `point`, with the
 * same zoom, bearing, tilt, anchor and padding (the Swift core's
 * `ViewTransform.camera(placing:at:)`): a pan that keeps a grabbed point under
 * the finger. The longitude stays continuous with the camera's (not wrapped).
 * Null when `point` is at or above the horizon.
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
/** getBounds-style clamp: fraction of the horizon distance kept for visible bounds. */
export const HORIZON_FRACTION: 0.85;
