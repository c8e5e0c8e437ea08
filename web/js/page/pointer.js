// The laser pointer: presenters and drivers point by holding Alt while moving
// the mouse over the map (or with the Pointer toggle, on a touch screen, by
// touching it); everyone sees the room's pointer as a dot with a short fading
// trail (motion/pointer_trail.js), drawn on a canvas over the map at the
// camera on screen.

import { build } from '../../../clients/js/src/protocol/messages.js';
import { project, unproject } from '../../../clients/js/src/geo/projection.js';
import { PointerTrail } from '../motion/pointer_trail.js';

/** Pointer messages sent at most this often (ms): 30 a second. */
const SEND_EVERY_MS = 33;
const DOT_RADIUS = 7;

export class Pointer {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state who may point (the role) and the camera on screen
   * @param {object} parts.conn the page's connection: the only way pointer messages leave
   * @param {() => number} parts.now the page clock (ms)
   * @param {HTMLElement} parts.container the map element
   */
  constructor({ state, conn, now, container }) {
    this.state = state;
    this.conn = conn;
    this.now = now;
    this.container = container;
    this.trail = new PointerTrail();
    this.canvas = document.querySelector('#pointer-layer');
    this.toggle = document.querySelector('#pointer-toggle');
    /** The page's own pointer is shown (it sent a position and not yet null). */
    this.pointing = false;
    this.lastSentAt = -Infinity;
    this.pending = null;
    /** The canvas is clear (nothing to redraw until a pointer shows). */
    this.blank = false;
    this.install();
  }

  /** True while touches point instead of driving (the Pointer toggle). */
  get touchMode() {
    return this.toggle.getAttribute('aria-pressed') === 'true';
  }

  install() {
    const { container } = this;
    container.addEventListener('pointermove', (ev) => {
      if (this.may() && (ev.altKey || (this.touchMode && ev.buttons))) this.point(ev);
      else if (this.pointing && !this.touchMode) this.hide();
    });
    container.addEventListener('pointerdown', (ev) => {
      if (this.may() && this.touchMode) this.point(ev);
    });
    container.addEventListener('pointerup', () => {
      if (this.touchMode) this.hide();
    });
    container.addEventListener('pointerleave', () => this.hide());
    document.addEventListener('keyup', (ev) => {
      if (ev.key === 'Alt') this.hide();
    });
    this.toggle.addEventListener('click', () => {
      this.toggle.setAttribute('aria-pressed', String(!this.touchMode));
      if (!this.touchMode) this.hide();
    });
  }

  /** Whether this page may point (a joined presenter or driver). */
  may() {
    return this.state.canDrive;
  }

  /** Points at the map under the pointer event (at most SEND_EVERY_MS apart; the last position is sent). */
  point(ev) {
    const { state, now } = this;
    const camera = state.screen.rendered;
    if (!camera) return;
    const r = this.container.getBoundingClientRect();
    const geo = unproject(camera, state.screen.viewport, { x: ev.clientX - r.left, y: ev.clientY - r.top });
    if (!geo) return; // in the sky
    ev.preventDefault();
    this.pending = geo;
    const t = now();
    if (t - this.lastSentAt >= SEND_EVERY_MS) this.flush(t);
    else if (!this.timer) this.timer = setTimeout(() => this.flush(this.now()), SEND_EVERY_MS - (t - this.lastSentAt));
  }

  flush(t) {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending) return;
    if (this.conn.send(build.pointer(this.pending.lat, this.pending.lon))) this.pointing = true;
    this.pending = null;
    this.lastSentAt = t;
  }

  /** Hides the page's own pointer (once). */
  hide() {
    clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    if (!this.pointing) return;
    this.pointing = false;
    this.conn.send(build.pointer(null));
  }

  /** A hub frame: its pointer (null or absent: nobody points) at local time `t`. */
  frame(m, t) {
    this.trail.update(m.pointer ?? null, t);
  }

  /** A new session: nobody's pointer is known, the page points at nothing. */
  reset() {
    this.trail = new PointerTrail();
    this.pointing = false;
  }

  /** Draws the dot and trail at local time `t` on the camera on screen. */
  draw(t) {
    const { state } = this;
    const { dot, trail } = this.trail.sample(t);
    const camera = state.screen.rendered;
    const nothing = !camera || (!dot && trail.length === 0);
    if (nothing && this.blank) return; // nothing drawn, nothing to draw
    this.blank = nothing;
    const ctx = this.canvas.getContext('2d');
    const { width, height } = state.screen.viewport;
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    ctx.clearRect(0, 0, width, height);
    this.canvas.dataset.dot = dot ? 'shown' : 'none';
    if (nothing) return;
    const at = (p) => project(camera, state.screen.viewport, p);
    for (const p of trail) {
      const s = at(p);
      if (!s) continue;
      ctx.fillStyle = `rgba(255, 40, 40, ${0.5 * p.alpha})`;
      ctx.beginPath();
      ctx.arc(s.x, s.y, DOT_RADIUS * (0.4 + 0.6 * p.alpha), 0, 2 * Math.PI);
      ctx.fill();
    }
    const s = dot && at(dot);
    if (!s) return;
    ctx.fillStyle = 'rgba(255, 30, 30, 0.95)';
    ctx.shadowColor = 'rgba(255, 60, 60, 0.9)';
    ctx.shadowBlur = 12;
    ctx.beginPath();
    ctx.arc(s.x, s.y, DOT_RADIUS, 0, 2 * Math.PI);
    ctx.fill();
    ctx.shadowBlur = 0;
    this.canvas.dataset.x = s.x.toFixed(1);
    this.canvas.dataset.y = s.y.toFixed(1);
  }
}
