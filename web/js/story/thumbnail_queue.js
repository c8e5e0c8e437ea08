// Thumbnails of storyboard steps, the bookkeeping only (pure): one render at a
// time, in the order they were asked for, each camera rendered once and kept
// (up to `capacity`, the least recently used going first), and requests no
// row wants any more dropped before they start. The render itself is passed
// in (map/thumbnail_map.js: a small hidden MapLibre map).

export class ThumbnailQueue {
  /**
   * @param {object} parts
   * @param {(camera: object) => Promise<string>} parts.render the picture of `camera` (a data URL)
   * @param {number} [parts.capacity] thumbnails kept (default 200: twice the hub's 100 steps)
   */
  constructor({ render, capacity = 200 }) {
    this.render = render;
    this.capacity = capacity;
    /** key → data URL, oldest use first. */
    this.done = new Map();
    /** key → {camera, waiters: [(url) => void]}, in the order asked. */
    this.waiting = new Map();
    /** The key being rendered, or null. */
    this.busy = null;
    /** How many renders ran (tests and the test hook read it). */
    this.renders = 0;
    /** How many renders failed (their rows keep no picture). */
    this.failures = 0;
  }

  /**
   * Calls `show(url)` with the picture of `camera` under `key`: at once when it was rendered before, else once its
   * turn has come and it rendered. A failed render calls nothing.
   * @param {string} key
   * @param {object} camera
   * @param {(url: string) => void} show
   */
  request(key, camera, show) {
    const url = this.done.get(key);
    if (url !== undefined) {
      this.done.delete(key);
      this.done.set(key, url); // most recently used
      show(url);
      return;
    }
    const entry = this.waiting.get(key) ?? (this.busy?.key === key ? this.busy : null);
    if (entry) entry.waiters.push(show);
    else this.waiting.set(key, { key, camera, waiters: [show] });
    this.next();
  }

  /** Drops the requests whose keys are not in `keys` and have not started (their rows went). */
  retain(keys) {
    for (const key of [...this.waiting.keys()]) if (!keys.has(key)) this.waiting.delete(key);
  }

  /** How many wait for their turn (the one rendering not counted). */
  get pending() {
    return this.waiting.size;
  }

  /** Starts the oldest waiting render when none runs. */
  next() {
    if (this.busy || this.waiting.size === 0) return;
    const [key, entry] = this.waiting.entries().next().value;
    this.waiting.delete(key);
    this.busy = entry;
    this.renders += 1;
    Promise.resolve()
      .then(() => this.render(entry.camera))
      .then((url) => this.finished(entry, url), () => this.finished(entry, null));
  }

  finished(entry, url) {
    this.busy = null;
    if (url === null) this.failures += 1;
    else {
      this.done.set(entry.key, url);
      while (this.done.size > this.capacity) this.done.delete(this.done.keys().next().value);
      for (const show of entry.waiters) show(url);
    }
    this.next();
  }
}
