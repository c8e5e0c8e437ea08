// The follower's playout clock (an adaptive jitter buffer's delay) and the
// paint-time predictor. Pure: no DOM, no timers; every time is an argument
// (local ms, one clock throughout, e.g. performance.timeOrigin + performance.now()).
//
// Playout. A frame stamped `time` (hub ms) and received at local `receivedAt`
// gives raw = receivedAt - time = clock offset + lateness. The clock offset is
// estimated as the smallest raw seen lately (the least-delayed frame). The
// buffer shows, for a display frame at `displayAt` that is on screen at
// paintAt = displayAt + lead, the hub's camera for hub time
//
//   renderTime = displayAt - total,    total = offset + delay - lead
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
// exceeds delay - interval. It includes the paint lead (see FramePacer: a
// frame must have arrived by the time the camera is computed, not by the time
// it is shown), so a few slow frames are ranked like late frames rather than
// moving the target directly.
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
// The delay aimed for is held steady: the *goal* follows the target only when
// the target leaves a band below it: it is the target plus `growBand` of
// headroom, set at once when the target rises past the goal, and brought down
// to that when the target is `shrinkBand` below the headroom, but not within
// `shrinkHoldMs` of the goal's last growth (a delay grows quickly and shrinks
// slowly). (A delay that wanders by 10 ms shifts a camera turning 30°/s by
// ~2 px on screen.)
//
// The playout clock plays hub time at a speed within 1 ± `maxRateChange` (3 %)
// of real (display) time, rest or motion alike, so a resting frame and the
// motion after it are played on the same clock. At most once every
// `speedUpdateMs` it picks a new speed from how far the delay is from the goal
// (1 within `deadbandMs`, else 1 + `speedGain` per second of difference,
// within the bound) and ramps to it over `speedRampMs`; on reaching the goal it
// goes back to 1. Anything larger is a *re-sync*, counted and logged
// (`resyncs`, `resyncLog`), never a drift:
// - a difference larger than `resyncMs` (a clock step) or display frames more
//   than `sleepMs` apart (a tab that slept): a shorter delay is skipped to at
//   once; for a longer one the render time stands still until it is there
//   (hub time never runs backwards);
// - an underrun (`underrun`, called by the buffer): the goal grows at once by
//   up to `underrunGrowth` intervals to cover the lateness the dry sample saw,
//   and when the delay is more than the dead band short of it the render time
//   stands still until it is there;
// - an underrun that outlasts the extrapolation allowance (`limit`: the render
//   time may go two intervals past the newest moving frame) on a second display
//   frame running: the clock holds the render time there until frames come
//   (the delay grows by the stall, at most `maxStallMs`), and the goal becomes
//   that delay. (A single frame past it is the page's own stall, its frames
//   queued but not yet handled: not the frames' lateness.)
//
// The clock runs on display time: `advance(displayAt, lead)` takes the display
// frame's timestamp (the animation-frame callback's, not the time the code
// runs) and how long after it the frame is on screen (`lead`, FramePacer); the
// lead is part of the goal, so a change of it is played in like any change of
// delay, within the speed bound.
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
  shrinkBandMs: 15, // ... lowered when the target is max(shrinkBandMs, shrinkBand × interval) below that ...
  shrinkBand: 0.25,
  shrinkHoldMs: 10000, // ... but not within this long of its last growth
  maxRateChange: 0.03, // the playout clock runs at 0.97…1.03 of real time
  speedGain: 0.8, // speed - 1 per second of difference from the goal (37.5 ms: the bound)
  deadbandMs: 20, // no speed change for a difference under this
  speedUpdateMs: 1000, // a new speed at most this often
  speedRampMs: 300, // ramped to linearly over this
  resyncMs: 250, // a larger difference is closed at once (a re-sync)
  underrunGrowth: 1, // intervals an underrun may raise the goal by at once
  maxStallMs: 250, // how far a stall past the extrapolation allowance may grow the delay
  sleepMs: 1000, // display frames further apart than this: the tab slept (a re-sync)
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
    this.resyncs = 0;
    /** The re-syncs of the last minutes: {at (display ms), from, to (delay ms), why}, newest last. */
    this.resyncLog = [];
    this.reset();
  }

  /** Forgets every measurement (keeps the rate and the count of re-syncs). */
  reset() {
    this.raws = []; // receivedAt - time, newest last (offsetWindow long)
    this.lateness = []; // lateness seen by samples while moving, newest last
    this.intervals = []; // hub ms between consecutive moving frames
    this.lead = null; // the lead of the last advance (display to paint, ms)
    this.total = null; // displayAt - renderTime (null until the first advance)
    this.goal = null; // the delay aimed for (ms behind the hub clock at paint time, beyond the clock offset)
    this.holdUntil = null; // display time before which the goal does not come down
    this.shrinking = false; // the goal is on its way down to the target plus headroom
    this.speed = 1; // the playout clock's speed now (hub ms per display ms)
    this.speedTo = 1; // the speed it ramps to
    this.speedFrom = 1;
    this.speedAt = null; // display time the ramp to speedTo began
    this.decidedAt = null; // display time of the last speed decision
    this.lastAt = null; // display time of the last advance
    this.stall = null; // 'holding' at the limit (an underrun past the extrapolation allowance), 'done' (held maxStallMs)
    this.stalled = false; // holding now
    this.wasPast = false; // the last advance was past the limit
    this.stallFrom = null; // total when the stall began
    this.freezeTo = null; // the total a re-sync to a longer delay waits for (the render time stands still)
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

  /** The delay aimed for (ms behind the hub clock at paint time, beyond the clock offset). */
  get targetDelay() {
    if (this.lateness.length < this.options.minSamples) return this.jitter + this.interval + this.options.marginMs;
    if (this.cachedTarget === null) this.cachedTarget = this.jitter + this.interval + this.options.marginMs;
    return this.cachedTarget;
  }

  /** The delay aimed for now (the target held within its bands; null before the first advance). */
  get goalDelay() {
    return this.goal;
  }

  /** The headroom (ms) above the target when the goal is set. */
  get growBand() {
    return Math.max(this.options.growBandMs, this.options.growBand * this.interval);
  }

  /** How far the target may fall below goal − headroom (ms) before the goal may follow it. */
  get shrinkBand() {
    return Math.max(this.options.shrinkBandMs, this.options.shrinkBand * this.interval);
  }

  /** The delay in use now: paint time minus the hub time shown, beyond the clock offset (null before the first frame). */
  get delay() {
    const offset = this.clockOffset;
    return this.total === null || offset === null ? null : this.total + (this.lead ?? 0) - offset;
  }

  /**
   * Sets the goal from the target: to the target plus headroom at once when the target rises past it,
   * down to that once the target plus headroom is shrinkBand below it and the goal has not grown for
   * shrinkHoldMs (after an underrun or a rising target; the first guess, before minSamples samples, is
   * not held).
   */
  updateGoal(at) {
    const target = this.targetDelay;
    if (this.goal === null || target > this.goal) {
      this.goal = target + this.growBand;
      this.shrinking = false;
      if (this.lateness.length >= this.options.minSamples) this.holdUntil = at + this.options.shrinkHoldMs;
    } else if ((target + this.growBand < this.goal - this.shrinkBand || (this.shrinking && target + this.growBand < this.goal))
      && !(at < this.holdUntil)) {
      // at most half a re-sync below the delay in use (a lower goal is played in within the speed bound), so
      // it may take a few steps, each lower as the delay comes down
      const now = this.delay ?? this.goal;
      this.goal = Math.max(target + this.growBand, Math.min(this.goal, now - this.options.resyncMs / 2));
      this.shrinking = this.goal > target + this.growBand;
    }
  }

  /**
   * The buffer ran dry (a sample past the newest moving frame): the goal grows at once to cover the
   * lateness that sample saw, by at most `underrunGrowth` intervals; a delay more than the dead band short
   * of it is a re-sync (the render time stands still until it is there), a smaller one is played in from
   * the next advance. (The single largest lateness is never the allowance, but an underrun is not left to
   * the percentile.)
   */
  underrun() {
    if (this.goal === null || this.total === null) return;
    const o = this.options;
    const seen = this.lateness.length ? this.lateness[this.lateness.length - 1] : 0;
    const need = seen + this.interval + o.marginMs + this.growBand;
    const cap = Math.max(this.goal, this.delay) + o.underrunGrowth * this.interval;
    if (need > this.goal) this.goal = Math.min(need, cap);
    this.holdUntil = (this.lastAt ?? 0) + this.options.shrinkHoldMs;
    this.decidedAt = null;
    // more than the dead band short of it: a re-sync now (the render time stands still until the delay is
    // there) rather than seconds of playing slow into more underruns
    const short = this.goal - this.delay;
    if (short > o.deadbandMs && this.freezeTo === null) {
      this.resync(this.lastAt, this.delay, this.goal, 'underrun');
      this.freezeTo = this.total + short;
      this.stalled = true;
    }
  }

  /** A declared re-sync: the delay changes at once from `from` to `to` (ms). */
  resync(at, from, to, why) {
    this.resyncs++;
    this.resyncLog.push({ at, from, to, why });
    while (this.resyncLog.length > 100) this.resyncLog.shift();
    this.speed = this.speedFrom = this.speedTo = 1;
    this.speedAt = at;
    this.decidedAt = at;
  }

  /** The speed at display time `at`: ramping linearly from speedFrom to speedTo over speedRampMs after speedAt. */
  speedAtTime(at) {
    if (this.speedAt === null) return this.speedTo;
    const u = Math.min(1, Math.max(0, (at - this.speedAt) / this.options.speedRampMs));
    return this.speedFrom + (this.speedTo - this.speedFrom) * u;
  }

  /** Chooses the speed toward the goal: at most once per speedUpdateMs, or 1 at once on reaching it. */
  steer(at) {
    const o = this.options;
    const diff = this.delay - this.goal; // > 0: later than aimed for: play faster
    const reached = (this.speedTo > 1 && diff <= 0) || (this.speedTo < 1 && diff >= 0);
    const due = this.decidedAt === null || at - this.decidedAt >= o.speedUpdateMs;
    if (!reached && !due) return;
    let wanted = 1;
    if (!reached && Math.abs(diff) > o.deadbandMs) {
      wanted = 1 + Math.min(o.maxRateChange, Math.max(-o.maxRateChange, (o.speedGain * diff) / 1000));
    }
    this.decidedAt = at;
    if (wanted === this.speedTo) return;
    this.speedFrom = this.speedAtTime(at);
    this.speedTo = wanted;
    this.speedAt = at;
  }

  /**
   * Moves the playout clock to display time `displayAt` (the display frame's
   * timestamp) for a frame on screen `lead` ms later; returns the hub time to
   * show. `limit` (optional): the latest hub time the frames in hand allow
   * (the newest moving frame plus the extrapolation allowance): the clock
   * holds there (an underrun; the delay grows by the stall, a re-sync).
   */
  advance(displayAt, lead = 0, limit = Infinity) {
    const o = this.options;
    const offset = this.clockOffset;
    this.lead = Math.max(0, lead);
    if (offset === null) return null;
    this.updateGoal(displayAt);
    const goalTotal = offset + this.goal - this.lead; // the total that puts the paint at the goal
    if (this.total === null) {
      this.total = goalTotal;
    } else {
      const dt = this.lastAt === null ? 0 : displayAt - this.lastAt;
      if (dt > o.sleepMs) {
        const from = this.delay;
        this.total = goalTotal;
        this.freezeTo = null;
        this.resync(displayAt, from, this.delay, 'slept');
      } else if (this.freezeTo !== null) {
        // a re-sync to a longer delay: the render time stands still until the delay is there
        this.total = Math.min(this.freezeTo, this.total + Math.max(0, dt));
        if (this.total >= this.freezeTo) this.freezeTo = null;
      } else if (dt > 0) {
        // the speed ramps linearly within the step: its mean over it
        const s0 = this.speedAtTime(this.lastAt);
        const s1 = this.speedAtTime(displayAt);
        this.speed = s1;
        this.total += dt * (1 - (s0 + s1) / 2);
      }
      // far from the goal (a clock step, a much later target): a re-sync, never a jump back in hub time:
      // a shorter delay is skipped to at once, a longer one waited for
      if (this.freezeTo === null && goalTotal - this.total < -o.resyncMs) {
        const from = this.delay;
        this.total = goalTotal;
        this.resync(displayAt, from, this.delay, 'far');
      } else if (this.freezeTo === null && goalTotal - this.total > o.resyncMs) {
        this.resync(displayAt, this.delay, this.delay + (goalTotal - this.total), 'far');
        this.freezeTo = goalTotal;
      }
    }
    // an underrun past the allowance, on a second frame running (one frame past it is a stall of the page's
    // own, its frames not yet handled): hold the render time at the limit, growing the delay by at most maxStallMs
    const past = displayAt - this.total > limit;
    if (!past) this.stall = null;
    if (past && this.wasPast && this.stall !== 'done') {
      if (this.stall === null) {
        this.stall = 'holding';
        this.stallFrom = this.total;
        this.resync(displayAt, this.delay, this.delay + (displayAt - limit - this.total), 'underrun');
      }
      if (displayAt - limit - this.stallFrom > o.maxStallMs) {
        this.stall = 'done'; // (the picture stays where the extrapolation stopped until frames come)
      } else {
        this.total = displayAt - limit;
        // the goal is the delay the stall made (it shrinks only after shrinkHoldMs)
        this.goal = Math.max(this.goal, this.delay);
        this.holdUntil = displayAt + o.shrinkHoldMs;
      }
    }
    this.stalled = this.stall === 'holding' || this.freezeTo !== null;
    if (!this.stalled) this.steer(displayAt);
    this.wasPast = past;
    this.lastAt = displayAt;
    return displayAt - this.total;
  }
}

/**
 * Predicts when a display frame is on screen. `tick(t)` takes each display
 * frame's timestamp (the animation-frame callback's argument, in the page
 * clock: when the frame began, not when the code runs), `drew()` says the
 * page drew the map in that frame. A frame drawn in the callback of frame k is
 * on screen when frame k + 1 begins (the browser starts the next frame once
 * this one is presented), so the lead is the typical time from a frame the
 * page drew to the next one: the median of the last `window` such intervals.
 * Frames in which nothing was drawn (a map at rest runs at the display's rate)
 * do not count, so the lead in motion is not forgotten during a rest. The
 * duration of the synchronous draw (`drawn(ms)`) is kept for the HUD; it is
 * not the paint time (the GPU presents later).
 */
export class FramePacer {
  constructor({ window = 9, drawWindow = 5, defaultMs = 1000 / 60, minMs = 4, maxMs = 1000 } = {}) {
    this.window = window;
    this.drawWindow = drawWindow;
    this.defaultMs = defaultMs;
    this.minMs = minMs;
    this.maxMs = maxMs;
    this.reset();
  }

  reset() {
    this.last = null; // the timestamp of the current frame
    this.lastDrew = false; // whether the page drew in it
    this.durations = [];
    this.draws = [];
    this.cached = null;
    this.cachedDraw = null;
  }

  /**
   * Records a display frame beginning at `t`. Gaps over maxMs (a hidden tab)
   * are not frame times; a timestamp not after the last is the same frame.
   */
  tick(t) {
    if (this.last !== null && !(t > this.last)) return;
    if (this.last !== null && this.lastDrew) {
      const d = t - this.last;
      if (d >= this.minMs && d <= this.maxMs) {
        this.durations.push(d);
        if (this.durations.length > this.window) this.durations.shift();
        this.cached = null;
      }
    }
    this.last = t;
    this.lastDrew = false;
  }

  /** The page drew the map in the current frame (optionally: the synchronous draw took `ms`). */
  drew(ms) {
    this.lastDrew = true;
    if (!(ms >= 0) || ms > 1000) return;
    this.draws.push(ms);
    if (this.draws.length > this.drawWindow) this.draws.shift();
    this.cachedDraw = null;
  }

  /** Typical time (ms) from a display frame the page drew in to the next, when it is on screen. */
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

  /** How long after a display frame begins it is on screen (ms). */
  get lead() {
    return this.frameMs;
  }

  /** When the display frame beginning at `t` will be on screen. */
  paintTime(t) {
    return t + this.lead;
  }
}
