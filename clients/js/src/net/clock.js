// Hub clock estimation from ping/pong, frame latency and a frames-per-second
// meter. Pure: no timers; the caller passes local times in ms (one clock
// throughout, e.g. performance.timeOrigin + performance.now()).
//
// A ping carries the local send time `t`; the pong echoes it with the hub's
// wall clock `time`. For one exchange received at local time r:
//   rtt    = r - t
//   offset = (t + rtt / 2) - time        local clock minus hub clock
// assuming the hub read its clock half way. The estimate uses the exchange
// with the smallest RTT among the recent ones (the least queued). It is then
// kept within what causality allows: the hub read its clock after the ping
// left, so offset >= t - time for every exchange, and every hub message
// stamped `time` arrived after it was stamped, so offset <= r - time for every
// frame (see frame()). A busy page that handles a pong late (a long map
// render) thus cannot push the estimate past a frame that proves it wrong.
// A frame stamped `time` by the hub and received at local time r was in
// flight for about
//   latency = r - time - offset   (>= 0 by construction).

export class LatencyEstimator {
  constructor({ window = 8, frameWindow = 120 } = {}) {
    this.window = window;
    this.frameWindow = frameWindow;
    this.reset();
  }

  reset() {
    this.samples = [];
    this.upper = []; // r - time of recent hub messages (upper bounds of the offset)
    this.lastRtt = null;
  }

  /** Records a timestamped hub message (frame, welcome) received at local `receivedAt`. */
  frame(time, receivedAt) {
    if (!Number.isFinite(time) || !Number.isFinite(receivedAt)) return;
    this.upper.push(receivedAt - time);
    if (this.upper.length > this.frameWindow) this.upper.shift();
  }

  /** Records a pong ({t, time}) received at local time `receivedAt`. Returns the sample or null. */
  pong(message, receivedAt) {
    const { t, time } = message;
    if (!Number.isFinite(t) || !Number.isFinite(time)) return null;
    const rtt = receivedAt - t;
    if (!(rtt >= 0) || rtt > 60000) return null; // not ours, or from another clock
    const sample = { rtt, offset: t + rtt / 2 - time, at: receivedAt, hub: time };
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
    if (!b) return null;
    let lo = -Infinity;
    for (const s of this.samples) lo = Math.max(lo, s.at - s.rtt - s.hub);
    let hi = Infinity;
    for (const u of this.upper) hi = Math.min(hi, u);
    for (const s of this.samples) hi = Math.min(hi, s.at - s.hub);
    if (lo > hi) return b.offset; // the clocks jumped: trust the fastest exchange
    return Math.min(hi, Math.max(lo, b.offset));
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
