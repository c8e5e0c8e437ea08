// Rolling the room's camera from the page: the roll a Ctrl+Shift drag asks for
// (as MapLibre GL JS 5's own mouse roll: the picture turns with the pointer),
// kept within the room's `maxRoll`, and `Throttle`, which sends the newest of
// a stream of values at most so often (the drag and the roll slider send `set
// {roll}` at most 30 times a second, like the laser pointer). Pure: pointer
// positions (px), times (ms) and timers are passed in.

import { normalizeRoll } from '../../../clients/js/src/geo/projection.js';

/** Degrees of roll per pixel dragged sideways: MapLibre's `rollDegreesPerPixelMoved`. */
export const ROLL_DEGREES_PER_PIXEL = 0.3;

/** `set {roll}` messages of a drag or the slider go out at most this often (ms): 30 a second. */
export const ROLL_SEND_EVERY_MS = 33;

/**
 * `roll` (degrees) as the room keeps it: wrapped into −180…180 (the short way round, as the hub does), and
 * within ±`maxRoll` (the room's limit, 0…180; 180: no limit).
 */
export function clampRoll(roll, maxRoll = 180) {
  const r = normalizeRoll(roll);
  return maxRoll >= 180 ? r : Math.min(Math.max(r, -maxRoll), maxRoll);
}

/**
 * One roll drag: from the camera's roll when the button went down, each pixel the pointer moves sideways turns
 * the picture ROLL_DEGREES_PER_PIXEL with it — to the right, counter-clockwise (roll grows) below the view
 * centre and clockwise above it, as the rim of a wheel under the pointer would (MapLibre's mouse roll).
 */
export class RollDrag {
  /**
   * @param {object} o
   * @param {number} o.x where the pointer went down (px from the map's left)
   * @param {number} o.roll the camera's roll then (degrees; 0 when it has none)
   * @param {number} o.centreY the view centre's y (px from the map's top)
   * @param {number} [o.maxRoll] the room's limit (degrees, default 180: none)
   * @param {number} [o.degreesPerPixel]
   */
  constructor({ x, roll, centreY, maxRoll = 180, degreesPerPixel = ROLL_DEGREES_PER_PIXEL }) {
    this.x = x;
    this.roll = clampRoll(roll, maxRoll);
    this.centreY = centreY;
    this.maxRoll = maxRoll;
    this.degreesPerPixel = degreesPerPixel;
  }

  /** The pointer is at (x, y) px: the roll (degrees) the drag asks for now. */
  move(x, y) {
    let delta = (x - this.x) * this.degreesPerPixel;
    if (y < this.centreY) delta = -delta;
    this.x = x;
    this.roll = clampRoll(this.roll + delta, this.maxRoll);
    return this.roll;
  }
}

/**
 * The newest of a stream of values, handed to `send` at most once every `everyMs`: the first at once, later
 * ones when the interval since the last send is up (only the newest of those that came meanwhile), so the
 * last value is always sent. `flush` sends what waits now (a drag's release); `cancel` drops it.
 */
export class Throttle {
  /**
   * @param {object} o
   * @param {number} o.everyMs
   * @param {(value: any) => void} o.send
   * @param {() => number} o.now the clock (ms)
   * @param {{setTimeout: Function, clearTimeout: Function}} [o.timers] default: the global ones
   */
  constructor({ everyMs, send, now, timers }) {
    this.everyMs = everyMs;
    this.send = send;
    this.now = now;
    this.timers = timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) };
    this.lastSentAt = -Infinity;
    this.waiting = false;
    this.value = undefined;
    this.timer = null;
  }

  /** A new value: sent now when the interval since the last send is up, else when it is (if still the newest). */
  push(value) {
    this.value = value;
    this.waiting = true;
    const wait = this.lastSentAt + this.everyMs - this.now();
    if (wait <= 0) this.flush();
    else if (this.timer === null) this.timer = this.timers.setTimeout(() => this.flush(), wait);
  }

  /** Sends the waiting value now (nothing when none waits). */
  flush() {
    this.stopTimer();
    if (!this.waiting) return;
    this.waiting = false;
    this.lastSentAt = this.now();
    this.send(this.value);
  }

  /** Drops the waiting value. */
  cancel() {
    this.stopTimer();
    this.waiting = false;
  }

  stopTimer() {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
