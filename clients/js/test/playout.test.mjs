import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlayoutClock, FramePacer, percentile } from '../src/follow/playout.js';

const near = (a, b, eps = 1e-9) => Math.abs(a - b) <= eps;

test('percentile: nearest rank, empty is 0', () => {
  assert.equal(percentile([], 0.95), 0);
  const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted input
  assert.equal(percentile(xs, 0.95), 95);
  assert.equal(percentile(xs, 0.5), 50);
  assert.equal(percentile(xs, 1), 100);
  assert.equal(percentile([7], 0.98), 7);
});

test('percentile: skipLargest never answers the single largest of more values', () => {
  const xs = [5, 1, 900, 3, 4];
  assert.equal(percentile(xs, 1), 900);
  assert.equal(percentile(xs, 1, 1), 5);
  assert.equal(percentile(xs, 0.5, 1), 4); // below the cap: unchanged
  assert.equal(percentile([7], 1, 1), 7); // one value: it is the answer
});

/** A clock at rate 10 that has seen `n` samples each `late` ms overdue by their paint time (offset 5000). */
function clockWithLateness(late, options = {}, n = 30) {
  const c = new PlayoutClock({ rate: 10, marginMs: 0, minSamples: 1, ...options });
  c.observe(0, 5000);
  for (let i = 0; i < n; i++) c.observeSample(5000 + i * 100 + 100 + late, i * 100);
  return c;
}

test('the goal is the target plus headroom, set on the first advance', () => {
  const c = clockWithLateness(20); // target 20 + 100; headroom max(10 ms, 0.2 × 100 ms) = 20
  assert.equal(c.growBand, 20);
  c.advance(10000);
  assert.ok(near(c.goalDelay, 140));
  assert.ok(near(c.delay, 140));
});

test('a target that wanders within the band does not move the goal', () => {
  const c = clockWithLateness(20, { latenessWindow: 10 });
  c.advance(10000);
  // lateness drops to 0 (target 100: 40 below the goal, within headroom 20 + shrinkBand 25) and rises to 40 (target 140)
  for (const late of [0, 40, 10, 30]) {
    for (let i = 0; i < 10; i++) c.observeSample(5000 + 5000 + 100 + late, 5000);
    c.advance(10100);
    assert.ok(near(c.goalDelay, 140), `late ${late}: goal ${c.goalDelay}`);
  }
});

test('a target rising past the goal moves it at once to the new target plus headroom', () => {
  const c = clockWithLateness(20, { latenessWindow: 10 });
  c.advance(10000);
  for (let i = 0; i < 10; i++) c.observeSample(5000 + 5000 + 100 + 45, 5000); // target 145 > goal 140
  c.advance(10100);
  assert.ok(near(c.goalDelay, 165), `${c.goalDelay}`);
});

test('a target falling shrinkBand below goal - headroom brings the goal down to target + headroom, not within shrinkHoldMs of its growth', () => {
  const c = clockWithLateness(40, { latenessWindow: 10 }); // goal 160
  c.advance(10000);
  assert.ok(near(c.goalDelay, 160));
  for (let i = 0; i < 10; i++) c.observeSample(5000 + 5000 + 100 + 16, 5000); // target 116: 24 below 140, within 25
  c.advance(20000);
  assert.ok(near(c.goalDelay, 160), `${c.goalDelay}`);
  for (let i = 0; i < 10; i++) c.observeSample(5000 + 5000 + 100 + 14, 5000); // target 114: 26 below
  c.advance(20100);
  assert.ok(near(c.goalDelay, 134), `${c.goalDelay}`);
});

test('the goal comes down only shrinkHoldMs after it last grew (a delay grows quickly, shrinks slowly)', () => {
  const c = clockWithLateness(40, { latenessWindow: 10 }); // goal 160, set (grown) at the first advance
  c.advance(10000);
  for (let i = 0; i < 10; i++) c.observeSample(5000 + 5000 + 100, 5000); // target 100: far below
  c.advance(19900);
  assert.ok(near(c.goalDelay, 160), `${c.goalDelay}`);
  c.advance(20000);
  assert.ok(near(c.goalDelay, 120), `${c.goalDelay}`);
});

test('lateness counts to the paint time: a slow draw is ranked like a late frame', () => {
  const c = new PlayoutClock({ rate: 10, marginMs: 0, minSamples: 1 });
  c.observe(0, 5000);
  // sampled 10 ms before the next frame is due, for a paint 50 ms later: 40 ms late by the paint
  c.observeSample(5000 + 100 + 40, 0);
  assert.equal(c.lateness[0], 40);
  // not due by the paint: 0
  c.observeSample(5000 + 100 - 5, 0);
  assert.equal(c.lateness[1], 0);
});

test('the first interval guess is the rate asked for, not 33 ms', () => {
  const c = new PlayoutClock({ rate: 10 });
  assert.equal(c.interval, 100);
  assert.equal(new PlayoutClock({ rate: 60 }).interval, 1000 / 60);
  c.setRate(25);
  assert.equal(c.interval, 40);
  c.setRate(0); // ignored
  assert.equal(c.interval, 40);
});

test('target delay = percentile of the lateness samples saw + interval + margin', () => {
  const c = new PlayoutClock({ rate: 20, marginMs: 0, minSamples: 1, percentile: 0.9, latenessWindow: 120 });
  c.observe(0, 5000); // clock offset 5000
  assert.equal(c.clockOffset, 5000);
  // samples while moving: the next frame (due 50 ms after the newest) is 0..9 ms overdue, once 80 ms
  for (let i = 0; i < 40; i++) c.observeSample(5000 + i * 50 + 50 + (i % 10) + (i === 20 ? 80 : 0), i * 50);
  assert.equal(c.jitter, 9); // the 90th percentile ignores the one late sample
  assert.equal(c.targetDelay, 9 + 50);
  // a frame not due yet is 0 late
  c.observeSample(5000 + 2000 + 10, 2000);
  assert.equal(c.lateness[c.lateness.length - 1], 0);
  // the window forgets: after 120 more samples that saw 2 ms the late one is gone
  for (let i = 40; i < 160; i++) c.observeSample(5000 + i * 50 + 52, i * 50);
  assert.equal(c.jitter, 2);
});

test('one stall is one sample: the single largest lateness is never the allowance', () => {
  const c = new PlayoutClock({ rate: 10, marginMs: 0, minSamples: 1 });
  c.observe(0, 5000);
  // 30 samples that saw the next frame 0..20 ms overdue, and the first paint after a 1.2 s stall of the page
  for (let i = 0; i < 30; i++) c.observeSample(5000 + i * 100 + 100 + (i * 5) % 21, i * 100);
  c.observeSample(5000 + 3000 + 100 + 1200, 3000);
  assert.equal(c.jitter, 20);
  // a second one within the window is a pattern: it is allowed for
  c.observeSample(5000 + 3100 + 100 + 900, 3100);
  assert.equal(c.jitter, 900);
});

test('before minSamples samples the lateness allowance is at least initialJitterMs', () => {
  const c = new PlayoutClock({ rate: 10, initialJitterMs: 60, minSamples: 5, marginMs: 0 });
  assert.equal(c.jitter, 60);
  c.observe(0, 5000);
  assert.equal(c.jitter, 60);
  assert.equal(c.targetDelay, 160);
  for (let i = 1; i < 5; i++) c.observeSample(5000 + i * 100 + 100 + 3 * i, i * 100);
  assert.equal(c.jitter, 60);
  c.observeSample(5000 + 500 + 100 + 15, 500);
  assert.equal(c.jitter, 12); // 5 samples: 3..15, never the largest
});

test('the interval counts moving intervals only and widens quickly at a lower rate', () => {
  const c = new PlayoutClock({ rate: 30 });
  for (let i = 0; i < 20; i++) c.observeInterval(1000 / 30);
  assert.ok(near(c.interval, 1000 / 30));
  // the hub now sends every 100 ms: the last four decide at once
  for (let i = 0; i < 4; i++) c.observeInterval(100);
  assert.ok(near(c.interval, 100), `${c.interval}`);
  // at a higher rate it narrows as the window fills
  for (let i = 0; i < 10; i++) c.observeInterval(1000 / 60);
  assert.ok(c.interval > 1000 / 60 && c.interval < 100, `${c.interval}`);
  for (let i = 0; i < 20; i++) c.observeInterval(1000 / 60);
  assert.ok(near(c.interval, 1000 / 60));
});

/** A clock at rate 10, offset 5000, no lateness, goal 100 ms, advanced to display time 10000 (on its goal). */
function settledClock(options = {}) {
  const c = new PlayoutClock({ rate: 10, marginMs: 0, minSamples: 1, initialJitterMs: 0, growBandMs: 0, growBand: 0, ...options });
  c.observe(0, 5000);
  c.observeSample(5000, 0);
  c.advance(10000);
  return c;
}

/** A sample that saw the frame after the newest (hub 100, due at 200) `ms` late. */
function late(c, ms) {
  c.observeSample(5000 + 200 + ms, 100);
}

/** Advances `c` every `step` ms from `from` to `to` (display time); returns [{at, rt, speed}]. */
function run(c, from, to, step = 16, lead = 0) {
  const out = [];
  for (let at = from; at <= to; at += step) out.push({ at, rt: c.advance(at, lead), speed: c.speedTo });
  return out;
}

/** The largest |hub ms shown per display ms - 1| between consecutive steps. */
function maxOff(steps) {
  let m = 0;
  for (let i = 1; i < steps.length; i++) m = Math.max(m, Math.abs((steps[i].rt - steps[i - 1].rt) / (steps[i].at - steps[i - 1].at) - 1));
  return m;
}

test('the playout clock starts on its goal', () => {
  const c = settledClock();
  assert.ok(near(c.delay, 100));
  assert.ok(near(c.advance(10016), 10016 - 5000 - 100));
});

test('a longer delay is played in at most 3 % slow', () => {
  const c = settledClock();
  for (let i = 0; i < 3; i++) late(c, 200); // target 300
  const steps = run(c, 10016, 30000);
  assert.ok(maxOff(steps) <= 0.03 + 1e-9, `${maxOff(steps)}`);
  assert.ok(steps.some((s) => s.speed === 0.97), 'at the bound while far');
  assert.ok(Math.abs(c.delay - 300) <= c.options.deadbandMs, `${c.delay}`);
  assert.equal(c.resyncs, 0);
});

test('a shorter delay is played in at most 3 % fast', () => {
  const c = settledClock({ percentile: 1, latenessWindow: 3, shrinkHoldMs: 0 });
  for (let i = 0; i < 3; i++) late(c, 200);
  run(c, 10016, 30000); // at 300
  for (let i = 0; i < 3; i++) late(c, 0); // target back to 100
  const steps = run(c, 30016, 50000);
  assert.ok(maxOff(steps) <= 0.03 + 1e-9, `${maxOff(steps)}`);
  assert.ok(steps.some((s) => s.speed === 1.03));
  assert.ok(Math.abs(c.delay - 100) <= c.options.deadbandMs, `${c.delay}`);
});

test('the speed changes at most once a second, ramped, and not within the dead band', () => {
  const c = settledClock({ percentile: 1, latenessWindow: 1, shrinkHoldMs: 0, shrinkBandMs: 0, shrinkBand: 0 });
  // the target wanders every 100 ms
  const changes = [];
  let last = c.speedTo;
  for (let at = 10016, k = 0; at < 20000; at += 16, k++) {
    if (k % 6 === 0) late(c, 100 + 100 * Math.sin(k / 40));
    c.advance(at);
    if (c.speedTo !== last) changes.push({ at, to: c.speedTo, ramp: c.speed });
    last = c.speedTo;
  }
  assert.ok(changes.filter((ch) => ch.to !== 1).length >= 3, `${changes.length} changes`);
  for (let i = 1; i < changes.length; i++) {
    if (changes[i].to === 1) continue; // going back to 1 on reaching the goal may come sooner
    assert.ok(changes[i].at - changes[i - 1].at >= 1000 - 1e-9, `speed changes ${changes[i].at - changes[i - 1].at} ms apart`);
  }
  assert.ok(changes.every((ch) => ch.ramp !== ch.to || ch.to === 1), 'a new speed is ramped to, not stepped');
  const still = settledClock();
  late(still, 15); // 15 ms more: within the 20 ms dead band
  run(still, 10016, 12000);
  assert.equal(still.speedTo, 1);
});

test('a clock step (the hub\'s clock 600 ms ahead) is a re-sync: the shorter delay skipped to at once, counted', () => {
  const c = settledClock();
  const rt0 = c.advance(10016);
  c.observe(1000, 5400); // a frame stamped 600 ms later than the clock offset says: the offset is 4400 now
  const rt1 = c.advance(10032);
  assert.equal(c.resyncs, 1);
  assert.equal(c.resyncLog[0].why, 'far');
  assert.ok(near(rt1, 10032 - 4400 - 100), `${rt1}`);
  assert.ok(rt1 > rt0, 'forward in hub time');
  assert.ok(near(c.delay, 100));
});

test('a much longer delay is a re-sync that waits: the render time stands still, never goes back', () => {
  const c = settledClock({ percentile: 1, latenessWindow: 1 });
  const rt0 = c.advance(10016);
  late(c, 400); // target 500: 400 more than now
  const steps = run(c, 10032, 11000);
  assert.equal(c.resyncs, 1);
  assert.equal(c.resyncLog[0].why, 'far');
  for (const s of steps) assert.ok(s.rt >= rt0 - 1e-9, 'never back');
  assert.ok(steps.slice(1, 20).every((s) => near(s.rt, steps[0].rt)), 'stands still');
  assert.ok(near(c.delay, 500), `${c.delay}`);
});

test('display frames more than a second apart (a tab that slept) are a re-sync onto the goal', () => {
  const c = settledClock();
  c.advance(10016);
  c.advance(14016);
  assert.equal(c.resyncs, 1);
  assert.equal(c.resyncLog[0].why, 'slept');
  assert.ok(near(c.delay, 100));
});

test('an underrun raises the goal at once by at most one interval: a re-sync, the render time standing still until the delay is there', () => {
  const c = settledClock();
  run(c, 10016, 10496);
  late(c, 300); // the sample that ran dry saw the next frame 300 ms late
  c.underrun();
  assert.ok(near(c.goalDelay, 200), `${c.goalDelay}`); // 100 + one interval
  assert.equal(c.resyncs, 1);
  assert.equal(c.resyncLog[0].why, 'underrun');
  const steps = run(c, 10512, 10700);
  assert.ok(steps.filter((x) => x.at <= 10596).every((x) => near(x.rt, steps[0].rt)), 'stands still for the 100 ms');
  assert.ok(steps[steps.length - 1].rt > steps[0].rt, 'then runs on');
  assert.ok(near(c.delay, 200), `${c.delay}`);
});

test('a stall past the allowance on a second frame holds the render time (one re-sync), growing the delay by at most maxStallMs', () => {
  const c = settledClock({ maxStallMs: 100 });
  const limit = 5050; // the frames in hand allow hub times up to 5050
  assert.equal(c.advance(10100, 0, limit), 5000);
  assert.equal(c.advance(10200, 0, limit), 5100, 'one frame past it: the page\'s own stall, not held');
  assert.equal(c.advance(10216, 0, limit), limit, 'a second: held');
  assert.equal(c.advance(10232, 0, limit), limit);
  assert.equal(c.advance(10248, 0, limit), limit);
  assert.equal(c.resyncs, 1);
  assert.equal(c.resyncLog[0].why, 'underrun');
  // held 98 ms; 116 would be more than maxStallMs: it runs on (the picture stays where the extrapolation stopped)
  assert.equal(c.advance(10264, 0, limit), 5066);
  assert.ok(near(c.goalDelay, 198), `${c.goalDelay}`); // the goal is the delay the stall made
  assert.equal(c.resyncs, 1);
});

test('FramePacer: a frame drawn in is on screen when the next begins: the lead is the median of those intervals', () => {
  const p = new FramePacer();
  assert.equal(p.lead, 1000 / 60);
  assert.equal(p.paintTime(1000), 1000 + 1000 / 60);
  const times = [0, 45, 95, 140, 185, 240, 285, 330, 375, 420];
  for (const t of times) {
    p.tick(t);
    p.drew(12);
  }
  assert.equal(p.frameMs, 45);
  assert.equal(p.paintTime(420), 465);
  assert.equal(p.drawMs, 12, 'the synchronous draw is kept, not taken for the paint time');
  p.reset();
  assert.equal(p.frameMs, 1000 / 60);
});

test('FramePacer: frames with nothing drawn, and a hidden tab\'s gap, are not frame times', () => {
  const p = new FramePacer();
  for (const t of [0, 70, 140, 210]) {
    p.tick(t);
    p.drew();
  }
  assert.equal(p.frameMs, 70);
  // at rest the display runs at 60 a second, nothing drawn: the lead in motion is kept
  for (let t = 280; t < 2000; t += 1000 / 60) p.tick(t);
  assert.equal(p.frameMs, 70);
  p.drew();
  p.tick(9000); // hidden for 7 s
  assert.equal(p.frameMs, 70);
  p.tick(9000); // the same frame again: nothing
  assert.equal(p.frameMs, 70);
});

test('a goal far below the delay comes down with it, never a re-sync away: played in within the speed bound', () => {
  const c = settledClock({ percentile: 1, latenessWindow: 1, shrinkHoldMs: 0 });
  late(c, 200);
  run(c, 10016, 30000); // at 300
  late(c, 0); // target 100: 200 below, more than half a re-sync
  const steps = run(c, 30016, 50000);
  assert.equal(c.resyncs, 0);
  assert.ok(maxOff(steps) <= 0.03 + 1e-9, `${maxOff(steps)}`);
  assert.ok(Math.abs(c.delay - 100) <= c.options.deadbandMs, `${c.delay}`);
});
