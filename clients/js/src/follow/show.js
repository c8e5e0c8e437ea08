// What a client puts on screen for one paint: its own camera while it explores
// or glides back (`Explorer`), else its prediction of its own gestures while
// they are under way (`Predictor`), else, for a client that prefers reduced
// motion, the end of another client's non-essential animation
// (`ReducedMotion`), else the hub's frames played out behind the jitter
// buffer's delay (`SnapshotBuffer`), fitted to its screen (`fitCamera`).
// Shared by the viewer's render loop and the MapLibre adapter. Pure.

import { wrapLongitude, DEFAULT_FOV_DEGREES } from '../geo/projection.js';
import { fitCamera } from '../geo/fit.js';

/**
 * The camera to show in the display frame that begins at local time `displayAt` (ms, the animation-frame
 * callback's timestamp) and is on screen `lead` ms later (FramePacer.lead).
 * @param {object} parts {buffer, explorer?, prediction?, reducedMotion?, state (RoomState), viewport {width, height}}
 * @returns {{sample: object|null, camera: object|null, rt: number|null, seq: number|null, moving: boolean,
 *   frameSeq: number|null}} `sample` the buffer's; `rt` the hub time shown (null for the client's own camera);
 *   `seq` the newest of the client's gestures it shows; `frameSeq` the hub frame it shows (null when it shows
 *   something else)
 */
export function cameraToShow(parts, displayAt, lead = 0) {
  const { buffer, explorer, prediction, reducedMotion, state, viewport } = parts;
  const paintAt = displayAt + lead;
  const s = buffer.sample(displayAt, lead);
  const rt = s?.time ?? null;
  const explored = explorer?.sample(paintAt, s?.camera ?? null) ?? null;
  if (explored) return { sample: s, camera: { ...explored, lon: wrapLongitude(explored.lon) }, rt: null, seq: null, moving: true, frameSeq: null };
  const predicted = prediction?.sample(paintAt, s) ?? null;
  if (predicted) {
    return { sample: s, camera: { ...predicted, lon: wrapLongitude(predicted.lon) }, rt, seq: prediction.lastSentSeq, moving: true,
      frameSeq: null };
  }
  const jumped = reducedMotion?.camera(rt) ?? null;
  if (jumped) return { sample: s, camera: fitCamera(state.fit, jumped, state.view, viewport, state.limits), rt, seq: null, moving: true, frameSeq: null };
  if (!s) return { sample: null, camera: null, rt: null, seq: null, moving: false, frameSeq: null };
  return { sample: s, camera: fitCamera(state.fit, s.camera, state.view, viewport, state.limits), rt, seq: prediction?.seqAt(rt) ?? null,
    moving: s.moving, frameSeq: s.seq };
}

/** True when two wire cameras are the same (roll, elevation, fov and anchor included; absent = the default). */
export function sameCamera(a, b) {
  if (!a || !b) return false;
  if (a.lat !== b.lat || a.lon !== b.lon || a.zoom !== b.zoom || a.bearing !== b.bearing || a.tilt !== b.tilt) return false;
  if ((a.roll || 0) !== (b.roll || 0) || (a.elevation || 0) !== (b.elevation || 0)
    || (a.fov ?? DEFAULT_FOV_DEGREES) !== (b.fov ?? DEFAULT_FOV_DEGREES)) return false;
  const aa = a.anchor;
  const ba = b.anchor;
  if (!aa || !ba) return !aa && !ba;
  return aa.x === ba.x && aa.y === ba.y;
}
