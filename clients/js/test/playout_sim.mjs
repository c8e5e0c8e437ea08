// A deterministic follower simulation for the jitter-buffer tests: a hub that
// sends frames on ideal due times of a 60 Hz tick, a network + busy page that
// delivers them at scripted local times, and a render loop with scripted
// display-frame times (the camera set in frame k is on screen at frame k+1).

import { SnapshotBuffer } from '../src/follow/interpolation.js';
import { FramePacer } from '../src/follow/playout.js';
import { cameraDistancePx } from '../src/follow/interpolation.js';

export const TICK = 1000 / 60;
export const OFFSET = 5000; // local clock minus hub clock

/** Deterministic pseudo-random numbers in [0, 1). */
export function rng(seed = 1) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A straight animate segment: 0.5°/s of longitude, zoom 0.5/s, bearing 30°/s, tilt 5°/s. */
export function linearPath(t0) {
  return (t) => {
    const s = Math.max(0, t - t0) / 1000;
    return { lat: 20, lon: 10 + 0.5 * s, zoom: 5 + 0.5 * s, bearing: (30 * s) % 360, tilt: Math.min(60, 5 * s) };
  };
}

/**
 * The hub's frames for motions [{start, end, path}] (hub ms) at `rate`: one
 * frame per due time while moving (on the tick), and a moving:false frame on
 * the first tick at or after the end, with the exact final camera.
 */
export function hubFrames(motions, rate, { seq0 = 1 } = {}) {
  const frames = [];
  let seq = seq0;
  const step = 1000 / rate;
  for (const m of motions) {
    let due = m.start + step;
    for (;;) {
      const tick = Math.ceil(due / TICK - 1e-6) * TICK;
      if (tick >= m.end) break;
      frames.push({ type: 'frame', seq: seq++, time: tick, camera: m.path(tick), moving: true, by: 'c1' });
      due += step;
    }
    const endTick = Math.ceil(m.end / TICK - 1e-6) * TICK;
    frames.push({ type: 'frame', seq: seq++, time: endTick, camera: m.path(m.end), moving: false, by: 'c1' });
  }
  return frames;
}

/**
 * Runs the follower: `arrive(frame, i)` gives each frame's local receive time,
 * (kept in order), `paints` the animation-frame times (local ms). Returns the samples, each
 * {now, paintAt, rt, camera, moving, dry, delay, resyncs, held (the clock held by a stall), errorPx} and the buffer.
 */
export function simulate({ frames, arrive, paints, rate = 30, welcome = null, predictPaint = true, options = {}, pacerWindow }) {
  const buf = new SnapshotBuffer({ rate, ...options });
  const pacer = new FramePacer(pacerWindow ? { window: pacerWindow } : {});
  // One TCP stream: a frame is never handled before the one sent ahead of it.
  let prev = -Infinity;
  const deliveries = frames.map((f, i) => {
    prev = Math.max(prev, arrive(f, i));
    return { f, at: prev };
  });
  if (welcome) deliveries.unshift({ f: welcome, at: welcome.time + OFFSET + 5 });
  const samples = [];
  let k = 0;
  for (const now of paints) {
    while (k < deliveries.length && deliveries[k].at <= now) {
      buf.push(deliveries[k].f, deliveries[k].at);
      k++;
    }
    pacer.tick(now);
    const lead = predictPaint ? pacer.lead : 0;
    const s = buf.sample(now, lead);
    if (s?.moving) pacer.drew();
    if (s) samples.push({ now, paintAt: now + lead, rt: s.time, camera: s.camera, moving: s.moving, dry: s.dry, delay: buf.delay, resyncs: buf.clock.resyncs, held: buf.clock.stalled, errorPx: buf.errorPx });
  }
  return { samples, buf };
}

/** Animation-frame times from t0 to t1: `frameMs` apart with up to ±jitterMs of noise. */
export function paintTimes(t0, t1, frameMs, jitterMs = 0, seed = 7) {
  const r = rng(seed);
  const out = [];
  for (let t = t0; t <= t1; t += frameMs + (r() * 2 - 1) * jitterMs) out.push(t);
  return out;
}

/** Error in px of each moving sample against the true path at the time it shows. */
export function pathErrors(samples, path, from = -Infinity) {
  return samples.filter((s) => s.moving && s.rt >= from).map((s) => cameraDistancePx(path(s.rt), s.camera));
}

export function rms(xs) {
  return xs.length ? Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length) : 0;
}
