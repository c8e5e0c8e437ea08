// The follower's playout clock (an adaptive jitter buffer's delay) and the
// paint-time predictor. Pure: no DOM, no timers; every time is an argument
// (local ms, one clock throughout, e.g. performance.timeOrigin + performance.now()).
//
// Playout. A frame stamped `time` (hub ms) and received at local `receivedAt`
// gives raw = receivedAt - time = clock offset + lateness. The clock offset is
// estimated as the smallest raw seen lately (the least-delayed frame). The
// buffer shows the hub's camera for hub time
//
//   renderTime = paintAt - total,      total = offset + delay
//
// and the delay it aims for is
//
//   target delay = p(lateness) + interval + margin
//
// lateness: measured at each sample while the camera moves, as the sample saw
// it: the frame after the newest in hand was due at newest.time + interval
// (hub), and it was not there when the camera for the paint at `paintAt` was
// computed, so it is paintAt - offset - (newest.time + interval) late by that
// paint (0 when it is not due by then): the sample is dry exactly when this
// exceeds delay - interval. It includes the paint lead (paintAt - now, see
// FramePacer: a frame must have arrived by the time the camera is computed,
// not by the time it is shown), so a few slow draws are ranked like late
// frames rather than moving the target directly.
// p: a high percentile (default 99.5th) of the recent samples' lateness, so
// that almost no sample is without the frame it needs; interval: the expected
// hub time between moving frames. Lateness is counted per
// sample, not per frame: when the page's main thread stalls (a long draw, new
// tiles after a jump) the frames queue up and are handled a second late
// together, but nothing was painted meanwhile; ranked per frame, a one-off
// stall would be the allowance for the next hundred frames, while per sample
// it is one sample (the first paint after the stall). The single largest
// sample of the window is never the allowance.
//
// The delay is held steady: the clock aims at a *goal* that follows the
// target only when the target leaves a band below it: the goal is the target
// plus `growBand` of headroom, set when the target rises past the goal or
// falls `shrinkBand` below that headroom, and held in between, so
// the percentile's small ups and downs do not move the
// picture's delay. (A delay that wanders by 10 ms shifts a camera turning 30°/s
// by ~2 px on screen: measured against the hub's path with one constant delay,
// that is error.)
//
// `total` never jumps while the camera moves: it follows the goal by
// time-stretching, i.e. the playout clock runs at most `maxSlowdown` slower or
// `maxSpeedup` faster than real time (speed proportional to the remaining
// difference, so it eases in, and at least 1 % so that it arrives). While the picture rests on a final
// frame a change of delay is invisible, so it is applied at once (as far as it
// stays past that frame).
//
// The interval starts from the rate the page asked for (1000 / rate) and is
// then the mean of recent intervals between two consecutive *moving* frames;
// the gap before a resting frame or after one is not an interval.

export const PLAYOUT_DEFAULTS = {
  rate: 30, // frames per second asked for: the first interval guess
  percentile: 0.995, // (nearest rank; with the largest skipped, the second largest of a full window)
  latenessWindow: 240, // samples whose lateness is ranked
  offsetWindow: 600, // frames over which the smallest raw offset is taken
  initialJitterMs: 60, // lateness allowance until minSamples samples were seen
  minSamples: 20,
  intervalWindow: 20, // moving intervals averaged (the last 4 alone may widen it sooner)
  minIntervalMs: 4,
  maxIntervalMs: 1000,
  marginMs: 2,
  growBandMs: 10, // headroom above the target when the goal is set: max(growBandMs, growBand × interval) ...
  growBand: 0.2,
  shrinkBandMs: 15, // ... set again when the target is max(shrinkBandMs, shrinkBand × interval) below that
  shrinkBand: 0.25,
  maxSpeedup: 0.05, // playout clock at most 5 % fast (delay shrinking) ...
  maxSlowdown: 0.1, // ... or 10 % slow (delay growing: late frames are worse than latency)
  stretchTauMs: 200, // stretch speed = difference / tau, within the limits above ...
  minStretch: 0.01, // ... and at least 1 %, so that it arrives soon
  leadSmoothing: 0.1,
};

/**
 * The q-quantile (0..1) of `values` (nearest rank on a sorted copy); 0 for
 * none. `skipLargest`: at most the (skipLargest+1)-th largest (while there are
 * more values than that), so that one outlier is never the answer.
 */
export function percentile(values, q, skipLargest = 0) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  let rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  if (sorted.length > skipLargest) rank = Math.min(rank, sorted.length - 1 - skipLargest);
  return sorted[rank];
}

export class PlayoutClock {
  constructor(options = {}) {
    this.options = { ...PLAYOUT_DEFAULTS, ...options };
    this.rate = this.options.rate;
    this.reset();
  }

  /** Forgets every measurement (keeps the rate). */
  reset() {
    this.raws = []; // receivedAt - time, newest last (offsetWindow long)
    this.lateness = []; // lateness seen by samples while moving (local now - expected arrival), newest last
    this.intervals = []; // hub ms between consecutive moving frames
    this.lead = null; // smoothed paintAt - now
    this.total = null; // current local-minus-render offset (null until the first advance)
    this.goal = null; // the local-minus-render offset aimed for (the target, held within its bands)
    this.lastNow = null;
    this.cachedTarget = null;
  }

  /** The rate (frames/s) asked for or granted; it replaces the interval measurements. */
  setRate(rate) {
    if (!(Number.isFinite(rate) && rate > 0)) return;
    if (rate !== this.rate) this.intervals = [];
    this.rate = rate;
    this.cachedTarget = null;
  }

  /** Records a hub message stamped `time` received at local `receivedAt` (for the clock offset). */
  observe(time, receivedAt) {
    if (!Number.isFinite(time) || !Number.isFinite(receivedAt)) return;
    this.raws.push(receivedAt - time);
    if (this.raws.length > this.options.offsetWindow) this.raws.shift();
    this.cachedTarget = null;
  }

  /**
   * Records what a sample for a frame painted at local `paintAt` saw while the
   * camera moves: `newest` is the hub time of the newest frame in hand (a
   * moving one, so another is due one interval later). Ranked: how late that
   * frame is by the paint time, 0 if it is not due by then. (The sample is
   * dry when this exceeds delay - interval.)
   */
  observeSample(paintAt, newest) {
    const offset = this.clockOffset;
    if (offset === null || !Number.isFinite(paintAt) || !Number.isFinite(newest)) return;
    this.lateness.push(Math.max(0, paintAt - offset - (newest + this.interval)));
    if (this.lateness.length > this.options.latenessWindow) this.lateness.shift();
    this.cachedTarget = null;
  }

  /** Records the hub time between two consecutive moving frames. */
  observeInterval(dt) {
    const o = this.options;
    if (!(dt > 0)) return;
    this.intervals.push(Math.min(o.maxIntervalMs, Math.max(o.minIntervalMs, dt)));
    if (this.intervals.length > o.intervalWindow) this.intervals.shift();
    this.cachedTarget = null;
  }

  /** Expected hub ms between moving frames. */
  get interval() {
    const n = this.intervals.length;
    if (n === 0) return 1000 / this.rate;
    const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const all = mean(this.intervals);
    return n >= 4 ? Math.max(all, mean(this.intervals.slice(-4))) : all;
  }

  /** Local clock minus hub clock as the least-delayed recent frame shows it (null before any). */
  get clockOffset() {
    if (this.raws.length === 0) return null;
    let min = Infinity;
    for (const r of this.raws) if (r < min) min = r;
    return min;
  }

  /**
   * The lateness allowance: a high percentile of the lateness recent samples
   * saw by their paint times (ms), never their single largest; until
   * minSamples samples, at least initialJitterMs plus the paint lead.
   */
  get jitter() {
    const o = this.options;
    const recent = this.lateness;
    const p = percentile(recent, o.percentile, 1);
    return recent.length < o.minSamples ? Math.max(p, o.initialJitterMs + (this.lead ?? 0)) : p;
  }

  /** The delay aimed for (ms behind the hub clock, beyond the clock offset). */
  get targetDelay() {
    if (this.lateness.length < this.options.minSamples) return this.jitter + this.interval + this.options.marginMs;
    if (this.cachedTarget === null) this.cachedTarget = this.jitter + this.interval + this.options.marginMs;
    return this.cachedTarget;
  }

  /** The delay aimed for now (the target held within its bands; null before the first advance). */
  get goalDelay() {
    const offset = this.clockOffset;
    return this.goal === null || offset === null ? null : this.goal - offset;
  }

  /** The headroom (ms) above the target when the goal is set. */
  get growBand() {
    return Math.max(this.options.growBandMs, this.options.growBand * this.interval);
  }

  /** How far the target may fall below goal − headroom (ms) before the goal follows it. */
  get shrinkBand() {
    return Math.max(this.options.shrinkBandMs, this.options.shrinkBand * this.interval);
  }

  /** The delay in use now (ms behind the hub clock, beyond the clock offset; null before the first frame). */
  get delay() {
    const offset = this.clockOffset;
    return this.total === null || offset === null ? null : this.total - offset;
  }

  /**
   * Moves the playout clock to local time `now` for a frame painted at
   * `paintAt`; returns the hub time to show. `restingAt` (optional) is the hub
   * time of a final resting frame the picture may rest on: while the render
   * time is past it, the delay may change at once (up to staying past it).
   */
  advance(now, paintAt = now, restingAt = null) {
    const o = this.options;
    const lead = Math.max(0, paintAt - now);
    this.lead = this.lead === null ? lead : this.lead + (lead - this.lead) * o.leadSmoothing;
    const offset = this.clockOffset;
    if (offset === null) return null;
    const aim = offset + this.targetDelay;
    // the goal is never below the target: it grows to the target plus growBand of headroom as soon as the
    // target passes it, and comes down to that once the target is shrinkBand below the headroom
    if (this.goal === null || aim > this.goal || aim + this.growBand < this.goal - this.shrinkBand) this.goal = aim + this.growBand;
    const target = this.goal;
    if (this.total === null) {
      this.total = target;
    } else {
      const dt = this.lastNow === null ? 0 : Math.min(1000, Math.max(0, now - this.lastNow));
      const resting = restingAt !== null && paintAt - this.total >= restingAt;
      if (resting) {
        // Invisible while resting: shrink at once, grow as far as the rest frame allows.
        this.total = target <= this.total ? target : Math.max(this.total, Math.min(target, paintAt - restingAt));
      } else {
        const diff = target - this.total;
        // proportional (eases in and out), at least minStretch so that it arrives
        const wanted = Math.sign(diff) * Math.max(o.minStretch, Math.abs(diff) / o.stretchTauMs);
        const speed = Math.min(o.maxSlowdown, Math.max(-o.maxSpeedup, wanted));
        const step = speed * dt;
        // never step past the target
        this.total = Math.abs(step) >= Math.abs(target - this.total) ? target : this.total + step;
      }
    }
    this.lastNow = now;
    return paintAt - this.total;
  }
}

/**
 * Predicts when a camera handed to the map now will be on screen. When the
 * page draws the map synchronously right after setting the camera it reports
 * each draw's duration (`drawn`), and the paint time is now + the median of
 * the last few draws. Otherwise the map draws on the next animation frame, and
 * the paint time is now + the median of the last three frame intervals (it
 * follows a page that turns slow while tiles load within two frames, and
 * ignores a single long frame). Frame-to-frame noise it cannot predict.
 */
export class FramePacer {
  constructor({ window = 3, drawWindow = 5, defaultMs = 1000 / 60, minMs = 4, maxMs = 200 } = {}) {
    this.window = window;
    this.drawWindow = drawWindow;
    this.defaultMs = defaultMs;
    this.minMs = minMs;
    this.maxMs = maxMs;
    this.reset();
  }

  reset() {
    this.last = null;
    this.durations = [];
    this.draws = [];
    this.cached = null;
    this.cachedDraw = null;
  }

  /** Records an animation frame at local time `t`. Gaps over maxMs (a hidden tab) are not frame times. */
  tick(t) {
    if (this.last !== null) {
      const d = t - this.last;
      if (d >= this.minMs && d <= this.maxMs) {
        this.durations.push(d);
        if (this.durations.length > this.window) this.durations.shift();
        this.cached = null;
      }
    }
    this.last = t;
  }

  /** Records how long a synchronous draw of the map took (ms). */
  drawn(ms) {
    if (!(ms >= 0) || ms > 1000) return;
    this.draws.push(ms);
    if (this.draws.length > this.drawWindow) this.draws.shift();
    this.cachedDraw = null;
  }

  /** Typical time between animation frames (ms). */
  get frameMs() {
    if (this.durations.length === 0) return this.defaultMs;
    if (this.cached === null) this.cached = percentile(this.durations, 0.5);
    return this.cached;
  }

  /** Typical synchronous draw (ms; null before the first). */
  get drawMs() {
    if (this.draws.length === 0) return null;
    if (this.cachedDraw === null) this.cachedDraw = percentile(this.draws, 0.5);
    return this.cachedDraw;
  }

  /** When a camera set at local `now` will be on screen. */
  paintTime(now) {
    const draw = this.drawMs;
    return now + (draw === null ? this.frameMs : draw);
  }
}
