// Any MapLibre map follows or drives a room in one call:
//
//   const room = connect({ url, room: 'demo', role: 'follower' });
//   const attached = attachMapLibre(map, room);   // mode 'follow' (default) or 'drive'
//
// The map's own handlers go off; it moves as the room does, through the same
// pipeline as the bundled viewer: frames played out behind the jitter buffer
// (Hermite interpolation with the hub's velocity, paint-time prediction), the
// follower's fit to its screen, reduced motion. In `follow` mode the person's
// drag, wheel, pinch and keys explore (the hub's gesture rules, on this map
// only; the room sees `exploring`) until `attached.back()`, a summons or a lock
// brings the map back. In `drive` mode (a driver or presenter) they become the
// room's gestures, predicted at once and reconciled with the hub's answers.
// Browser only (requestAnimationFrame, the map's container).
//
// A camera's roll and elevation go to `jumpTo` (MapLibre GL JS 5), its field of
// view to `setVerticalFieldOfView` when it changes; a room that never has them
// makes the same calls as before they existed. Create the map with
// `maxPitch: 85`: MapLibre's default 60 clamps the room's higher tilts. The map
// shows the room's centre elevation: attaching turns MapLibre's
// `centerClampedToGround` off (without terrain MapLibre would put every
// centre back on the ground, elevation 0).
//
// The room's projection (Mercator or the globe) goes to `map.setProjection`
// at attach and whenever the room changes it (only then: a Mercator room makes
// no call), and again after the map loads a style (which brings its own).

import { SnapshotBuffer } from '../follow/interpolation.js';
import { FramePacer } from '../follow/playout.js';
import { Explorer } from '../follow/explore.js';
import { ReducedMotion } from '../follow/reduced_motion.js';
import { FollowControl } from '../follow/follow_control.js';
import { cameraToShow, sameCamera } from '../follow/show.js';
import { Predictor } from '../drive/prediction.js';
import { InputCapture } from '../drive/input.js';
import { build } from '../protocol/messages.js';
import { toMapLibreCamera, applyProjection, MAPLIBRE_HANDLERS } from './camera.js';
import { DEFAULT_FOV_DEGREES } from '../geo/projection.js';

/** Milliseconds after the last resize before the hub hears the new viewport. */
const VIEWPORT_SETTLE_MS = 150;

/**
 * Makes `map` follow or drive `room`.
 * @param {object} map a MapLibre GL JS map
 * @param {import('../room.js').Room} room a room from `connect()` (attach before or after its welcome)
 * @param {{mode?: 'follow'|'drive', fit?: 'same'|'cover', reducedMotion?: boolean}} [options] `fit`: how a
 *   follower shows the room's camera on a screen of another size; `reducedMotion`: show others' non-essential
 *   animations as jumps (default: the browser's prefers-reduced-motion)
 * @returns {MapLibreAttachment}
 */
export function attachMapLibre(map, room, options = {}) {
  return new MapLibreAttachment(map, room, options).start();
}

export class MapLibreAttachment {
  /**
   * @param {any} map a MapLibre map
   * @param {import('../room.js').Room} room
   * @param {{mode?: 'follow'|'drive', fit?: 'same'|'cover', reducedMotion?: boolean}} options
   */
  constructor(map, room, { mode = 'follow', fit, reducedMotion } = {}) {
    if (mode !== 'follow' && mode !== 'drive') throw new TypeError(`attachMapLibre: mode must be 'follow' or 'drive' (got ${mode})`);
    if (!map || typeof map.jumpTo !== 'function') throw new TypeError('attachMapLibre: map must be a MapLibre map');
    this.map = map;
    this.room = room;
    this.mode = mode;
    this.now = () => performance.timeOrigin + performance.now();
    this.container = map.getContainer();
    this.viewport = this.size();
    const state = room.state;
    this.buffer = new SnapshotBuffer({ rate: state.session.rate ?? 30 });
    this.pacer = new FramePacer();
    this.explorer = new Explorer({ viewport: this.viewport });
    this.prediction = mode === 'drive' ? new Predictor({ viewport: this.viewport }) : null;
    const prefersReduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    this.reducedMotion = new ReducedMotion(reducedMotion ?? prefersReduced);
    /** The camera on the map now (wire form), and the newest played-out frame. */
    this.rendered = null;
    /** What the map was given besides the flat camera: roll and elevation once given (then always), its fov (degrees). */
    this.given = { roll: false, elevation: false, fov: map.getVerticalFieldOfView?.() ?? DEFAULT_FOV_DEGREES };
    map.setCenterClampedToGround?.(false);
    this.lastSample = null;
    this.follow = new FollowControl({ state, explorer: this.explorer, now: this.now, send: (m) => room.conn.send(m),
      shown: () => this.rendered, roomCamera: () => this.lastSample?.camera ?? null });
    if (fit) this.setFit(fit);
    this.offs = [];
    /** The pending `viewport` message of a resize, or null. */
    this.viewportTimer = null;
  }

  /** True while the map shows its own camera (the person explores, or it glides back). */
  get exploring() {
    return this.explorer.exploring;
  }

  /** Glides the map back to the room's camera and follows again. */
  back() {
    this.follow.back();
  }

  /** How a follower fits the room's camera to this map: 'same' or 'cover'. */
  setFit(mode) {
    if (this.room.joined) this.room.fit(mode);
    else this.room.state.session.fit = mode;
  }

  start() {
    this.handlers = MAPLIBRE_HANDLERS.filter((h) => this.map[h]?.isEnabled?.());
    for (const h of this.handlers) this.map[h].disable();
    this.offs.push(this.room.on('message', (m, receivedAt, changes) => this.receive(m, receivedAt, changes)));
    if (this.room.welcome) this.welcomed(this.room.welcome, this.now());
    if (this.room.state.lastFrame) this.buffer.push(this.room.state.lastFrame, this.now());
    this.input = new InputCapture(this.container, {
      canDrive: () => this.room.joined && (this.drives || this.follow.mayExplore),
      onGesture: (g) => this.gesture(g),
      onAttempt: () => this.room.events.emit('exploreRefused'),
    });
    this.input.setViewport(this.viewport.width, this.viewport.height);
    this.input.attach();
    this.watchProjection();
    this.watchSize();
    const hidden = () => this.follow.visibility(document.hidden);
    document.addEventListener('visibilitychange', hidden);
    this.offs.push(() => document.removeEventListener('visibilitychange', hidden));
    const frame = (ts) => {
      if (this.detached) return;
      this.raf = requestAnimationFrame(frame);
      // the frame's own timestamp (when it began), not the time this code runs
      const at = Number.isFinite(ts) ? performance.timeOrigin + ts : this.now();
      this.pacer.tick(at);
      this.step(at, this.pacer.lead);
    };
    this.raf = requestAnimationFrame(frame);
    return this;
  }

  /** Gives the map back as it was (its handlers on again); the room stays joined. */
  detach() {
    this.detached = true;
    cancelAnimationFrame(this.raf);
    this.input.detach();
    for (const off of this.offs) off();
    clearTimeout(this.viewportTimer);
    for (const h of this.handlers) this.map[h].enable();
  }

  /** True when local input drives the room (drive mode, in a role that may). */
  get drives() {
    return this.mode === 'drive' && this.room.state.canDrive;
  }

  gesture(g) {
    if (!this.drives) {
      if (this.follow.input(g) === 'refused') this.room.events.emit('exploreRefused');
      return;
    }
    const m = build.gesture(g);
    const predict = !this.room.state.disabledGestures.has(m.kind);
    this.room.conn.send(predict ? this.prediction.outgoing(m, this.now(), this.rendered) : m);
  }

  receive(m, receivedAt, changes) {
    const { state } = this.room;
    if (changes?.has('projection')) this.showProjection();
    switch (m.type) {
      case 'welcome':
        this.welcomed(m, receivedAt);
        this.follow.changed(changes, document.hidden);
        return;
      case 'frame':
        return this.buffer.push(m, receivedAt);
      case 'animation':
        return this.reducedMotion.report(m, state.me);
      case 'gestureAck':
        return this.prediction?.ack(m, receivedAt);
      case 'error':
        if (m.ref === 'gesture') this.prediction?.rejected(m, receivedAt, this.lastSample?.camera ?? null);
        return undefined;
      case 'event':
        if (changes.has('limits')) this.prediction?.setLimits(state.limits);
        return this.follow.changed(changes, document.hidden);
      default:
        return undefined;
    }
  }

  welcomed(m, receivedAt) {
    const { state } = this.room;
    this.buffer.reset();
    this.buffer.setRate(state.rate ?? 30);
    this.buffer.setTick(m.tick);
    this.buffer.push({ seq: m.seq, time: m.time, camera: m.camera, moving: false, by: null }, receivedAt);
    this.prediction?.reset();
    this.prediction?.setLimits(state.limits);
    this.reducedMotion.reset();
  }

  /** One display frame beginning at local time `at`, on screen `lead` ms later. */
  step(at, lead) {
    const { buffer, explorer, prediction, reducedMotion, viewport } = this;
    const shown = cameraToShow({ buffer, explorer, prediction, reducedMotion, state: this.room.state, viewport }, at, lead);
    this.lastSample = shown.sample;
    if (shown.camera && !sameCamera(shown.camera, this.rendered)) {
      this.rendered = shown.camera;
      this.jump(shown.camera);
      if (this.map.loaded?.()) {
        const t0 = this.now();
        this.map.redraw?.();
        this.pacer.drew(this.now() - t0);
      }
    }
    this.input.tick(this.now());
    this.follow.looked(this.now(), shown.camera, viewport);
  }

  /**
   * Puts `camera` on the map: its field of view first when it changed
   * (setVerticalFieldOfView), then jumpTo. Once the map has been given a roll or
   * an elevation, a camera without one gives it 0 (jumpTo keeps what it is not given).
   */
  jump(camera) {
    const { map, given } = this;
    const fov = camera.fov ?? DEFAULT_FOV_DEGREES;
    if (Math.abs(fov - given.fov) > 1e-9 && typeof map.setVerticalFieldOfView === 'function') {
      map.setVerticalFieldOfView(fov);
      given.fov = fov;
    }
    const options = toMapLibreCamera(camera, this.viewport);
    if (options.roll !== undefined) given.roll = true;
    else if (given.roll) options.roll = 0;
    if (options.elevation !== undefined) given.elevation = true;
    else if (given.elevation) options.elevation = 0;
    map.jumpTo(options);
  }

  /**
   * Puts the room's projection on the map when the map draws in another (`applyProjection`); a map whose style
   * is still loading gets it on `style.load`.
   */
  showProjection() {
    applyProjection(this.map, this.room.state.projection);
  }

  /** The room's projection on the map now, and again after each style the map loads (a style brings its own). */
  watchProjection() {
    const restyled = () => this.showProjection();
    this.map.on?.('style.load', restyled);
    this.offs.push(() => this.map.off?.('style.load', restyled));
    this.showProjection();
  }

  size() {
    return { width: Math.max(1, this.container.clientWidth), height: Math.max(1, this.container.clientHeight) };
  }

  /** The container's size: the input, prediction and explorer follow at once, the hub once it settles. */
  watchSize() {
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const { width, height } = this.size();
      if (width === this.viewport.width && height === this.viewport.height) return;
      this.viewport = { width, height };
      this.input.setViewport(width, height);
      this.prediction?.setViewport(this.viewport);
      this.explorer.setViewport(this.viewport);
      clearTimeout(this.viewportTimer);
      this.viewportTimer = setTimeout(() => this.room.conn.send(build.viewport(width, height)), VIEWPORT_SETTLE_MS);
    });
    observer.observe(this.container);
    this.offs.push(() => observer.disconnect());
  }
}
