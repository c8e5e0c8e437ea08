// A hub camera (wire form) as MapLibre's `jumpTo` options. Pure.

import { principalPoint, unproject } from '../geo/projection.js';

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
export function toMapLibreCamera(camera, viewport) {
  const p = camera.padding || {};
  const padding = { top: p.top || 0, bottom: p.bottom || 0, left: p.left || 0, right: p.right || 0 };
  let center = [camera.lon, camera.lat];
  const anchored = camera.anchor && (camera.anchor.x !== 0.5 || camera.anchor.y !== 0.5);
  if (anchored && viewport) {
    const { px, py } = principalPoint(camera, viewport);
    const c = unproject(camera, viewport, { x: px, y: py });
    if (c) center = [c.lon, c.lat];
  }
  return { center, zoom: camera.zoom, bearing: camera.bearing, pitch: camera.tilt, padding };
}

/** MapLibre's input handlers. A map that follows or drives a room has them all off: it moves only as the room does. */
export const MAPLIBRE_HANDLERS = ['dragPan', 'scrollZoom', 'boxZoom', 'dragRotate', 'keyboard', 'doubleClickZoom', 'touchZoomRotate',
  'touchPitch'];
