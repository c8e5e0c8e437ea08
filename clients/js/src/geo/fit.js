// How a follower shows the room's camera on a screen of another size than the
// view of whoever moved it (docs/PROTOCOL.md, Follow mode: `fit`). Pure.
//
// `same` shows the room's camera as it is; `cover` shows at least the area
// the mover's view shows: zoom + log2(min(own width / view width, own height /
// view height)), same centre, bearing and tilt, clamped to the room's zoom
// limits. The Swift client library applies the same rule (CameraCore
// FitMode); both are checked against Tests/Vectors/fit_cover.json.
//
// Roll, elevation and fov are kept as they are: the eye is (H/2)/tan(fov/2) px
// from the centre, and zoom + log2(k) makes k times as many px per metre, so on a
// screen k times the mover's the eye stands where the mover's does, in metres,
// and the picture is the mover's scaled by k (exactly so when both sides scale
// alike and the padding with them).

export const FIT_MODES = ['same', 'cover'];

/**
 * The camera to show for the room's `camera` (wire form) on a screen of `own`
 * size ({width, height}, px), the mover's view being `view` ({width, height},
 * null before anyone moved the camera), the room's `limits` ({minZoom, maxZoom}).
 */
export function fitCamera(mode, camera, view, own, limits) {
  if (mode !== 'cover' || !view || !camera) return camera;
  const scale = Math.min(own.width / view.width, own.height / view.height);
  if (!(scale > 0) || !Number.isFinite(scale)) return camera;
  const minZoom = limits?.minZoom ?? 0;
  const maxZoom = limits?.maxZoom ?? 22;
  return { ...camera, zoom: Math.min(Math.max(camera.zoom + Math.log2(scale), minZoom), maxZoom) };
}
