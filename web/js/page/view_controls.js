// How the room's map looks, from the controls panel (drivers and presenters):
// the projection switch (Mercator / Globe: a `projection` command; the map
// follows when the hub says `projectionChanged`), the roll slider (−180…180°)
// with its Level button, and the roll gesture: Ctrl+Shift-drag on the map
// turns the picture with the pointer (motion/roll.js). The slider and the drag
// send `set {roll}`, at most 30 a second (the newest roll, the last always);
// the page shows the roll when the hub's frames bring it back, like any camera
// change. A Ctrl+Shift drag never reaches the gesture input (where Ctrl-drag
// rotates and tilts); a two-finger twist still turns the bearing. With the hub's
// terrain, the "Follow the ground" box: on (the default), this driver's camera is
// clamped to the ground (map/ground.js); off, its elevation is free.

import { build } from '../../../clients/js/src/protocol/messages.js';
import { RollDrag, Throttle, ROLL_SEND_EVERY_MS, clampRoll } from '../motion/roll.js';

/** After the person last moved the slider (ms), the room's roll does not move it under their hand. */
const SLIDER_HELD_MS = 1000;

export class ViewControls {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the room's projection, limits, the camera on
   *   screen, who may drive
   * @param {object} parts.conn the page's connection: the only way the commands leave
   * @param {() => number} parts.now the page clock (ms)
   * @param {HTMLElement} parts.container the map element
   * @param {(text: string, kind?: string, ms?: number) => void} parts.toast
   */
  constructor({ state, conn, now, container, toast }) {
    this.state = state;
    this.conn = conn;
    this.now = now;
    this.container = container;
    this.toast = toast;
    this.$ = (sel) => document.querySelector(sel);
    this.slider = this.$('#roll');
    this.readout = this.$('#roll-value');
    /** When the person last moved the slider (page ms). */
    this.slidAt = -Infinity;
    /** The roll drag under way: {pointerId, roll (RollDrag)}, or null. */
    this.drag = null;
    this.rolls = new Throttle({ everyMs: ROLL_SEND_EVERY_MS, now, send: (roll) => this.send(build.set({ roll })) });
    this.installProjection();
    this.installRoll();
    this.installRollDrag();
  }

  /** With terrain: the "Follow the ground" box shown, and switching `ground` (a GroundFollower; null: none). */
  showGround(ground) {
    if (!ground) return;
    const box = this.$('#ground-follow');
    this.$('#ground-row').hidden = false;
    box.checked = ground.clamped;
    box.addEventListener('change', () => {
      ground.clamped = box.checked;
    });
  }

  send(message) {
    if (this.conn.send(message)) return true;
    this.toast('Not connected to the hub', 'error', 2000);
    return false;
  }

  installProjection() {
    for (const b of document.querySelectorAll('[data-projection]')) {
      b.addEventListener('click', () => this.send(build.projection(b.dataset.projection)));
    }
  }

  installRoll() {
    const { slider } = this;
    slider.addEventListener('input', () => {
      this.slidAt = this.now();
      this.showRoll(Number(slider.value));
      this.rolls.push(Number(slider.value));
    });
    slider.addEventListener('change', () => this.rolls.flush());
    this.$('#roll-level').addEventListener('click', () => {
      this.rolls.cancel();
      this.slidAt = this.now();
      this.showRoll(0);
      this.send(build.set({ roll: 0 }));
    });
  }

  /** Ctrl+Shift + left button on the map: a roll drag, caught before the gesture input sees it. */
  installRollDrag() {
    const { container } = this;
    const mine = (ev) => this.drag !== null && ev.pointerId === this.drag.pointerId;
    const swallow = (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
    };
    document.addEventListener('pointerdown', (ev) => {
      if (ev.defaultPrevented || !ev.ctrlKey || !ev.shiftKey || ev.button !== 0 || !container.contains(ev.target)) return;
      if (!this.conn.joined || !this.state.canDrive) return; // a follower's drag explores, as any other
      swallow(ev);
      try {
        container.setPointerCapture(ev.pointerId);
      } catch {
        // the pointer is gone already
      }
      const { x } = this.point(ev);
      const roll = this.state.screen.rendered?.roll ?? 0;
      this.drag = { pointerId: ev.pointerId, roll: new RollDrag({ x, roll, centreY: this.state.screen.viewport.height / 2,
        maxRoll: this.state.limits?.maxRoll ?? 180 }) };
    }, { capture: true });
    document.addEventListener('pointermove', (ev) => {
      if (!mine(ev)) return;
      swallow(ev);
      const { x, y } = this.point(ev);
      this.rolls.push(this.drag.roll.move(x, y));
    }, { capture: true });
    for (const type of ['pointerup', 'pointercancel']) {
      document.addEventListener(type, (ev) => {
        if (!mine(ev)) return;
        swallow(ev);
        this.drag = null;
        this.rolls.flush();
      }, { capture: true });
    }
  }

  point(ev) {
    const r = this.container.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }

  /** The room's projection changed (or a welcome): the switch shows it. */
  update() {
    for (const b of document.querySelectorAll('[data-projection]')) {
      b.setAttribute('aria-pressed', String(b.dataset.projection === this.state.projection));
    }
  }

  /**
   * The camera on screen (ten times a second): the slider shows its roll, unless the person is moving it, and
   * spans the room's ±maxRoll.
   */
  show(camera) {
    const max = String(this.state.limits?.maxRoll ?? 180);
    if (this.slider.max !== max) {
      this.slider.max = max;
      this.slider.min = String(-Number(max));
    }
    if (!camera || this.drag || this.now() - this.slidAt < SLIDER_HELD_MS) return;
    const roll = clampRoll(camera.roll ?? 0);
    this.slider.value = String(Math.round(roll));
    this.showRoll(roll);
  }

  showRoll(roll) {
    const text = `${roll.toFixed(1)}°`;
    if (this.readout.textContent !== text) this.readout.textContent = text;
  }
}
