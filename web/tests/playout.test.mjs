import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlayoutClock, FramePacer, percentile } from '../js/motion/playout.js';

const near = (a, b, eps = 1e-9) => Math.abs(a - b) <= eps;

test('percentile: nearest rank, empty is 0', () => {
  assert.equal(percentile([], 0.95), 0);
  const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted input
  assert.equal(percentile(xs, 0.95), 95);
  assert.equal(percentile(xs, 0.5), 50);
  assert.equal(percentile(xs, 1), 100);
  assert.equal(percentile([7], 0.98), 7);
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

test('target delay = percentile of lateness beyond the least-delayed frame + interval + margin', () => {
  const c = new PlayoutClock({ rate: 20, marginMs: 0, minSamples: 1, percentile: 0.9 });
  // clock offset 5000; lateness 0..9 ms repeating, one frame 80 ms late
  for (let i = 0; i < 40; i++) c.observe(i * 50, i * 50 + 5000 + (i % 10) + (i === 20 ? 80 : 0));
  assert.equal(c.clockOffset, 5000);
  assert.equal(c.jitter, 9); // the 90th percentile ignores the one late frame
  assert.equal(c.targetDelay, 9 + 50);
  // the lateness window forgets: after 120 more punctual frames the late one is gone
  for (let i = 40; i < 160; i++) c.observe(i * 50, i * 50 + 5002);
  assert.equal(c.jitter, 2);
});

test('before minSamples frames the lateness allowance is at least initialJitterMs', () => {
  const c = new PlayoutClock({ rate: 10, initialJitterMs: 60, minSamples: 5, marginMs: 0 });
  assert.equal(c.jitter, 60);
  c.observe(0, 5000);
  assert.equal(c.jitter, 60);
  assert.equal(c.targetDelay, 160);
  for (let i = 1; i < 5; i++) c.observe(i * 100, i * 100 + 5000 + 3 * i);
  assert.equal(c.jitter, 12);
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
  const c = new PlayoutClock({ rate: 30, marginMs: 0, minSamples: 1, percentile: 1, maxSpeedup: 0.05, maxSlowdown: 0.1, stretchTauMs: 400 });
  c.observe(0, 5010); // offset 5010, no lateness yet
  const rt0 = c.advance(6000);
  assert.ok(near(rt0, 6000 - 5010 - 1000 / 30));
  assert.ok(near(c.delay, 1000 / 30));
  // a frame 200 ms late: the target grows by 200 ms, the delay follows at most 10 % of real time
  c.observe(100, 5310);
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
  const c = new PlayoutClock({ rate: 10, marginMs: 0, minSamples: 1, percentile: 1, latenessWindow: 2, maxSpeedup: 0.05, stretchTauMs: 400 });
  c.observe(0, 5000);
  c.observe(100, 5300); // 200 ms late
  c.advance(10000);
  assert.ok(near(c.delay, 300));
  c.observe(200, 5200);
  c.observe(300, 5300); // the late frame leaves the window: target 100
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
  const c = new PlayoutClock({ rate: 10, marginMs: 0, minSamples: 1, percentile: 1 });
  c.observe(0, 5000);
  c.advance(10000, 10000);
  assert.ok(near(c.delay, 100));
  c.observe(1000, 6400); // 400 ms late: target 500
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
