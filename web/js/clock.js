// Hub clock estimation from ping/pong, frame latency and a frames-per-second
// meter. Pure: no timers; the caller passes local times in ms (one clock
// throughout, e.g. performance.timeOrigin + performance.now()).
//
// A ping carries the local send time `t`; the pong echoes it with the hub's
// wall clock `time`. For one exchange received at local time r:
//   rtt    = r - t
//   offset = (t + rtt / 2) - time        local clock minus hub clock
// assuming the hub read its clock half way. The estimate uses the exchange
// with the smallest RTT among the recent ones (the least queued, so the
// tightest bound on the offset). A frame stamped `time` by the hub and
// received at local time r was in flight for about
//   latency = r - time - offset.

export class LatencyEstimator {
  constructor({ window = 8 } = {}) {
    this.window = window;
    this.samples = [];
    this.lastRtt = null;
  }

  reset() {
    this.samples = [];
    this.lastRtt = null;
  }

  /** Records a pong ({t, time}) received at local time `receivedAt`. Returns the sample or null. */
  pong(message, receivedAt) {
    const { t, time } = message;
    if (!Number.isFinite(t) || !Number.isFinite(time)) return null;
    const rtt = receivedAt - t;
    if (!(rtt >= 0) || rtt > 60000) return null; // not ours, or from another clock
    const sample = { rtt, offset: t + rtt / 2 - time, at: receivedAt };
    this.samples.push(sample);
    if (this.samples.length > this.window) this.samples.shift();
    this.lastRtt = rtt;
    return sample;
  }

  get ready() {
    return this.samples.length > 0;
  }

  best() {
    let best = null;
    for (const s of this.samples) if (!best || s.rtt < best.rtt) best = s;
    return best;
  }

  /** Local clock minus hub clock in ms (null before the first pong). */
  get offset() {
    const b = this.best();
    return b ? b.offset : null;
  }

  /** Smallest recent round trip in ms (null before the first pong). */
  get minRtt() {
    const b = this.best();
    return b ? b.rtt : null;
  }

  /** Hub time at local time `now` (null before the first pong). */
  hubTime(now) {
    const o = this.offset;
    return o === null ? null : now - o;
  }

  /** How long a frame stamped `frameTime` (hub ms) took to arrive at local `receivedAt`. */
  frameLatency(frameTime, receivedAt) {
    const o = this.offset;
    return o === null ? null : receivedAt - frameTime - o;
  }
}

/** Counts events in a sliding window: `rate(now)` = events per second over the last `windowMs`. */
export class RateMeter {
  constructor({ windowMs = 1000 } = {}) {
    this.windowMs = windowMs;
    this.times = [];
  }

  reset() {
    this.times = [];
  }

  add(now) {
    this.times.push(now);
    this.trim(now);
  }

  trim(now) {
    const cut = now - this.windowMs;
    let i = 0;
    while (i < this.times.length && this.times[i] <= cut) i++;
    if (i) this.times.splice(0, i);
  }

  rate(now) {
    this.trim(now);
    return (this.times.length * 1000) / this.windowMs;
  }
}

/** Exponential moving average; `add(v)` returns the new mean. */
export class Smoother {
  constructor(weight = 0.1) {
    this.weight = weight;
    this.value = null;
  }

  add(v) {
    if (!Number.isFinite(v)) return this.value;
    this.value = this.value === null ? v : this.value + (v - this.value) * this.weight;
    return this.value;
  }

  reset() {
    this.value = null;
  }
}
