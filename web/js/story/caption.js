// What the story caption shows, pure: the room's step as a line of progress,
// its title and notes, and which of the stepper's buttons apply. No DOM.

/**
 * The caption for the room's storyboard as the page knows it (`RoomState.story`), or null when there is nothing
 * to show (no storyboard, or the room on no step and this page not able to step).
 * @param {{count: number, index: number|null, title: string|null, notes: string|null, playing: boolean,
 *   drivers: boolean}|null} story
 * @param {boolean} canStep whether this page may step the storyboard
 * @returns {{progress: string, title: string, notes: string, playing: boolean, previous: boolean, next: boolean}|null}
 */
export function storyCaption(story, canStep) {
  if (!story || story.count === 0) return null;
  if (story.index === null && !canStep) return null;
  const on = story.index !== null;
  return {
    progress: on ? `Step ${story.index + 1} of ${story.count}` : `${story.count} step${story.count === 1 ? '' : 's'}`,
    title: on ? story.title ?? '' : '',
    notes: on ? story.notes ?? '' : '',
    playing: story.playing,
    previous: on && story.index > 0,
    next: !on || story.index + 1 < story.count,
  };
}

/** Keys that step the storyboard (as presentation clickers send them): → and Page Down go on, ← and Page Up back. */
export const STEP_KEYS = Object.freeze({ ArrowRight: 'next', PageDown: 'next', ArrowLeft: 'previous', PageUp: 'previous' });

/**
 * Whether this page may step the room's storyboard: a presenter, or a driver where a presenter allowed drivers.
 * @param {string|null} role
 * @param {{drivers: boolean}|null} story
 */
export function mayStep(role, story) {
  return role === 'presenter' || (role === 'driver' && story?.drivers === true);
}

/**
 * A step of the room's storyboard made from the camera this page shows, as `story` `insert` takes it.
 * @param {{lat: number, lon: number, zoom: number, bearing?: number, tilt?: number, roll?: number,
 *   elevation?: number, fov?: number}} camera
 * @param {string} title
 * @param {number|undefined} hold seconds autoplay stays (undefined: it stops there)
 */
export function stepFromView(camera, title, hold) {
  const view = { lat: camera.lat, lon: camera.lon, zoom: camera.zoom };
  for (const k of ['bearing', 'tilt', 'roll', 'elevation', 'fov']) if (camera[k] !== undefined && camera[k] !== null) view[k] = camera[k];
  const step = { camera: view };
  if (title) step.title = title.slice(0, 120);
  if (hold !== undefined) step.hold = hold;
  return step;
}
