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

test('a target falling shrinkBand below goal - headroom brings the goal down to target + headroom', () => {
  const c = clockWithLateness(40, { latenessWindow: 10 }); // goal 160
  c.advance(10000);
  assert.ok(near(c.goalDelay, 160));
  for (let i = 0; i < 10; i++) c.observeSample(5000 + 5000 + 100 + 16, 5000); // target 116: 24 below 140, within 25
  c.advance(10100);
  assert.ok(near(c.goalDelay, 160), `${c.goalDelay}`);
  for (let i = 0; i < 10; i++) c.observeSample(5000 + 5000 + 100 + 14, 5000); // target 114: 26 below
  c.advance(10200);
  assert.ok(near(c.goalDelay, 134), `${c.goalDelay}`);
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

test('the playout clock starts on target, then time-stretches within the limits', () => {
  const c = new PlayoutClock({ rate: 30, marginMs: 0, minSamples: 1, initialJitterMs: 0, maxSpeedup: 0.05, maxSlowdown: 0.1, stretchTauMs: 400, growBandMs: 0, growBand: 0 });
  c.observe(0, 5010); // offset 5010, no lateness yet
  const rt0 = c.advance(6000);
  assert.ok(near(rt0, 6000 - 5010 - 1000 / 30));
  assert.ok(near(c.delay, 1000 / 30));
  // two samples saw the next frame 200 ms overdue: the target grows by 200 ms, the delay follows at most 10 % of real time
  c.observeSample(5010 + 100 + 1000 / 30 + 200, 100);
  c.observeSample(5010 + 100 + 1000 / 30 + 200, 100);
  assert.ok(near(c.targetDelay, 200 + 1000 / 30));
  let prevRt = rt0;
  let prevDelay = c.delay;
  for (let now = 6010; now <= 12000; now += 10) {
    const rt = c.advance(now);
    const dDelay = c.delay - prevDelay;
    assert.ok(dDelay >= -1e-9 && dDelay <= 0.1 * 10 + 1e-9, `delay step ${dDelay} at ${now}`);
    assert.ok(rt - prevRt >= 0.9 * 10 - 1e-9, 'the playout clock never runs slower than 90 %');
    prevRt = rt;
    prevDelay = c.delay;
  }
  assert.ok(near(c.delay, c.targetDelay, 1e-6), `${c.delay} vs ${c.targetDelay}`);
});

test('a shrinking target is followed at most maxSpeedup, and eases in', () => {
  const c = new PlayoutClock({ rate: 10, marginMs: 0, minSamples: 1, percentile: 1, latenessWindow: 3, maxSpeedup: 0.05, stretchTauMs: 400, growBandMs: 0, growBand: 0 });
  c.observe(0, 5000);
  for (let i = 0; i < 3; i++) c.observeSample(5000 + 100 + 200, 0); // 200 ms overdue
  c.advance(10000);
  assert.ok(near(c.delay, 300));
  for (let i = 0; i < 3; i++) c.observeSample(5000 + 100, 0); // the late samples leave the window: target 100
  const steps = [];
  let prev = c.delay;
  for (let now = 10016; now < 30000; now += 16) {
    c.advance(now);
    steps.push(prev - c.delay);
    prev = c.delay;
  }
  assert.ok(Math.max(...steps) <= 0.05 * 16 + 1e-9);
  assert.ok(near(c.delay, 100, 1e-6));
  // proportional near the end: the last steps are smaller than the first
  assert.ok(steps[steps.length - 1] < steps[0]);
});

test('while resting on a final frame the delay changes at once, never back into the motion', () => {
  const c = new PlayoutClock({ rate: 10, marginMs: 0, minSamples: 1, initialJitterMs: 0, percentile: 1, growBandMs: 0, growBand: 0 });
  c.observe(0, 5000);
  c.advance(10000, 10000);
  assert.ok(near(c.delay, 100));
  c.observeSample(5000 + 1000 + 100 + 400, 1000); // 400 ms overdue (twice): target 500
  c.observeSample(5000 + 1000 + 100 + 400, 1000);
  // resting on a frame at hub 4800 (render time 10000 - 5100 = 4900): may grow by 100 ms only
  const rt = c.advance(10001, 10001, 4800);
  assert.ok(near(rt, 4800), `${rt}`);
  // later, resting on the same frame, it reaches the target
  c.advance(11000, 11000, 4800);
  assert.ok(near(c.delay, 500));
});

test('FramePacer predicts the next paint from the median frame time', () => {
  const p = new FramePacer();
  assert.equal(p.paintTime(1000), 1000 + 1000 / 60);
  const times = [0, 45, 95, 140, 185, 240, 285, 330];
  for (const t of times) p.tick(t);
  assert.equal(p.frameMs, 45);
  assert.equal(p.paintTime(330), 375);
  // a hidden tab's 2 s gap is not a frame time
  p.tick(2330);
  assert.equal(p.frameMs, 45);
  p.reset();
  assert.equal(p.frameMs, 1000 / 60);
});

test('FramePacer: with synchronous draws the paint time is now + the median draw', () => {
  const p = new FramePacer();
  for (const t of [0, 100, 200, 300]) p.tick(t);
  assert.equal(p.paintTime(300), 400);
  assert.equal(p.drawMs, null);
  for (const d of [30, 80, 32, 31, 29]) p.drawn(d); // one slow draw is ignored
  assert.equal(p.drawMs, 31);
  assert.equal(p.paintTime(300), 331);
  p.drawn(-1); // not a duration
  assert.equal(p.drawMs, 31);
});
