/** True when a room on the globe projection is drawn as a globe at `zoom`. */
export function isGlobe(zoom: any): boolean;
/**
 * The view point {x, y} of `geo` ({lat, lon}) on the globe, or null when the
 * globe hides it (the far side) or it lies behind the eye.
 * @returns {{x: number, y: number} | null}
 */
export function globeProject(camera: any, viewport: any, geo: any): {
    x: number;
    y: number;
} | null;
/**
 * The point {lat, lon} of the globe under view point `point` (where its line of
 * sight first meets the sphere), or null when the line misses the globe (space)
 * or meets it only behind the eye.
 * @returns {{lat: number, lon: number} | null}
 */
export function globeUnproject(camera: any, viewport: any, point: any): {
    lat: number;
    lon: number;
} | null;
/** MapLibre's globe is drawn flat from this zoom on. */
export const GLOBE_FLAT_FROM_ZOOM: 12;
