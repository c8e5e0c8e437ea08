import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GestureRecognizer } from '../src/drive/gestures.js';
import { validateGesture } from '../src/protocol/messages.js';

function rec() {
  return new GestureRecognizer({ width: 800, height: 600 });
}

const down = (id, x, y, time, extra = {}) => ({ type: 'pointerdown', pointerId: id, pointerType: 'touch', x, y, time, button: 0, buttons: 1, ...extra });
const move = (id, x, y, time, extra = {}) => ({ type: 'pointermove', pointerId: id, pointerType: 'touch', x, y, time, buttons: 1, ...extra });
const up = (id, x, y, time, extra = {}) => ({ type: 'pointerup', pointerId: id, pointerType: 'touch', x, y, time, button: 0, buttons: 0, ...extra });
const mouse = { pointerType: 'mouse' };

function feed(r, events) {
  const out = [];
  for (const e of events) out.push(...r.handle(e));
  for (const g of out) validateGesture(g); // every gesture is a valid protocol message
  return out;
}

const kinds = (gs) => gs.map((g) => (g.phase ? `${g.kind}:${g.phase}` : g.kind));

test('one-pointer drag pans: begin at the press point, change, end', () => {
  const gs = feed(rec(), [down(1, 100, 100, 0, mouse), move(1, 102, 101, 10, mouse), move(1, 120, 110, 20, mouse),
    move(1, 150, 130, 30, mouse), up(1, 150, 130, 40, mouse)]);
  assert.deepEqual(kinds(gs), ['pan:begin', 'pan:change', 'pan:change', 'pan:end']);
  assert.deepEqual([gs[0].x, gs[0].y, gs[0].t], [100, 100, 20]);
  assert.deepEqual([gs[1].x, gs[1].y], [120, 110]);
  assert.deepEqual([gs[3].x, gs[3].y, gs[3].t], [150, 130, 40]);
  assert.equal(gs[0].type, 'gesture');
});

test('a small movement is a tap, not a pan; hovering emits nothing', () => {
  const r = rec();
  assert.deepEqual(feed(r, [move(1, 5, 5, 0, { ...mouse, buttons: 0 })]), []);
  // the tap waits out the double-tap window (300 ms after the release), then tick() reports it
  assert.deepEqual(feed(r, [down(1, 200, 200, 0), move(1, 203, 202, 50), up(1, 203, 202, 100)]), []);
  assert.equal(r.waiting, true);
  assert.deepEqual(r.tick(400), []);
  const gs = r.tick(401);
  assert.deepEqual(gs.map((g) => [g.kind, g.x, g.y, g.t]), [['tap', 203, 202, 100]]);
  assert.equal(r.waiting, false);
  assert.deepEqual(r.tick(1000), [], 'reported once');
});

test('two taps close in time and space make one doubleTap and no tap (mouse or touch)', () => {
  for (const extra of [{}, mouse]) {
    const r = rec();
    const gs = feed(r, [down(1, 300, 300, 0, extra), up(1, 300, 300, 80, extra), down(2, 305, 302, 200, extra),
      up(2, 305, 302, 260, extra)]);
    assert.deepEqual(kinds(gs), ['doubleTap']);
    assert.deepEqual([gs[0].x, gs[0].y], [305, 302]);
    assert.equal(r.waiting, false);
    assert.deepEqual(r.tick(2000), [], 'no tap follows the double tap');
  }
  // too slow: two taps (the first one when the window ends)
  const r = rec();
  const slow = [...feed(r, [down(1, 300, 300, 0), up(1, 300, 300, 80), down(2, 300, 300, 500), up(2, 300, 300, 560)]), ...r.tick(900)];
  assert.deepEqual(slow.map((g) => [g.kind, g.t]), [['tap', 80], ['tap', 560]]);
  // too far apart: the first tap is sent when the second one lands
  const far = feed(rec(), [down(1, 300, 300, 0), up(1, 300, 300, 80), down(2, 400, 300, 150), up(2, 400, 300, 200)]);
  assert.deepEqual(far.map((g) => [g.kind, g.x]), [['tap', 300]]);
  // three quick taps: a double tap, then a tap waiting for a partner
  const r3 = rec();
  const three = feed(r3, [down(1, 300, 300, 0), up(1, 300, 300, 50), down(1, 300, 300, 100), up(1, 300, 300, 150),
    down(1, 300, 300, 200), up(1, 300, 300, 250)]);
  assert.deepEqual(kinds([...three, ...r3.tick(600)]), ['doubleTap', 'tap']);
});

test('a waiting tap goes out before the next gesture, in order', () => {
  const r = rec();
  const gs = feed(r, [down(1, 300, 300, 0), up(1, 300, 300, 50), down(1, 300, 300, 100), move(1, 340, 300, 120),
    move(1, 360, 300, 130), up(1, 360, 300, 140)]);
  assert.deepEqual(kinds(gs), ['tap', 'pan:begin', 'pan:change', 'pan:change', 'pan:end']);
  const k = rec();
  const keys = feed(k, [down(1, 300, 300, 0), up(1, 300, 300, 50), { type: 'keydown', key: '+', time: 60 }]);
  assert.deepEqual(kinds(keys), ['tap', 'doubleTap']);
  const lost = rec();
  feed(lost, [down(1, 300, 300, 0), up(1, 300, 300, 50)]);
  assert.deepEqual(kinds(lost.cancelAll(60)), ['tap'], 'a tap is not lost when the window loses focus');
});

test('two pointers spreading apart pinch with scale, focal point and rotation', () => {
  const gs = feed(rec(), [
    down(1, 300, 300, 0), down(2, 500, 300, 10),
    move(1, 250, 300, 20), move(2, 550, 300, 20), // distance 300 / 200
    move(2, 550, 400, 30), // rotate the pair clockwise (screen y down)
    up(1, 250, 300, 40), up(2, 550, 400, 45),
  ]);
  assert.deepEqual(kinds(gs), ['pinch:begin', 'pinch:change', 'pinch:change', 'pinch:change', 'pinch:end']);
  assert.deepEqual([gs[0].x, gs[0].y, gs[0].scale, gs[0].rotation], [400, 300, 1, 0]);
  const spread = gs[2];
  assert.ok(Math.abs(spread.scale - 1.5) < 1e-12);
  assert.deepEqual([spread.x, spread.y], [400, 300]);
  assert.ok(Math.abs(spread.rotation) < 1e-12);
  const turned = gs[3];
  const expectedDeg = (Math.atan2(100, 300) * 180) / Math.PI;
  assert.ok(Math.abs(turned.rotation - expectedDeg) < 1e-9, `${turned.rotation}`);
  assert.ok(Math.abs(turned.scale - Math.hypot(300, 100) / 200) < 1e-12);
  assert.deepEqual([turned.x, turned.y], [400, 350]);
  assert.equal(gs[4].phase, 'end');
});

test('pinch rotation accumulates past 180 degrees without jumping', () => {
  const r = rec();
  const events = [down(1, 400, 300, 0), down(2, 500, 300, 1)];
  for (let i = 1; i <= 24; i++) {
    const a = (i * 10 * Math.PI) / 180;
    events.push(move(2, 400 + 100 * Math.cos(a), 300 + 100 * Math.sin(a), 1 + i));
  }
  const gs = feed(r, events);
  const last = gs[gs.length - 1];
  assert.ok(Math.abs(last.rotation - 240) < 1e-9, `${last.rotation}`);
});

test('two fingers moving up together tilt', () => {
  const gs = feed(rec(), [
    down(1, 300, 400, 0), down(2, 500, 400, 5),
    move(1, 301, 380, 20), move(2, 499, 380, 20),
    move(1, 302, 340, 30), move(2, 500, 338, 30),
    up(1, 302, 340, 40), up(2, 500, 338, 41),
  ]);
  assert.deepEqual(kinds(gs).slice(0, 2), ['tilt:begin', 'tilt:change']);
  assert.ok(kinds(gs).every((k) => k.startsWith('tilt:')));
  assert.equal(gs[0].dy, 0);
  const last = gs.filter((g) => g.phase === 'change').pop();
  assert.equal(last.dy, -61);
  assert.equal(gs[gs.length - 1].phase, 'end');
});

test('two fingers moving in opposite vertical directions pinch, not tilt', () => {
  const gs = feed(rec(), [down(1, 400, 200, 0), down(2, 400, 400, 5), move(1, 400, 170, 20), move(2, 400, 430, 20)]);
  assert.equal(gs[0].kind, 'pinch');
});

test('a two-finger tap: both released within 250 ms without moving', () => {
  const gs = feed(rec(), [down(1, 300, 300, 0), down(2, 400, 300, 20), move(1, 301, 301, 40),
    up(1, 301, 301, 100), up(2, 400, 300, 180)]);
  assert.deepEqual(kinds(gs), ['twoFingerTap']);
  assert.deepEqual([gs[0].x, gs[0].y], [350, 300]);
  const late = feed(rec(), [down(1, 300, 300, 0), down(2, 400, 300, 20), up(1, 300, 300, 100), up(2, 400, 300, 400)]);
  assert.deepEqual(kinds(late), []);
  const moved = feed(rec(), [down(1, 300, 300, 0), down(2, 400, 300, 20), move(2, 460, 300, 60),
    up(1, 300, 300, 100), up(2, 460, 300, 120)]);
  assert.ok(!kinds(moved).includes('twoFingerTap'));
});

test('a pan hands over to a pinch and the remaining finger pans again', () => {
  const gs = feed(rec(), [
    down(1, 100, 100, 0), move(1, 150, 100, 10),
    down(2, 300, 100, 20), move(2, 350, 100, 30),
    up(2, 350, 100, 40), move(1, 160, 100, 50), move(1, 200, 120, 60), up(1, 200, 120, 70),
  ]);
  assert.deepEqual(kinds(gs), ['pan:begin', 'pan:change', 'pan:end', 'pinch:begin', 'pinch:change', 'pinch:end',
    'pan:begin', 'pan:change', 'pan:change', 'pan:end']);
  assert.deepEqual([gs[6].x, gs[6].y], [150, 100]);
});

test('right-drag and ctrl-drag rotate (horizontal) and tilt (vertical)', () => {
  for (const extra of [{ ...mouse, button: 2, buttons: 2 }, { ...mouse, ctrlKey: true }]) {
    const gs = feed(rec(), [down(1, 400, 300, 0, extra), move(1, 410, 300, 10, extra), move(1, 450, 280, 20, extra),
      up(1, 450, 280, 30, extra)]);
    assert.deepEqual(kinds(gs), ['rotate:begin', 'tilt:begin', 'rotate:change', 'rotate:change', 'tilt:change',
      'rotate:end', 'tilt:end']);
    assert.ok(Math.abs(gs[2].rotation - 8) < 1e-12);
    assert.ok(Math.abs(gs[3].rotation - 40) < 1e-12);
    assert.equal(gs[4].dy, -20);
    assert.equal(gs[6].dy, -20);
  }
  // a right click without movement emits nothing
  assert.deepEqual(feed(rec(), [down(1, 1, 1, 0, { ...mouse, button: 2 }), up(1, 1, 1, 50, { ...mouse, button: 2 })]), []);
});

test('wheel scrolls with the delta normalized to pixels', () => {
  const r = rec();
  const gs = feed(r, [
    { type: 'wheel', x: 10, y: 20, time: 1, deltaY: 53, deltaMode: 0 },
    { type: 'wheel', x: 10, y: 20, time: 2, deltaY: -3, deltaMode: 1 },
    { type: 'wheel', x: 10, y: 20, time: 3, deltaY: 1, deltaMode: 2 },
    { type: 'wheel', x: 10, y: 20, time: 4, deltaY: 0, deltaX: 5, deltaMode: 0 },
  ]);
  assert.deepEqual(gs.map((g) => [g.kind, g.phase, g.delta]), [['scroll', undefined, 53], ['scroll', undefined, -120],
    ['scroll', undefined, 600]]);
  assert.deepEqual([gs[0].x, gs[0].y, gs[0].t], [10, 20, 1]);
});

test('keys: arrows pan, +/- zoom at the centre, shift+arrows rotate', () => {
  const r = rec();
  const left = feed(r, [{ type: 'keydown', key: 'ArrowLeft', time: 5 }]);
  assert.deepEqual(kinds(left), ['pan:begin', 'pan:change', 'pan:end']);
  assert.deepEqual([left[0].x, left[0].y, left[1].x, left[1].y], [400, 300, 500, 300]);
  const downKey = feed(r, [{ type: 'keydown', key: 'ArrowDown', time: 6 }]);
  assert.deepEqual([downKey[1].x, downKey[1].y], [400, 200]);
  const plus = feed(r, [{ type: 'keydown', key: '+', time: 7 }]);
  assert.deepEqual(plus.map((g) => [g.kind, g.x, g.y]), [['doubleTap', 400, 300]]);
  const minus = feed(r, [{ type: 'keydown', key: '-', time: 8 }]);
  assert.deepEqual(minus.map((g) => [g.kind, g.x, g.y]), [['twoFingerTap', 400, 300]]);
  const rot = feed(r, [{ type: 'keydown', key: 'ArrowRight', shiftKey: true, time: 9 }]);
  assert.deepEqual(kinds(rot), ['rotate:begin', 'rotate:change', 'rotate:end']);
  assert.equal(rot[2].rotation, 15);
  assert.deepEqual(feed(r, [{ type: 'keydown', key: '+', ctrlKey: true, time: 10 }]), []);
  assert.deepEqual(feed(r, [{ type: 'keydown', key: 'a', time: 10 }]), []);
});

test('long press after holding still, with HERE\'s phases: begin, change as the held finger moves, end; no tap, no pan', () => {
  const r = rec();
  assert.deepEqual(feed(r, [down(1, 50, 60, 0)]), []);
  assert.deepEqual(r.tick(300), []);
  const lp = r.tick(650);
  assert.deepEqual(lp.map((g) => [g.kind, g.phase, g.x, g.y, g.t]), [['longPress', 'begin', 50, 60, 650]]);
  assert.deepEqual(r.tick(900), []);
  const moved = feed(r, [move(1, 50, 60, 950), move(1, 120, 90, 1000)]);
  assert.deepEqual(moved.map((g) => [g.kind, g.phase, g.x, g.y]), [['longPress', 'change', 120, 90]], 'a move far away is no pan');
  const lifted = feed(r, [up(1, 120, 90, 1100)]);
  assert.deepEqual(lifted.map((g) => [g.kind, g.phase, g.x, g.y, g.t]), [['longPress', 'end', 120, 90, 1100]]);
  // a long press is also found by the next event's time
  const r2 = rec();
  const gs = feed(r2, [down(1, 50, 60, 0), move(1, 51, 60, 700)]);
  assert.deepEqual(kinds(gs), ['longPress:begin', 'longPress:change']);
  // cancelled by the pointer, or by a second finger
  assert.deepEqual(kinds(feed(r2, [{ type: 'pointercancel', pointerId: 1, time: 800 }])), ['longPress:cancel']);
  const r3 = rec();
  feed(r3, [down(1, 50, 60, 0)]);
  r3.tick(700);
  assert.deepEqual(kinds(feed(r3, [down(2, 200, 60, 750)])).slice(0, 1), ['longPress:cancel']);
  // every message is one the hub accepts
  for (const g of [...lp, ...moved, ...lifted]) assert.deepEqual(validateGesture(g), g);
});

test('pointercancel cancels the active gesture', () => {
  const gs = feed(rec(), [down(1, 100, 100, 0), move(1, 150, 100, 10),
    { type: 'pointercancel', pointerId: 1, time: 20 }]);
  assert.deepEqual(kinds(gs), ['pan:begin', 'pan:change', 'pan:cancel']);
  const pinch = feed(rec(), [down(1, 300, 300, 0), down(2, 500, 300, 10), move(2, 560, 300, 20),
    { type: 'pointercancel', pointerId: 2, time: 30 }]);
  assert.deepEqual(kinds(pinch), ['pinch:begin', 'pinch:change', 'pinch:cancel']);
});

test('a third pointer is ignored', () => {
  const gs = feed(rec(), [down(1, 300, 300, 0), down(2, 500, 300, 10), down(3, 100, 100, 15),
    move(3, 0, 0, 16), up(3, 0, 0, 17), move(2, 560, 300, 20)]);
  assert.deepEqual(kinds(gs), ['pinch:begin', 'pinch:change']);
});

test('one finger moving vertically far while the other stays still pinches', () => {
  const gs = feed(rec(), [down(1, 300, 400, 0), down(2, 500, 400, 5), move(1, 300, 380, 10), move(1, 300, 340, 20)]);
  assert.deepEqual(kinds(gs), ['pinch:begin', 'pinch:change']);
});
