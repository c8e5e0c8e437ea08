// The storyboard panel's list logic, pure: which rows of the list on screen a
// new storyboard keeps (so a row being edited, and its thumbnail, stay), the
// `move` a drag or a move-up/down button asks for, the step an in-place edit
// sends, and the key a step's thumbnail is cached under. No DOM.

/** MapLibre's default vertical field of view (degrees): a step's camera without `fov` has it. */
const DEFAULT_FOV = 36.86989764584402;

/**
 * The key of a step's camera: two steps with the same view share a thumbnail.
 * @param {{lat: number, lon: number, zoom: number, bearing?: number, tilt?: number, roll?: number,
 *   elevation?: number, fov?: number}} camera
 */
export function cameraKey(camera) {
  const { lat, lon, zoom, bearing = 0, tilt = 0, roll = 0, elevation = 0, fov = DEFAULT_FOV } = camera;
  return [lat, lon, zoom, bearing, tilt, roll, elevation, fov].join(',');
}

/** A step's identity for the list: everything it holds (two equal steps are interchangeable rows). */
export function stepKey(step) {
  return JSON.stringify(step);
}

/**
 * How to turn the rows on screen (one per step of `before`) into rows for `after`: each new step keeps an old row
 * that shows the same step (the first unused one, in order), else gets a new row; old rows nobody kept go.
 * @param {object[]} before the steps the rows show now
 * @param {object[]} after the storyboard's steps now
 * @returns {{rows: Array<number|null>, removed: number[]}} `rows[i]`: the old row step i keeps (null: a new row);
 *   `removed`: the old rows to take out, ascending
 */
export function diffSteps(before, after) {
  const free = new Map();
  before.forEach((step, i) => {
    const key = stepKey(step);
    if (!free.has(key)) free.set(key, []);
    free.get(key).push(i);
  });
  const rows = after.map((step) => free.get(stepKey(step))?.shift() ?? null);
  const kept = new Set(rows.filter((r) => r !== null));
  const removed = before.map((_, i) => i).filter((i) => !kept.has(i));
  return { rows, removed };
}

/**
 * The hub's `move` for a row dragged from `from` and dropped before the row that was at `drop` (0…count: `count`
 * is after the last row), or null when the step would stay where it is.
 * @param {number} from
 * @param {number} drop
 * @param {number} count how many steps
 * @returns {{from: number, to: number}|null}
 */
export function dropMove(from, drop, count) {
  if (!validIndex(from, count) || !Number.isInteger(drop) || drop < 0 || drop > count) return null;
  const to = drop > from ? drop - 1 : drop;
  return to === from ? null : { from, to };
}

/**
 * The hub's `move` for a move-up (`delta` -1) or move-down (+1) button on row `from`, or null at either end.
 * @param {number} from
 * @param {number} delta
 * @param {number} count how many steps
 */
export function shiftMove(from, delta, count) {
  const to = from + delta;
  if (!validIndex(from, count) || !validIndex(to, count) || to === from) return null;
  return { from, to };
}

/**
 * The step an in-place edit of its title or notes sends with `update`: the step as the hub has it, with the
 * edited text (trimmed; empty removes it), or null when the edit changes nothing.
 * @param {object} step the step as the hub answered it
 * @param {'title'|'notes'} field
 * @param {string} text what the editor holds
 */
export function editedStep(step, field, text) {
  const value = field === 'title' ? text.replace(/\s+/g, ' ').trim() : text.trim();
  if ((step[field] ?? '') === value) return null;
  const edited = { ...step };
  if (value === '') delete edited[field];
  else edited[field] = value;
  return edited;
}

function validIndex(i, count) {
  return Number.isInteger(i) && i >= 0 && i < count;
}
