// What the page shows: the camera last given to the map (and whether it is a
// resting frame's), the last 300 rendered cameras for tests, the map element's
// size and whether the map's style has loaded. Pure: no DOM.

const RENDER_LOG_LENGTH = 300;

export class Screen {
  /** @param {{width: number, height: number}} viewport the map element's size in px */
  constructor(viewport) {
    this.viewport = viewport;
    /** The camera last given to map.jumpTo (wire form), or null. */
    this.rendered = null;
    this.renderedMoving = false;
    /** The seq of the hub frame on screen (null while a prediction is). */
    this.renderedSeq = null;
    this.renderCount = 0;
    /** @type {{t: number, camera: object, rt: number|null, paintAt: number, seq: number|null, drawn: number|null}[]} */
    this.renderLog = [];
    this.mapLoaded = false;
    /** The playout buffer's last sample {camera, time, moving, seq}, or null. */
    this.lastSample = null;
  }

  /** A camera goes on screen at local time `t`; returns its log entry (the map view fills in `drawn`). */
  render(camera, { t, rt, paintAt, seq = null }) {
    this.rendered = camera;
    this.renderCount++;
    const entry = { t, camera, rt, paintAt, seq, drawn: null };
    this.renderLog.push(entry);
    if (this.renderLog.length > RENDER_LOG_LENGTH) this.renderLog.shift();
    return entry;
  }

  /** What the camera on screen is: moving or at rest, and the hub frame it comes from (null: a prediction). */
  showing(moving, seq) {
    this.renderedMoving = moving;
    this.renderedSeq = seq;
  }

  /** Rendered cameras since local time `since`. */
  renders(since = 0) {
    return this.renderLog.filter((r) => r.t >= since);
  }

  /** True when the rendered camera is a resting frame's and `lastFrame` (the hub's newest, or null) is that frame. */
  settled(lastFrame) {
    if (!this.rendered || this.renderedMoving) return false;
    return lastFrame === null || (!lastFrame.moving && this.renderedSeq === lastFrame.seq);
  }

  /** A new size of the map element; false when it is the same. */
  resize(width, height) {
    if (width === this.viewport.width && height === this.viewport.height) return false;
    this.viewport = { width, height };
    return true;
  }
}
