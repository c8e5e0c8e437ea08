// What an exploring follower is shown of the room: the area the presenter's
// view covers, as an outline on its own map, and, when that area is off its
// screen, where an arrow at the screen's edge points. Pure.

import { visibleQuad, project } from '../../../clients/js/src/geo/projection.js';
import { quadGeoJSON } from '../ui/query.js';

/**
 * The ground area the room's `camera` shows in the mover's `view` ({width,
 * height}; the page's own viewport when nobody moved the camera yet), as a
 * GeoJSON outline.
 */
export function presenterArea(camera, view) {
  return quadGeoJSON(camera ? visibleQuad(camera, view) : null);
}

/**
 * Where to put the arrow pointing at `target` ({lat, lon}, the room camera's
 * centre) on the page's screen showing `own` in `viewport`: null when the
 * target is on screen (more than `margin` px inside); else {x, y} on the
 * screen's edge, `margin` px in, and `angle` (degrees clockwise from "up")
 * towards the target.
 */
export function edgeArrow(own, viewport, target, margin = 24) {
  const { width: W, height: H } = viewport;
  const cx = W / 2;
  const cy = H / 2;
  const p = project(own, viewport, target);
  // Behind the camera (a tilted view looking away): point the way the target lies on the ground.
  const to = p ?? { x: cx, y: -H };
  if (p && p.x >= margin && p.x <= W - margin && p.y >= margin && p.y <= H - margin) return null;
  const dx = to.x - cx;
  const dy = to.y - cy;
  if (dx === 0 && dy === 0) return null;
  const sx = dx === 0 ? Infinity : (W / 2 - margin) / Math.abs(dx);
  const sy = dy === 0 ? Infinity : (H / 2 - margin) / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x: cx + dx * s, y: cy + dy * s, angle: (Math.atan2(dx, -dy) * 180) / Math.PI };
}
