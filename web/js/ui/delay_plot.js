// The follower's frame-delay plot: the last minute of frame latency (how late
// frames arrive), playout delay (how far behind the hub the picture is drawn),
// frames per second and the playout clock's re-syncs (a mark where the delay
// changed at once: an underrun, a tab that slept, a clock step), drawn on a small canvas with the 2D API (no chart
// library). Sampling is pure (times passed in, local ms); `draw` only issues
// canvas calls, so a test can hand it a recording context.

/** One minute of samples, at most one every `stepMs`. */
export class DelayPlot {
  constructor({ windowMs = 60_000, stepMs = 250 } = {}) {
    this.windowMs = windowMs;
    this.stepMs = stepMs;
    this.points = []; // {t, latency, delay, fps, resync}; null for a value not known then
    this.resyncs = null; // the playout clock's re-sync count at the last sample
  }

  /**
   * Records a sample at local time `t` (ms); ignored if the last one is newer than `stepMs`.
   * `resyncs`: the playout clock's count of re-syncs; a sample after it grew is marked `resync`.
   */
  add(t, { latency = null, delay = null, fps = null, resyncs = null } = {}) {
    const last = this.points[this.points.length - 1];
    if (last && t - last.t < this.stepMs) return false;
    const resync = Number.isFinite(resyncs) && this.resyncs !== null && resyncs > this.resyncs;
    if (Number.isFinite(resyncs)) this.resyncs = resyncs;
    this.points.push({ t, latency: finite(latency), delay: finite(delay), fps: finite(fps), resync });
    while (this.points.length && this.points[0].t < t - this.windowMs) this.points.shift();
    return true;
  }

  /** The scale of the delay axis: the largest delay or latency shown, rounded up to 50 ms (at least 100). */
  delayScale() {
    let top = 0;
    for (const p of this.points) top = Math.max(top, p.latency ?? 0, p.delay ?? 0);
    return Math.max(100, Math.ceil(top / 50) * 50);
  }

  /**
   * Draws the window ending at `t` on `ctx` (a CanvasRenderingContext2D or
   * anything with the same methods), `width` × `height` px: delay and latency
   * against the left scale (ms), frames per second against 0–60 on the right, a
   * re-sync as a red line across the plot.
   */
  draw(ctx, width, height, t) {
    ctx.clearRect(0, 0, width, height);
    const scale = this.delayScale();
    const x = (pt) => width - ((t - pt.t) / this.windowMs) * width;
    ctx.strokeStyle = '#c62828';
    ctx.lineWidth = 1;
    for (const p of this.points) {
      if (!p.resync) continue;
      ctx.beginPath();
      ctx.moveTo(x(p), 0);
      ctx.lineTo(x(p), height);
      ctx.stroke();
    }
    const series = [
      ['delay', '#2b7bb9', scale],
      ['latency', '#e08a1e', scale],
      ['fps', '#3a9a48', 60],
    ];
    ctx.lineWidth = 1.5;
    for (const [key, color, top] of series) {
      ctx.strokeStyle = color;
      ctx.beginPath();
      let pen = false;
      for (const p of this.points) {
        if (p[key] === null) { pen = false; continue; }
        const y = height - Math.min(1, p[key] / top) * (height - 2) - 1;
        if (pen) ctx.lineTo(x(p), y); else ctx.moveTo(x(p), y);
        pen = true;
      }
      ctx.stroke();
    }
    ctx.fillStyle = '#555';
    ctx.font = '10px sans-serif';
    ctx.fillText(`${scale} ms`, 2, 10);
    ctx.fillText('60 fps', width - 34, 10);
  }
}

function finite(v) {
  return Number.isFinite(v) ? v : null;
}
