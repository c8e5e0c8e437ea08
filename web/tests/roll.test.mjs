import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RollDrag, Throttle, clampRoll, ROLL_DEGREES_PER_PIXEL, ROLL_SEND_EVERY_MS } from '../js/motion/roll.js';

test('a roll is wrapped into -180…180 and kept within the room\'s maxRoll', () => {
  assert.equal(clampRoll(190), -170);
  assert.equal(clampRoll(-180), -180);
  assert.equal(clampRoll(45, 30), 30);
  assert.equal(clampRoll(-45, 30), -30);
  assert.equal(clampRoll(350, 30), -10, 'wrapped first: 350° is -10°');
});

test('dragging right below the view centre rolls counter-clockwise (roll grows), above it clockwise, 0.3° a pixel', () => {
  assert.equal(ROLL_DEGREES_PER_PIXEL, 0.3, 'MapLibre\'s rollDegreesPerPixelMoved');
  const below = new RollDrag({ x: 640, roll: 0, centreY: 360 });
  assert.ok(Math.abs(below.move(740, 500) - 30) < 1e-9);
  assert.ok(Math.abs(below.move(690, 500) - 15) < 1e-9, 'back to the left: back');
  const above = new RollDrag({ x: 640, roll: 10, centreY: 360 });
  assert.ok(Math.abs(above.move(740, 100) - -20) < 1e-9);
});

test('a roll drag goes round through ±180, and stops at maxRoll without a dead zone on the way back', () => {
  const round = new RollDrag({ x: 0, roll: 170, centreY: 360 });
  assert.ok(Math.abs(round.move(100, 400) - -160) < 1e-9);
  const limited = new RollDrag({ x: 0, roll: 0, centreY: 360, maxRoll: 20 });
  assert.equal(limited.move(300, 400), 20);
  assert.ok(Math.abs(limited.move(290, 400) - 17) < 1e-9, 'the first pixels back already roll back');
});

/** Timers run by hand: `run(t)` fires those due at page time t. */
function manualTimers(clock) {
  const timers = new Map();
  let id = 0;
  return {
    pending: () => timers.size,
    setTimeout: (fn, ms) => (timers.set(++id, { fn, at: clock.t + ms }), id),
    clearTimeout: (i) => timers.delete(i),
    run(t) {
      clock.t = t;
      for (const [i, timer] of [...timers]) {
        if (timer.at > t) continue;
        timers.delete(i);
        timer.fn();
      }
    },
  };
}

test('the throttle sends the first value at once, then the newest at most every 33 ms, and the last always', () => {
  const clock = { t: 1000 };
  const timers = manualTimers(clock);
  const sent = [];
  const throttle = new Throttle({ everyMs: ROLL_SEND_EVERY_MS, send: (v) => sent.push([clock.t, v]), now: () => clock.t, timers });
  throttle.push(1);
  clock.t = 1010;
  throttle.push(2);
  clock.t = 1020;
  throttle.push(3);
  assert.deepEqual(sent, [[1000, 1]], 'within 33 ms of the first: waits');
  assert.equal(timers.pending(), 1, 'one timer for what waits');
  timers.run(1033);
  assert.deepEqual(sent, [[1000, 1], [1033, 3]], 'the newest, when the interval is up');
  clock.t = 1100;
  throttle.push(4);
  assert.deepEqual(sent.at(-1), [1100, 4], 'after a pause: at once');
  clock.t = 1110;
  throttle.push(5);
  throttle.flush();
  assert.deepEqual(sent.at(-1), [1110, 5], 'flush: now (a drag\'s release)');
  assert.equal(timers.pending(), 0);
  throttle.flush();
  assert.equal(sent.length, 4, 'nothing waits: nothing sent');
  clock.t = 1120;
  throttle.push(6);
  throttle.cancel();
  timers.run(2000);
  assert.equal(sent.length, 4, 'cancelled: dropped');
});
