import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DelayPlot } from '../js/ui/delay_plot.js';

/** A 2D context that records the calls the plot makes. */
function recorder() {
  const calls = [];
  return new Proxy({ calls }, {
    get(target, name) {
      if (name in target) return target[name];
      return (...args) => calls.push([name, ...args]);
    },
    set(target, name, value) { calls.push([`set ${String(name)}`, value]); return true; },
  });
}

test('the plot keeps one sample per step and only the last minute', () => {
  const plot = new DelayPlot({ windowMs: 60_000, stepMs: 250 });
  assert.equal(plot.add(0, { latency: 20, delay: 80, fps: 30 }), true);
  assert.equal(plot.add(100, { latency: 21 }), false, 'closer than a step: ignored');
  for (let t = 250; t <= 70_000; t += 250) plot.add(t, { latency: 20, delay: 80, fps: 30 });
  assert.equal(plot.points[0].t, 10_000, 'samples older than a minute fell off');
  assert.equal(plot.points.length, 241);
});

test('the delay axis grows with the largest delay, in 50 ms steps, from 100 ms', () => {
  const plot = new DelayPlot();
  plot.add(0, { latency: 30, delay: 60 });
  assert.equal(plot.delayScale(), 100);
  plot.add(1000, { latency: 180, delay: 120 });
  assert.equal(plot.delayScale(), 200);
});

test('drawing strokes one line per series through the samples, and skips unknown values', () => {
  const plot = new DelayPlot();
  plot.add(0, { latency: 50, delay: 100, fps: 30 });
  plot.add(500, { latency: null, delay: 100, fps: 30 });
  plot.add(1000, { latency: 50, delay: 100, fps: 60 });
  const ctx = recorder();
  plot.draw(ctx, 240, 60, 1000);
  assert.equal(ctx.calls.filter((c) => c[0] === 'stroke').length, 3);
  const fpsLine = ctx.calls.slice(ctx.calls.findLastIndex((c) => c[0] === 'beginPath'));
  const last = fpsLine.filter((c) => c[0] === 'lineTo').pop();
  assert.deepEqual(last.slice(1), [240, 1], '60 fps at the top right');
  const latencyLine = ctx.calls.slice(ctx.calls.findIndex((c) => c[0] === 'set strokeStyle' && c[1] === '#e08a1e'));
  const moves = latencyLine.slice(0, latencyLine.findIndex((c) => c[0] === 'stroke')).filter((c) => c[0] === 'moveTo');
  assert.equal(moves.length, 2, 'the gap of an unknown latency starts a new segment');
});

test('a re-sync of the playout clock is marked on the sample after it, and drawn as a line across the plot', () => {
  const plot = new DelayPlot();
  plot.add(0, { delay: 100, resyncs: 0 });
  plot.add(250, { delay: 100, resyncs: 0 });
  plot.add(500, { delay: 180, resyncs: 1 });
  plot.add(750, { delay: 180, resyncs: 1 });
  assert.deepEqual(plot.points.map((p) => p.resync), [false, false, true, false]);
  const ctx = recorder();
  plot.draw(ctx, 240, 60, 750);
  const red = ctx.calls.findIndex((c) => c[0] === 'set strokeStyle' && c[1] === '#c62828');
  assert.ok(red >= 0);
  const x = 240 - ((750 - 500) / 60_000) * 240;
  assert.deepEqual(ctx.calls.slice(red).find((c) => c[0] === 'moveTo').slice(1), [x, 0]);
  assert.deepEqual(ctx.calls.slice(red).find((c) => c[0] === 'lineTo').slice(1), [x, 60]);
});
