/**
 * MapLibre `jumpTo` options for a hub camera in this viewport: {center, zoom,
 * bearing, pitch, padding}. The hub draws the target at its anchor without
 * moving the perspective (HERE's target anchor point), so for an anchored
 * camera MapLibre's `center` is the ground point under the view centre, found
 * with the hub's projection (the same as MapLibre's setLocationAtPoint);
 * without a viewport it falls back to the target. The camera's padding is
 * MapLibre's padding (it moves the centre of perspective the same way).
 * (Create the map with maxPitch: 85 to allow tilts above MapLibre's default 60.)
 */
export function toMapLibreCamera(camera: any, viewport: any): {
    center: any[];
    zoom: any;
    bearing: any;
    pitch: any;
    padding: {
        top: any;
        bottom: any;
        left: any;
        right: any;
    };
};
/** MapLibre's input handlers. A map that follows or drives a room has them all off: it moves only as the room does. */
export const MAPLIBRE_HANDLERS: string[];
