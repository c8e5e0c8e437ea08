/**
 * MapLibre `jumpTo` options for a hub camera in this viewport: {center, zoom,
 * bearing, pitch, padding}, and `roll` (degrees) and `elevation` (the centre's
 * altitude, m: MapLibre GL JS 5) when the camera has them. The hub draws the
 * target at its anchor without moving the perspective (HERE's target anchor
 * point), so for an anchored camera MapLibre's `center` is the point under the
 * view centre (at the camera's elevation), found with the hub's projection (the
 * same as MapLibre's setLocationAtPoint); without a viewport it falls back to
 * the target. The camera's padding is MapLibre's padding (it moves the centre
 * of perspective the same way). The field of view is not a `jumpTo` option:
 * set it with `map.setVerticalFieldOfView(camera.fov)` (attachMapLibre does).
 * (Create the map with maxPitch: 85: MapLibre's default 60 clamps higher tilts.)
 * @param {{lat: number, lon: number, zoom: number, bearing: number, tilt: number, roll?: number,
 *   elevation?: number, fov?: number, anchor?: {x: number, y: number},
 *   padding?: {top?: number, left?: number, bottom?: number, right?: number}}} camera
 * @param {{width: number, height: number}} [viewport]
 */
export function toMapLibreCamera(camera: {
    lat: number;
    lon: number;
    zoom: number;
    bearing: number;
    tilt: number;
    roll?: number;
    elevation?: number;
    fov?: number;
    anchor?: {
        x: number;
        y: number;
    };
    padding?: {
        top?: number;
        left?: number;
        bottom?: number;
        right?: number;
    };
}, viewport?: {
    width: number;
    height: number;
}): {
    center: number[];
    zoom: number;
    bearing: number;
    pitch: number;
    padding: {
        top: number;
        bottom: number;
        left: number;
        right: number;
    };
    roll?: number;
    elevation?: number;
};
/**
 * A MapLibre map's camera in wire form: {lat, lon, zoom, bearing, tilt} and
 * `roll`, `elevation` (getCenterElevation) and `fov` (getVerticalFieldOfView)
 * only when not at their defaults (0, 0, 36.86989764584402 degrees; a MapLibre
 * before 5 has none of them), `padding` when the map has some. `lon` is wrapped
 * into [-180, 180), `bearing` into [0, 360). The map's centre is its point under
 * the view centre: the camera has no anchor.
 * @param {any} map a MapLibre map
 */
export function fromMapLibreCamera(map: any): {
    lat: number;
    lon: number;
    zoom: number;
    bearing: number;
    tilt: number;
    roll?: number;
    elevation?: number;
    fov?: number;
    padding?: {
        top: number;
        left: number;
        bottom: number;
        right: number;
    };
};
/**
 * The projection a MapLibre map draws in: its style's `projection.type` ('mercator', 'globe', …), 'mercator'
 * for a map whose style has none (MapLibre's default) or a MapLibre before 5 (no `getProjection`).
 * @param {any} map a MapLibre map
 * @returns {string}
 */
export function mapProjection(map: any): string;
/**
 * Puts a room's projection on a MapLibre GL JS 5 map: `map.setProjection({type: projection})`, only when the
 * map draws in another one (so a Mercator room makes no call on a map that never had a projection). Returns
 * true when the map draws in `projection` now; false when it cannot yet, because its style is still loading
 * (MapLibre throws "Style is not done loading": call again on the map's `style.load`, which also comes after
 * each `setStyle`, whose style brings its own projection), or because the map has no projections (MapLibre
 * before 5: Mercator only).
 * @param {any} map a MapLibre map
 * @param {'mercator'|'globe'} projection the room's (`room.projection`)
 * @returns {boolean}
 */
export function applyProjection(map: any, projection: 'mercator' | 'globe'): boolean;
/** MapLibre's input handlers. A map that follows or drives a room has them all off: it moves only as the room does. */
export const MAPLIBRE_HANDLERS: string[];
