import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LatencyEstimator, RateMeter, Smoother } from '../src/net/clock.js';

test('offset and RTT from ping/pong, using the fastest exchange', () => {
  const est = new LatencyEstimator();
  assert.equal(est.offset, null);
  assert.equal(est.frameLatency(1000, 1100), null);
  // local clock 5000 ms ahead of the hub; 40 ms RTT, hub read its clock half way
  const hubAt = (local) => local - 5000;
  est.pong({ t: 10000, time: hubAt(10020) }, 10040);
  assert.equal(est.lastRtt, 40);
  assert.equal(est.offset, 5000);
  // a slower, asymmetric exchange (70 ms out, 10 ms back) does not replace the best one
  est.pong({ t: 20000, time: hubAt(20070) }, 20080);
  assert.equal(est.lastRtt, 80);
  assert.equal(est.minRtt, 40);
  assert.equal(est.offset, 5000);
  assert.equal(est.hubTime(30000), 25000);
  // a frame stamped at hub 25000 and received at local 30012 was 12 ms in flight
  assert.equal(est.frameLatency(25000, 30012), 12);
});

test('a late-handled pong cannot push the offset past what frames prove', () => {
  const est = new LatencyEstimator();
  // true offset 5000; the page handled the pong 300 ms late (busy rendering)
  est.pong({ t: 10000, time: 5001 }, 10302);
  assert.equal(est.offset, 10151 - 5001); // midpoint guess: 150 ms too high
  // a frame stamped at hub 6000 arrived at local 11003: offset <= 5003
  est.frame(6000, 11003);
  assert.equal(est.offset, 5003);
  assert.equal(est.frameLatency(6000, 11003), 0);
  assert.ok(est.frameLatency(6100, 11120) >= 0);
  // and never below what the ping proves: the hub read its clock after t
  const e2 = new LatencyEstimator();
  e2.pong({ t: 100, time: 50 }, 400); // offset in [50, 350], guess 200
  e2.frame(60, 500); // upper bound 440: no change
  assert.equal(e2.offset, 200);
});

test('ignores pongs that cannot be ours and forgets old samples', () => {
  const est = new LatencyEstimator({ window: 2 });
  assert.equal(est.pong({ t: 100, time: 5 }, 50), null); // negative RTT
  assert.equal(est.pong({ time: 5 }, 50), null); // no t
  est.pong({ t: 0, time: 0 }, 10); // rtt 10, offset 5
  est.pong({ t: 100, time: 90 }, 140); // rtt 40, offset 30
  est.pong({ t: 200, time: 180 }, 230); // rtt 30, offset 35; the 10 ms one is gone
  assert.equal(est.minRtt, 30);
  assert.equal(est.offset, 35);
  est.reset();
  assert.equal(est.ready, false);
});

test('RateMeter counts events in the last second', () => {
  const r = new RateMeter();
  for (let i = 0; i < 60; i++) r.add(i * (1000 / 30)); // 30 Hz for 2 s
  assert.equal(r.rate(59 * (1000 / 30)), 30);
  assert.equal(r.rate(5000), 0);
});

test('Smoother is an exponential moving average that skips non-numbers', () => {
  const s = new Smoother(0.5);
  assert.equal(s.add(10), 10);
  assert.equal(s.add(20), 15);
  assert.equal(s.add(NaN), 15);
  s.reset();
  assert.equal(s.value, null);
});
