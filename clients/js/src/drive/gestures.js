// Input -> gesture translation. Pure: no DOM. The page feeds plain event-like
// objects and sends each returned gesture to the hub as its own `gesture`
// message, in order (protocol v1 has no batch: `gestures` toggles defaults).
//
// Input events (DOM names; `id`/`t` are accepted for pointerId/time):
//   {type: 'pointerdown'|'pointermove'|'pointerup'|'pointercancel', pointerId,
//    pointerType: 'mouse'|'touch'|'pen', x, y, time, button, buttons,
//    ctrlKey, shiftKey, altKey, metaKey}
//   {type: 'wheel', x, y, time, deltaY, deltaMode (0 px, 1 lines, 2 pages)}
//   {type: 'keydown', key, time, shiftKey, ctrlKey, altKey, metaKey}
// x, y are viewport pixels (e.g. clientX minus the canvas's left).
// 'dblclick' events are ignored: double taps are detected from pointer events
// for mouse and touch alike (so forward pointer events only).
//
// Output gestures: {type: 'gesture', kind, phase, x, y, t, ...}
//   pan          begin at the press point, change at each move, end at release.
//                x, y = pointer position (the hub keeps the grabbed point under it).
//   pinch        two pointers; x, y = midpoint (focal point); scale = distance /
//                start distance; rotation = cumulative turn of the line between
//                the pointers in degrees, positive clockwise on screen.
//   tilt         two pointers moving vertically together: dy = cumulative mean
//                vertical movement in px (positive down); also from right/ctrl
//                drags (dy = vertical movement) alongside `rotate`.
//   rotate       right-drag or ctrl-drag: rotation = degreesPerPixel * horizontal
//                movement (positive when moving right); emitted with `tilt`.
//   tap, doubleTap, twoFingerTap: one message without a phase
//                (instantaneous kinds omit it). A tap waits out the double-tap
//                window (doubleTapMs): a second tap in time and place makes the
//                pair one doubleTap and no tap at all, so a double-click zooms
//                without telling the room about two taps. Any other gesture
//                sends a waiting tap first; tick() sends it when the window ends.
//   longPress    HERE's phases: begin once the pointer was held still for
//                longPressMs, change when the held pointer moves (no pan), end
//                at release, cancel when cancelled or a second finger lands.
//   scroll       no phase; delta = wheel deltaY in px (positive = scrolled
//                down / toward the user, which MapLibre maps to zooming out).
// Keys: arrows -> a pan of panStep px (begin/change/end), shift+left/right ->
// rotate by ∓keyRotation degrees; '+'/'=' -> doubleTap at the centre (zoom in),
// '-'/'_' -> twoFingerTap at the centre (zoom out).
// tick(now) must be called periodically while a pointer is down or a tap waits
// (`waiting`; e.g. each animation frame) so a long press or a single tap is
// reported without further input.

const DEFAULTS = {
  width: 0,
  height: 0,
  slop: 6, // px a pointer may move and still count as not moving
  tapMaxMs: 500, // longest press that is still a tap
  doubleTapMs: 300, // max time between the two taps of a double tap
  doubleTapSlop: 25, // max distance between the two taps
  twoFingerTapMs: 250, // max time between the two releases of a two-finger tap
  longPressMs: 600,
  degreesPerPixel: 0.8, // rotate gesture (MapLibre's mouse rotate rate)
  tiltVerticality: 2, // |dy| > k |dx| for each finger to count as vertical
  tiltWait: 24, // px one finger may move vertically alone before it counts as a pinch
  lineHeight: 40, // px per line for wheel deltaMode 1 (as MapLibre)
  panStep: 100, // px per arrow key
  keyRotation: 15, // degrees per shift+arrow
};

const dist = (ax, ay, bx, by) => Math.hypot(bx - ax, by - ay);

function normalizeTurn(deg) {
  let d = deg % 360;
  if (d > 180) d -= 360;
  else if (d <= -180) d += 360;
  return d;
}

export class GestureRecognizer {
  constructor(options = {}) {
    this.o = { ...DEFAULTS, ...options };
    this.pointers = new Map(); // id -> {x, y, sx, sy, downT, mouse, button}
    this.ignored = new Set();
    this.mode = 'idle';
    this.heldTap = null; // a tap waiting out the double-tap window
  }

  /** True while a tap waits to see whether a second one makes a double tap (call tick()). */
  get waiting() {
    return this.heldTap !== null;
  }

  setViewport(width, height) {
    this.o.width = width;
    this.o.height = height;
  }

  get centre() {
    return { x: this.o.width / 2, y: this.o.height / 2 };
  }

  /** Translates one input event; returns the gestures it completes (maybe none). */
  handle(ev) {
    const t = ev.time ?? ev.t ?? 0;
    const out = this.tick(t);
    const held = this.heldTap;
    switch (ev.type) {
      case 'pointerdown':
        this.down(ev, t, out);
        break;
      case 'pointermove':
        this.move(ev, t, out);
        break;
      case 'pointerup':
        this.up(ev, t, out, false);
        break;
      case 'pointercancel':
        this.up(ev, t, out, true);
        break;
      case 'wheel':
        this.wheel(ev, t, out);
        break;
      case 'keydown':
        this.key(ev, t, out);
        break;
      default:
        break;
    }
    // Another gesture came before the window ended: the held tap was a tap.
    if (held && this.heldTap === held && out.length > 0) {
      this.heldTap = null;
      out.unshift(held);
    }
    return out;
  }

  /** Reports a long press once the pointer has been held still long enough, and a tap once no double tap can follow. */
  tick(now) {
    const out = [];
    if (this.heldTap && now - this.heldTap.t > this.o.doubleTapMs) {
      out.push(this.heldTap);
      this.heldTap = null;
    }
    if (this.mode === 'pending' && this.tapEligible && !this.longPressed) {
      const p = this.single();
      if (p && now - p.downT >= this.o.longPressMs) {
        this.longPressed = true;
        this.mode = 'longPress';
        this.pressAt = { x: p.x, y: p.y };
        out.push(this.g('longPress', 'begin', p.x, p.y, now));
      }
    }
    return out;
  }

  /** Cancels whatever is in progress (e.g. the window lost focus). */
  cancelAll(t) {
    const out = [];
    if (this.heldTap) out.push(this.heldTap);
    this.heldTap = null;
    this.cancelActive(t, out);
    this.pointers.clear();
    this.ignored.clear();
    this.mode = 'idle';
    return out;
  }

  // -------------------------------------------------------------------------

  // phase null: an instantaneous gesture, sent without a phase.
  g(kind, phase, x, y, t, extra) {
    const out = { type: 'gesture', kind };
    if (phase !== null) out.phase = phase;
    return Object.assign(out, { x, y, t }, extra);
  }

  single() {
    for (const p of this.pointers.values()) return p;
    return null;
  }

  pair() {
    const [a, b] = [...this.pointers.values()];
    return [a, b];
  }

  cancelActive(t, out) {
    const phase = 'cancel';
    if (this.mode === 'pan') {
      const p = this.single();
      out.push(this.g('pan', phase, p.x, p.y, t));
    } else if (this.mode === 'longPress') {
      const p = this.single();
      out.push(this.g('longPress', phase, p.x, p.y, t));
    } else if (this.mode === 'rotate') {
      const p = this.single();
      out.push(this.g('rotate', phase, p.x, p.y, t, { rotation: this.rotation }));
      out.push(this.g('tilt', phase, p.x, p.y, t, { dy: this.dy }));
    } else if (this.mode === 'pinch' || this.mode === 'tilt') {
      const m = this.midpoint();
      out.push(this.twoGesture(this.mode, phase, m, t));
    }
  }

  down(ev, t, out) {
    const id = ev.pointerId ?? ev.id ?? 0;
    if (this.pointers.size >= 2 || this.pointers.has(id)) {
      this.ignored.add(id);
      return;
    }
    const mouse = (ev.pointerType ?? 'mouse') === 'mouse';
    const p = { x: ev.x, y: ev.y, sx: ev.x, sy: ev.y, downT: t, mouse, button: ev.button ?? 0 };
    if (this.pointers.size === 0) {
      this.pointers.set(id, p);
      if (mouse && (p.button === 2 || ev.ctrlKey)) {
        this.mode = 'rotatePending';
      } else if (mouse && p.button !== 0) {
        this.mode = 'ignored'; // middle button etc.
      } else {
        this.mode = 'pending';
        this.tapEligible = true;
        this.longPressed = false;
      }
      return;
    }
    // second pointer: only touch/pen pairs make two-finger gestures
    const first = this.single();
    if (mouse || first.mouse || this.mode === 'rotate' || this.mode === 'rotatePending' || this.mode === 'ignored') {
      this.ignored.add(id);
      return;
    }
    if (this.mode === 'pan') out.push(this.g('pan', 'end', first.x, first.y, t));
    if (this.mode === 'longPress') out.push(this.g('longPress', 'cancel', first.x, first.y, t));
    const twoTapCandidate = this.mode === 'pending' && this.tapEligible && !this.longPressed &&
      dist(first.sx, first.sy, first.x, first.y) <= this.o.slop;
    this.pointers.set(id, p);
    this.startTwo(t, twoTapCandidate);
  }

  startTwo(t, tapCandidate) {
    for (const q of this.pointers.values()) {
      q.sx = q.x;
      q.sy = q.y;
    }
    const [a, b] = this.pair();
    this.mode = 'twoPending';
    this.twoTap = tapCandidate ? { start: t, firstUp: null, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } : null;
    this.startDist = Math.max(1e-6, dist(a.x, a.y, b.x, b.y));
    this.lastAngle = Math.atan2(b.y - a.y, b.x - a.x) * (180 / Math.PI);
    this.rotationSum = 0;
  }

  midpoint() {
    const [a, b] = this.pair();
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }

  twoGesture(kind, phase, m, t) {
    if (kind === 'pinch') return this.g('pinch', phase, m.x, m.y, t, { scale: this.scale, rotation: this.rotationSum });
    return this.g('tilt', phase, m.x, m.y, t, { dy: this.dy });
  }

  updateTwo() {
    const [a, b] = this.pair();
    this.scale = dist(a.x, a.y, b.x, b.y) / this.startDist;
    const angle = Math.atan2(b.y - a.y, b.x - a.x) * (180 / Math.PI);
    this.rotationSum += normalizeTurn(angle - this.lastAngle);
    this.lastAngle = angle;
    this.dy = (a.y - a.sy + (b.y - b.sy)) / 2;
  }

  move(ev, t, out) {
    const id = ev.pointerId ?? ev.id ?? 0;
    const p = this.pointers.get(id);
    if (!p) return; // hover, or an ignored pointer
    p.x = ev.x;
    p.y = ev.y;
    const o = this.o;
    switch (this.mode) {
      case 'pending':
        if (dist(p.sx, p.sy, p.x, p.y) > o.slop) {
          this.mode = 'pan';
          this.tapEligible = false;
          out.push(this.g('pan', 'begin', p.sx, p.sy, t));
          out.push(this.g('pan', 'change', p.x, p.y, t));
        }
        break;
      case 'pan':
        out.push(this.g('pan', 'change', p.x, p.y, t));
        break;
      case 'longPress':
        if (p.x !== this.pressAt.x || p.y !== this.pressAt.y) {
          this.pressAt = { x: p.x, y: p.y };
          out.push(this.g('longPress', 'change', p.x, p.y, t));
        }
        break;
      case 'rotatePending':
        if (dist(p.sx, p.sy, p.x, p.y) > o.slop) {
          this.mode = 'rotate';
          this.rotation = 0;
          this.dy = 0;
          out.push(this.g('rotate', 'begin', p.sx, p.sy, t, { rotation: 0 }));
          out.push(this.g('tilt', 'begin', p.sx, p.sy, t, { dy: 0 }));
          this.rotateChange(p, t, out);
        }
        break;
      case 'rotate':
        this.rotateChange(p, t, out);
        break;
      case 'twoPending': {
        this.updateTwo();
        const [a, b] = this.pair();
        const va = { x: a.x - a.sx, y: a.y - a.sy };
        const vb = { x: b.x - b.sx, y: b.y - b.sy };
        const la = Math.hypot(va.x, va.y);
        const lb = Math.hypot(vb.x, vb.y);
        if (la <= o.slop && lb <= o.slop) break;
        if (this.twoTap) this.twoTap = null;
        const vertical = (v) => Math.abs(v.y) > o.tiltVerticality * Math.abs(v.x);
        const bothMoved = la > o.slop / 2 && lb > o.slop / 2;
        // Browsers report the two fingers in separate events: when only one has
        // moved, and vertically, wait a little for the other before deciding.
        const moved = la > lb ? va : vb;
        if (!bothMoved && vertical(moved) && Math.max(la, lb) <= o.tiltWait) break;
        const kind = bothMoved && vertical(va) && vertical(vb) && Math.sign(va.y) === Math.sign(vb.y) ? 'tilt' : 'pinch';
        this.mode = kind;
        const start = { x: (a.sx + b.sx) / 2, y: (a.sy + b.sy) / 2 };
        out.push(kind === 'pinch'
          ? this.g('pinch', 'begin', start.x, start.y, t, { scale: 1, rotation: 0 })
          : this.g('tilt', 'begin', start.x, start.y, t, { dy: 0 }));
        out.push(this.twoGesture(kind, 'change', this.midpoint(), t));
        break;
      }
      case 'pinch':
      case 'tilt':
        this.updateTwo();
        out.push(this.twoGesture(this.mode, 'change', this.midpoint(), t));
        break;
      case 'twoTapWait': // one finger of a possible two-finger tap is still down
        if (dist(p.sx, p.sy, p.x, p.y) > o.slop) {
          this.twoTap = null;
          this.resumeSingle(p);
          this.move(ev, t, out);
        }
        break;
      default:
        break;
    }
  }

  rotateChange(p, t, out) {
    const rotation = (p.x - p.sx) * this.o.degreesPerPixel;
    const dy = p.y - p.sy;
    if (rotation !== this.rotation) {
      this.rotation = rotation;
      out.push(this.g('rotate', 'change', p.x, p.y, t, { rotation }));
    }
    if (dy !== this.dy) {
      this.dy = dy;
      out.push(this.g('tilt', 'change', p.x, p.y, t, { dy }));
    }
  }

  // After a two-finger gesture, the remaining finger pans once it moves (no tap).
  resumeSingle(p) {
    p.sx = p.x;
    p.sy = p.y;
    this.mode = 'pending';
    this.tapEligible = false;
    this.longPressed = false;
  }

  up(ev, t, out, cancelled) {
    const id = ev.pointerId ?? ev.id ?? 0;
    if (this.ignored.delete(id)) return;
    const p = this.pointers.get(id);
    if (!p) return;
    if (ev.x !== undefined) {
      p.x = ev.x;
      p.y = ev.y;
    }
    const o = this.o;
    const mode = this.mode;

    if (cancelled) {
      this.cancelActive(t, out);
      this.pointers.delete(id);
      this.twoTap = null;
      const rest = this.single();
      if (rest) this.resumeSingle(rest);
      else this.mode = 'idle';
      return;
    }

    switch (mode) {
      case 'pending': {
        const isTap = this.tapEligible && !this.longPressed && t - p.downT <= o.tapMaxMs &&
          dist(p.sx, p.sy, p.x, p.y) <= o.slop;
        if (isTap) {
          const last = this.heldTap;
          this.heldTap = null;
          if (last && t - last.t <= o.doubleTapMs && dist(last.x, last.y, p.x, p.y) <= o.doubleTapSlop) {
            out.push(this.g('doubleTap', null, p.x, p.y, t));
          } else {
            if (last) out.push(last); // too far for a double tap: that one was a tap
            this.heldTap = this.g('tap', null, p.x, p.y, t);
          }
        }
        break;
      }
      case 'pan':
        out.push(this.g('pan', 'end', p.x, p.y, t));
        break;
      case 'longPress':
        out.push(this.g('longPress', 'end', p.x, p.y, t));
        break;
      case 'rotate':
        out.push(this.g('rotate', 'end', p.x, p.y, t, { rotation: this.rotation }));
        out.push(this.g('tilt', 'end', p.x, p.y, t, { dy: this.dy }));
        break;
      case 'twoPending':
        if (this.twoTap) this.twoTap.firstUp = t;
        break;
      case 'pinch':
      case 'tilt':
        this.updateTwo();
        out.push(this.twoGesture(mode, 'end', this.midpoint(), t));
        break;
      case 'twoTapWait': {
        const tap = this.twoTap;
        if (tap && t - tap.firstUp <= o.twoFingerTapMs && t - tap.start <= o.tapMaxMs) {
          out.push(this.g('twoFingerTap', null, tap.x, tap.y, t));
        }
        this.twoTap = null;
        break;
      }
      default:
        break;
    }
    this.pointers.delete(id);
    const rest = this.single();
    if (!rest) {
      this.mode = 'idle';
      return;
    }
    if (mode === 'twoPending' && this.twoTap) this.mode = 'twoTapWait';
    else if (mode === 'twoPending' || mode === 'pinch' || mode === 'tilt') this.resumeSingle(rest);
  }

  wheel(ev, t, out) {
    let delta = ev.deltaY ?? 0;
    if (ev.deltaMode === 1) delta *= this.o.lineHeight;
    else if (ev.deltaMode === 2) delta *= this.o.height || 800;
    if (delta === 0) return;
    out.push(this.g('scroll', null, ev.x ?? this.centre.x, ev.y ?? this.centre.y, t, { delta }));
  }

  key(ev, t, out) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return; // browser shortcuts
    const { x, y } = this.centre;
    const step = this.o.panStep;
    const pans = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (ev.shiftKey && (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight')) {
      const rotation = ev.key === 'ArrowLeft' ? -this.o.keyRotation : this.o.keyRotation;
      out.push(this.g('rotate', 'begin', x, y, t, { rotation: 0 }));
      out.push(this.g('rotate', 'change', x, y, t, { rotation }));
      out.push(this.g('rotate', 'end', x, y, t, { rotation }));
    } else if (pans[ev.key]) {
      // Arrow left shows more of the west: the map content moves right.
      const [dx, dy] = pans[ev.key];
      out.push(this.g('pan', 'begin', x, y, t));
      out.push(this.g('pan', 'change', x + dx, y + dy, t));
      out.push(this.g('pan', 'end', x + dx, y + dy, t));
    } else if (ev.key === '+' || ev.key === '=') {
      out.push(this.g('doubleTap', null, x, y, t));
    } else if (ev.key === '-' || ev.key === '_') {
      out.push(this.g('twoFingerTap', null, x, y, t));
    }
  }
}
