/**
 * The camera to show for the room's `camera` (wire form) on a screen of `own`
 * size ({width, height}, px), the mover's view being `view` ({width, height},
 * null before anyone moved the camera), the room's `limits` ({minZoom, maxZoom}).
 */
export function fitCamera(mode: any, camera: any, view: any, own: any, limits: any): any;
export const FIT_MODES: string[];
