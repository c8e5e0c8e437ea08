/**
 * The camera to show in the display frame that begins at local time `displayAt` (ms, the animation-frame
 * callback's timestamp) and is on screen `lead` ms later (FramePacer.lead).
 * @param {object} parts {buffer, explorer?, prediction?, reducedMotion?, state (RoomState), viewport {width, height}}
 * @returns {{sample: object|null, camera: object|null, rt: number|null, seq: number|null, moving: boolean,
 *   frameSeq: number|null}} `sample` the buffer's; `rt` the hub time shown (null for the client's own camera);
 *   `seq` the newest of the client's gestures it shows; `frameSeq` the hub frame it shows (null when it shows
 *   something else)
 */
export function cameraToShow(parts: object, displayAt: any, lead?: number): {
    sample: object | null;
    camera: object | null;
    rt: number | null;
    seq: number | null;
    moving: boolean;
    frameSeq: number | null;
};
/** True when two wire cameras are the same (roll, elevation, fov and anchor included; absent = the default). */
export function sameCamera(a: any, b: any): boolean;
