// The render loop: hub frames played out behind the jitter buffer's delay (or,
// while a driver's own gesture is under way, the page's prediction of it; while
// a follower explores or glides back, its own camera),
// each camera computed for the time it will be on screen and drawn at once
// (MapView.show; FramePacer predicts how long that takes), and the HUD and
// panel refreshed ten times a second. Hidden pages get no animation frames:
// a timer keeps them landing on the hub's camera.

import { cameraToShow, sameCamera } from '../../../clients/js/src/follow/show.js';

const HUD_EVERY_MS = 100;
const HIDDEN_EVERY_MS = 250;

export class RenderLoop {
  /**
   * @param {object} page {state, conn, buffer, pacer, prediction, explorer, reducedMotion, outline, pointer,
   *   fps, frameLatency, mapView, input, hud, panel, view, now}
   */
  constructor(page) {
    this.page = page;
    this.lastHud = 0;
    this.needle = document.querySelector('#needle');
  }

  start() {
    const frame = (ts) => {
      // Ask for the next frame first: this callback then runs before the map's own
      // in that frame, and the synchronous draw replaces the map's (no double draw).
      requestAnimationFrame(frame);
      // the frame's own timestamp (when it began), not the time this code runs
      const at = performance.timeOrigin + ts;
      this.page.pacer.tick(at);
      this.step(at, this.page.pacer.lead);
    };
    requestAnimationFrame(frame);
    setInterval(() => {
      if (!document.hidden) return;
      this.step(this.page.now(), 0);
    }, HIDDEN_EVERY_MS);
  }

  /** One display frame beginning at local time `at` (ms), on screen `lead` ms later. */
  step(at, lead) {
    const { buffer, prediction, explorer, reducedMotion, state } = this.page;
    const screen = state.screen;
    const t = this.page.now();
    const paintAt = at + lead;
    const shown = cameraToShow({ buffer, explorer, prediction, reducedMotion, state, viewport: screen.viewport }, at, lead);
    const s = shown.sample;
    screen.lastSample = s;
    if (shown.camera) {
      if (!sameCamera(shown.camera, screen.rendered)) this.render(shown.camera, shown.rt, paintAt, shown.seq);
      screen.showing(shown.moving, shown.frameSeq);
    }
    this.page.input.tick(t);
    this.page.follow.control.looked(t, shown.camera, screen.viewport);
    this.page.pointer.draw(t);
    if (t - this.lastHud >= HUD_EVERY_MS) {
      this.lastHud = t;
      this.renderHud(t);
      this.page.panel.sample(t);
      this.page.outline.update(s?.camera ?? null, screen.rendered);
      this.page.view.show(screen.rendered);
      this.followGround(t);
    }
  }

  /** A driver clamped to the ground: the ground's height under the centre on screen becomes the room's elevation. */
  followGround(t) {
    const { ground, mapView, state, conn } = this.page;
    const camera = state.screen.rendered;
    if (!ground || !camera) return;
    const animating = state.animations.live.size > 0;
    ground.step(t, { canDrive: conn.joined && state.canDrive, animating, camera, ground: mapView.ground(camera.lat, camera.lon) });
  }

  /** Puts `camera` on screen (rt: the hub time it shows; seq: the newest of this page's gestures in it). */
  render(camera, rt, paintAt, seq) {
    const { state, mapView, pacer, now } = this.page;
    const entry = state.screen.render(camera, { t: now(), rt, paintAt, seq });
    const draw = mapView.show(camera, now, document.hidden);
    if (draw) {
      entry.drawn = draw.drawn;
      pacer.drew(draw.ms);
    }
    this.needle.style.transform = `rotate(${-camera.bearing}deg)`;
  }

  renderHud(t) {
    const { conn, state, buffer, prediction, fps, frameLatency, hud } = this.page;
    hud.render({
      state: conn.state,
      detail: conn.detail,
      retryInMs: conn.nextRetryAt !== null ? conn.nextRetryAt - t : null,
      room: state,
      camera: state.screen.rendered,
      moving: state.screen.renderedMoving,
      fps: fps.rate(t),
      rtt: conn.latency.lastRtt,
      offset: conn.latency.offset,
      frameLatency: frameLatency.value,
      playout: buffer.stats,
      prediction: state.canDrive ? prediction.stats : null,
      animations: state.animations.describe((c) => state.nameOf(c)),
    });
  }
}
