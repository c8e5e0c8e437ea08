// Captures mouse, touch, pen, wheel and keyboard input on the map element and
// turns it into hub gestures with gestures.js. The map itself never moves on
// local input (all MapLibre handlers are off): drivers send gestures and see
// the hub's frames; followers get an "attempt" callback instead, so the page
// can offer to take control.

import { GestureRecognizer } from './gestures.js';

export const HANDLED_KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', '+', '=', '-', '_'];

function isFormField(target) {
  const tag = target && target.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON' || (target && target.isContentEditable);
}

export class InputCapture {
  /**
   * @param {HTMLElement} el            the map container
   * @param {object} o
   * @param {() => boolean} o.canDrive  true when local input should become gestures
   * @param {(g: object) => void} o.onGesture   each gesture, in order
   * @param {(what: string) => void} o.onAttempt   local input while not driving
   * @param {object} [o.recognizerOptions]   the GestureRecognizer's options
   */
  constructor(el, o) {
    this.el = el;
    this.o = o;
    this.recognizer = new GestureRecognizer(o.recognizerOptions);
    this.listeners = [];
    this.active = false; // a pointer is down (long-press ticks needed)
    this.sentCount = 0;
  }

  static timeOf(ev) {
    return performance.timeOrigin + ev.timeStamp;
  }

  setViewport(width, height) {
    this.recognizer.setViewport(width, height);
  }

  emit(gestures) {
    for (const g of gestures) {
      this.sentCount++;
      this.o.onGesture(g);
    }
  }

  point(ev) {
    const r = this.el.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }

  on(target, type, fn, options) {
    target.addEventListener(type, fn, options);
    this.listeners.push(() => target.removeEventListener(type, fn, options));
  }

  attach() {
    const el = this.el;
    const pointer = (ev) => {
      if (ev.type === 'pointerdown') {
        el.focus({ preventScroll: true });
        if (!this.o.canDrive()) {
          this.o.onAttempt('pointer');
          return;
        }
        try {
          el.setPointerCapture(ev.pointerId);
        } catch {
          // the pointer is gone already
        }
      }
      if (!this.o.canDrive() && !this.recognizer.pointers.size) return;
      const { x, y } = this.point(ev);
      const out = this.recognizer.handle({
        type: ev.type, pointerId: ev.pointerId, pointerType: ev.pointerType, x, y, time: InputCapture.timeOf(ev),
        button: ev.button, buttons: ev.buttons, ctrlKey: ev.ctrlKey, shiftKey: ev.shiftKey, altKey: ev.altKey, metaKey: ev.metaKey,
      });
      this.active = this.recognizer.pointers.size > 0;
      if (ev.type !== 'pointermove' || this.active) ev.preventDefault();
      this.emit(out);
    };
    for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) this.on(el, type, pointer);
    this.on(el, 'wheel', (ev) => {
      ev.preventDefault();
      if (!this.o.canDrive()) {
        this.o.onAttempt('wheel');
        return;
      }
      const { x, y } = this.point(ev);
      this.emit(this.recognizer.handle({ type: 'wheel', x, y, time: InputCapture.timeOf(ev), deltaY: ev.deltaY, deltaMode: ev.deltaMode }));
    }, { passive: false });
    this.on(el, 'contextmenu', (ev) => ev.preventDefault());
    this.on(el, 'dblclick', (ev) => ev.preventDefault());
    const key = (ev) => {
      if (ev.defaultPrevented || isFormField(ev.target) || !HANDLED_KEYS.includes(ev.key)) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      ev.preventDefault();
      if (!this.o.canDrive()) {
        this.o.onAttempt('keyboard');
        return;
      }
      this.emit(this.recognizer.handle({ type: 'keydown', key: ev.key, time: InputCapture.timeOf(ev), shiftKey: ev.shiftKey }));
    };
    this.on(el.ownerDocument, 'keydown', key);
    this.on(el.ownerDocument.defaultView, 'blur', () => this.cancel());
  }

  /** Ends whatever gesture is in progress (focus lost, role changed). */
  cancel() {
    const out = this.recognizer.cancelAll(performance.timeOrigin + performance.now());
    this.active = false;
    if (this.o.canDrive()) this.emit(out);
  }

  /** Call every animation frame: reports long presses while a pointer is held, and taps once no double tap can follow. */
  tick(now) {
    if (this.active || this.recognizer.waiting) this.emit(this.recognizer.tick(now));
  }

  detach() {
    for (const off of this.listeners) off();
    this.listeners = [];
  }
}
