// The room's laser pointer as the page draws it: the newest position with a
// short trail behind it that fades out. Positions are geo points, so the trail
// stays on the map while the camera moves. Pure: times (ms) are passed in.

/** How long a trail point stays visible (ms). */
export const TRAIL_MS = 600;
/** Trail points kept at most. */
const MAX_POINTS = 40;

export class PointerTrail {
  constructor({ trailMs = TRAIL_MS } = {}) {
    this.trailMs = trailMs;
    /** @type {{lat: number, lon: number, t: number}[]} oldest first */
    this.points = [];
    /** The pointer now ({lat, lon, by}), or null when nobody points. */
    this.current = null;
  }

  /**
   * A frame's pointer at local time `t`: {lat, lon, by} while shown, null once
   * hidden (a frame without one means the same).
   */
  update(pointer, t) {
    if (!pointer) {
      this.current = null;
      return;
    }
    const last = this.points.at(-1);
    if (!last || last.lat !== pointer.lat || last.lon !== pointer.lon) {
      this.points.push({ lat: pointer.lat, lon: pointer.lon, t });
      if (this.points.length > MAX_POINTS) this.points.shift();
    }
    this.current = { ...pointer };
  }

  /**
   * What to draw at `t`: the dot (the current pointer, or null) and the trail
   * [{lat, lon, alpha}] oldest first, alpha 0…1 fading with age. Forgets what
   * has faded.
   */
  sample(t) {
    while (this.points.length && t - this.points[0].t > this.trailMs) this.points.shift();
    const trail = this.points.map((p) => ({ lat: p.lat, lon: p.lon, alpha: Math.max(0, 1 - (t - p.t) / this.trailMs) }));
    return { dot: this.current, trail };
  }
}
