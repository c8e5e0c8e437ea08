import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SnapshotBuffer, applyDelta, cameraDelta, cameraDistancePx, interpolateCamera } from '../src/follow/interpolation.js';

const FRAME_MS = 1000 / 30;

function cam(overrides = {}) {
  return { lat: 10, lon: 20, zoom: 5, bearing: 0, tilt: 0, ...overrides };
}

function frame(seq, time, camera, moving = true, by = 'c1') {
  return { type: 'frame', seq, time, camera, moving, by };
}

// Deterministic jitter in [-1, 1).
function jitter(i) {
  const x = Math.sin(i * 12.9898 + 78.233) * 43758.5453;
  return (x - Math.floor(x)) * 2 - 1;
}

/** Pushes a motion of n frames from camera(0) to camera(1), then a rest frame. */
function feedMotion(buf, { n = 10, t0 = 100000, latency = 40, camAt, jitterMs = 0, rest = true }) {
  const frames = [];
  for (let i = 0; i <= n; i++) {
    const last = i === n;
    const f = frame(i + 1, t0 + i * FRAME_MS, camAt(i / n), !(last && rest));
    frames.push({ f, receivedAt: f.time + 5000 + latency + jitterMs * (jitter(i) + 1) / 2 });
  }
  return frames;
}

/** Runs a 60 Hz render loop, delivering frames when due; returns the samples. */
function run(buf, deliveries, { from, to, step = 1000 / 60 }) {
  const pending = [...deliveries].sort((a, b) => a.receivedAt - b.receivedAt);
  const samples = [];
  for (let now = from; now <= to; now += step) {
    while (pending.length && pending[0].receivedAt <= now) {
      const d = pending.shift();
      buf.push(d.f, d.receivedAt);
    }
    const s = buf.sample(now);
    if (s) samples.push({ now, ...s });
  }
  return samples;
}

test('empty buffer samples null; a first frame snaps at once', () => {
  const buf = new SnapshotBuffer();
  assert.equal(buf.sample(0), null);
  const c = cam({ lat: 1.5, anchor: { x: 0.5, y: 0.8 } });
  buf.push(frame(1, 1000, c, false), 1050);
  const s = buf.sample(1050);
  assert.deepEqual(s.camera, c);
  assert.equal(s.moving, false);
  assert.deepEqual(buf.sample(5000).camera, c);
});

test('lands exactly on the moving:false frame when its time comes and holds it', () => {
  const buf = new SnapshotBuffer();
  const end = cam({ lat: 48.8566, lon: 2.3522, zoom: 12.3, bearing: 33.3, tilt: 41.7 });
  const start = cam();
  const deliveries = feedMotion(buf, { camAt: (t) => interpolateCamera(start, end, t * t) });
  const t0 = deliveries[0].receivedAt;
  const lastAt = deliveries[deliveries.length - 1].receivedAt;
  const samples = run(buf, deliveries, { from: t0, to: lastAt + 500 });
  const final = samples[samples.length - 1];
  assert.deepEqual(final.camera, end);
  assert.equal(final.moving, false);
  // It lands when the render time reaches the rest frame's time, not before.
  const rest = deliveries[deliveries.length - 1].f;
  const firstExact = samples.find((s) => !s.moving);
  assert.ok(firstExact.time >= rest.time, `${firstExact.time - rest.time}`);
  const before = samples[samples.indexOf(firstExact) - 1];
  assert.ok(before.moving && before.time < rest.time);
  for (const s of samples.filter((s) => s.now >= firstExact.now)) assert.deepEqual(s.camera, end);
});

test('longitude interpolates the short way across the antimeridian', () => {
  const buf = new SnapshotBuffer();
  const deliveries = feedMotion(buf, {
    n: 6,
    camAt: (t) => cam({ lon: t < 0.5 ? 179.4 + 1.2 * t : -180.6 + 1.2 * t }),
  });
  const samples = run(buf, deliveries, { from: deliveries[0].receivedAt, to: deliveries[6].receivedAt + 300 });
  assert.ok(samples.length > 10);
  for (const s of samples) {
    assert.ok(Math.abs(s.camera.lon) >= 179.39, `lon ${s.camera.lon}`);
    assert.ok(s.camera.lon >= -180 && s.camera.lon < 180);
  }
  assert.ok(Math.abs(samples[samples.length - 1].camera.lon - (-179.4)) < 1e-12);
  // direct midpoint check
  const mid = interpolateCamera(cam({ lon: 179.5 }), cam({ lon: -179.5 }), 0.5);
  assert.equal(mid.lon, -180);
});

test('bearing 350 -> 10 turns through 0, not through 180', () => {
  const buf = new SnapshotBuffer();
  const deliveries = [
    { f: frame(1, 0, cam({ bearing: 350 })), receivedAt: 10 },
    { f: frame(2, FRAME_MS, cam({ bearing: 10 }), false), receivedAt: 10 + FRAME_MS },
  ];
  const samples = run(buf, deliveries, { from: 10, to: 300, step: 2 });
  const bearings = samples.map((s) => s.camera.bearing);
  assert.ok(bearings.some((b) => b > 355) && bearings.some((b) => b < 5));
  for (const b of bearings) assert.ok(b >= 350 || b <= 10, `bearing ${b}`);
  assert.equal(bearings[bearings.length - 1], 10);
  assert.equal(interpolateCamera(cam({ bearing: 350 }), cam({ bearing: 10 }), 0.5).bearing, 0);
  assert.equal(interpolateCamera(cam({ bearing: 10 }), cam({ bearing: 350 }), 0.75).bearing, 355);
});

test('no overshoot, monotonic, even with arrival jitter', () => {
  const buf = new SnapshotBuffer();
  const start = cam({ zoom: 3, tilt: 0, lat: 0 });
  const end = cam({ zoom: 9, tilt: 60, lat: 30 });
  // ease-in-out; frames arrive with up to 25 ms of jitter
  const deliveries = feedMotion(buf, {
    n: 30,
    jitterMs: 25,
    camAt: (t) => interpolateCamera(start, end, t * t * (3 - 2 * t)),
  });
  const samples = run(buf, deliveries, { from: deliveries[0].receivedAt, to: deliveries[30].receivedAt + 500 });
  let prev = samples[0].camera;
  for (const s of samples) {
    const c = s.camera;
    assert.ok(c.zoom >= 3 && c.zoom <= 9, `zoom ${c.zoom}`);
    assert.ok(c.tilt >= 0 && c.tilt <= 60, `tilt ${c.tilt}`);
    assert.ok(c.zoom >= prev.zoom - 1e-12 && c.lat >= prev.lat - 1e-12, 'monotonic');
    prev = c;
  }
  assert.deepEqual(samples[samples.length - 1].camera, end);
});

test('30 Hz frames sampled at 60 Hz give even, smooth steps', () => {
  // punctual frames and no lateness allowance: a constant delay of one interval + margin
  const buf = new SnapshotBuffer({ rate: 30, initialJitterMs: 0 });
  const n = 60;
  const deliveries = feedMotion(buf, { n, rest: false, camAt: (t) => cam({ lon: 10 * t }) });
  const samples = run(buf, deliveries, {
    from: deliveries[0].receivedAt,
    to: deliveries[n].receivedAt,
  });
  assert.ok(Math.abs(buf.interval - FRAME_MS) < 1e-9, `interval ${buf.interval}`);
  // (+ the headroom the goal keeps above the target)
  assert.ok(Math.abs(buf.delay - (FRAME_MS + buf.options.marginMs + buf.clock.growBand)) < 1e-9, `${buf.delay}`);
  // after the first frame interval, each 60 Hz sample advances by half a frame step
  const moving = samples.filter((s) => s.camera.lon > 0.5 && s.camera.lon < 9.5);
  assert.ok(moving.length > 90, `${moving.length}`);
  const expectedStep = 10 / n / 2;
  for (let i = 1; i < moving.length; i++) {
    const step = moving[i].camera.lon - moving[i - 1].camera.lon;
    assert.ok(Math.abs(step - expectedStep) < 1e-9, `step ${step} at ${i}`);
  }
});

test('a motion after a rest is drawn over the one interval before its first frame', () => {
  const buf = new SnapshotBuffer({ rate: 30 });
  const a = cam({ lon: 0 });
  const b = cam({ lon: 10 });
  const c = cam({ lon: 10.1 });
  buf.push(frame(1, 0, a, false), 50);
  buf.push(frame(2, 3000, b, true), 3050);
  buf.push(frame(3, 3000 + FRAME_MS, c, false), 3050 + FRAME_MS);
  const shown = [];
  for (let now = 3050; now < 3600; now += 5) {
    const s = buf.sample(now);
    shown.push({ rt: s.time, lon: s.camera.lon });
  }
  for (const { rt, lon } of shown) {
    if (rt <= 3000 - FRAME_MS) assert.equal(lon, 0, `at ${rt}`);
    else if (rt <= 3000) assert.ok(Math.abs(lon - (10 * (rt - 3000 + FRAME_MS)) / FRAME_MS) < 1e-9, `${lon} at ${rt}`);
  }
  assert.ok(shown.some((s) => s.lon > 0 && s.lon < 10), 'it moved between the rest and the first frame');
  assert.equal(shown[shown.length - 1].lon, 10.1);
});

test('a motion started by a command (its first frame a corner) is drawn over the one tick before it', () => {
  const buf = new SnapshotBuffer({ rate: 10 });
  buf.setTick(60);
  buf.push(frame(1, 0, cam({ lon: 0 }), false), 50);
  buf.push({ ...frame(2, 3000, cam({ lon: 1 }), true), corner: true }, 3050);
  const tick = 1000 / 60;
  assert.equal(buf.evaluate(3000 - tick - 1).camera.lon, 0, 'still at rest before the tick the motion started in');
  assert.ok(Math.abs(buf.evaluate(3000 - tick / 2).camera.lon - 0.5) < 1e-9, 'half way through that tick');
  // Without the tick (or without the corner) the start is spread over the rate's interval.
  const old = new SnapshotBuffer({ rate: 10 });
  old.push(frame(1, 0, cam({ lon: 0 }), false), 50);
  old.push(frame(2, 3000, cam({ lon: 1 }), true), 3050);
  assert.ok(old.evaluate(3000 - tick - 1).camera.lon > 0);
});

test('past the first frame of a motion (a corner, no velocity) it extrapolates at the speed it drew the start with', () => {
  // a live gesture: lon 0 at rest, then 0.1° one tick later (6°/s), no velocity in the frames
  const buf = new SnapshotBuffer({ rate: 10 });
  buf.setTick(60);
  const tick = 1000 / 60;
  buf.push(frame(1, 0, cam({ lon: 0 }), false), 50);
  buf.push({ ...frame(2, 3000, cam({ lon: 0.1 }), true), corner: true }, 3050);
  // drawn from 3000 - tick to 3000 at 0.1° per tick, and on at that speed past it (not 0.1° per 100 ms)
  assert.ok(Math.abs(buf.evaluate(3000 - tick / 2).camera.lon - 0.05) < 1e-9);
  assert.ok(Math.abs(buf.evaluate(3000 + tick).camera.lon - 0.2) < 1e-9, `${buf.evaluate(3000 + tick).camera.lon}`);
});

test('no curve is fitted across a corner: two linear segments are followed exactly at 10 Hz', () => {
  // The hub's path: lon grows 10°/s until t = 1040 ms, then lat grows 10°/s (lon still).
  const turn = 1040;
  const path = (t) => (t <= turn ? cam({ lon: t / 100, lat: 0 }) : cam({ lon: turn / 100, lat: (t - turn) / 100 }));
  const tick = 1000 / 60;
  // 10 Hz frames, plus the tick before the turn and the corner frame the tick after it (rule 4).
  const times = [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1033.3333, 1050, 1150, 1250];
  const buf = new SnapshotBuffer({ rate: 10 });
  buf.setTick(60);
  times.forEach((t, i) => buf.push({ ...frame(i + 1, t, path(t)), ...(t === 1050 ? { corner: true } : {}) }, t + 5));
  let worst = 0;
  for (let t = 900; t <= 1250; t += 1) {
    const c = buf.evaluate(t).camera;
    const want = path(t);
    worst = Math.max(worst, Math.abs(c.lon - want.lon), Math.abs(c.lat - want.lat));
  }
  // Within the tick around the turn the straight line cuts it by at most the turn's motion in one tick.
  assert.ok(worst < (10 * tick) / 1000 / 2, `worst ${worst}°`);
  // The same frames without the corner mark: the cubic spreads the turn into the next interval.
  const smooth = new SnapshotBuffer({ rate: 10 });
  times.forEach((t, i) => smooth.push(frame(i + 1, t, path(t)), t + 5));
  const after = smooth.evaluate(1100).camera;
  assert.ok(Math.abs(after.lat - path(1100).lat) > 0.01, 'without the mark the curve misses the path after the corner');
});

test('the early frames around a corner are not taken for the frame interval', () => {
  const buf = new SnapshotBuffer({ rate: 10 });
  const times = [0, 100, 200, 300, 333.33, 350, 450, 550];
  times.forEach((t, i) => buf.push({ ...frame(i + 1, t, cam({ lon: t / 100 })), ...(t === 350 ? { corner: true } : {}) }, t + 5));
  assert.equal(buf.interval, 100);
});

test('frames with the hub\'s velocity follow a curved path at 10 Hz to a small fraction of a pixel', () => {
  // A flight-like path over 3 s: the centre eases east and north, the zoom goes out and back in.
  const T = 3000;
  const path = (t) => {
    const u = Math.PI * t / T;
    return cam({ lon: 6 - 4 * (1 - Math.cos(u)) / 2, lat: 45 + 3 * (1 - Math.cos(u)) / 2, zoom: 5 + 1.5 * Math.sin(u), bearing: 0, tilt: 30 });
  };
  const velocity = (t) => {
    const u = Math.PI * t / T;
    const du = (Math.PI / T) * 1000; // per second
    return { lon: (-4 * Math.sin(u) / 2) * du, lat: (3 * Math.sin(u) / 2) * du, zoom: 1.5 * Math.cos(u) * du, bearing: 0, tilt: 0 };
  };
  const withV = new SnapshotBuffer({ rate: 10 });
  const without = new SnapshotBuffer({ rate: 10 });
  for (let i = 0, t = 0; t <= T; i++, t += 100) {
    withV.push({ ...frame(i + 1, t, path(t)), velocity: velocity(t) }, t + 5);
    without.push(frame(i + 1, t, path(t)), t + 5);
  }
  let worstV = 0;
  let worstGuess = 0;
  for (let t = 150; t <= T - 100; t += 7) {
    worstV = Math.max(worstV, cameraDistancePx(withV.evaluate(t).camera, path(t)));
    worstGuess = Math.max(worstGuess, cameraDistancePx(without.evaluate(t).camera, path(t)));
  }
  assert.ok(worstV < 0.05, `with velocity: worst ${worstV} px`);
  assert.ok(worstGuess > 4 * worstV, `the slopes guessed from neighbouring frames do worse: ${worstGuess} px`);
});

test('a dry buffer extrapolates along the newest frame\'s velocity', () => {
  const buf = new SnapshotBuffer({ rate: 10 });
  // Accelerating east: the secant of the last two frames says 2°/s, the hub says 3°/s now.
  buf.push({ ...frame(1, 0, cam({ lon: 0 })), velocity: { lat: 0, lon: 1, zoom: 0, bearing: 0, tilt: 0 } }, 5);
  buf.push({ ...frame(2, 100, cam({ lon: 0.2 })), velocity: { lat: 0, lon: 3, zoom: 0, bearing: 0, tilt: 0 } }, 105);
  const s = buf.evaluate(150);
  assert.equal(s.dry, true);
  assert.ok(Math.abs(s.camera.lon - (0.2 + 3 * 0.05)) < 1e-9, `${s.camera.lon}`);
});

test('a jump between two resting frames (set) is a step at the new frame\'s time', () => {
  const buf = new SnapshotBuffer({ rate: 30 });
  buf.push(frame(1, 0, cam({ lon: 0 }), false), 50);
  buf.push(frame(2, 3000, cam({ lon: 10 }), false), 3050);
  for (let now = 3050; now < 3600; now += 5) {
    const s = buf.sample(now);
    assert.equal(s.camera.lon, s.time < 3000 ? 0 : 10, `at ${s.time}`);
  }
});

test('ignores duplicate and out-of-order frames; reset forgets everything', () => {
  const buf = new SnapshotBuffer();
  assert.equal(buf.push(frame(5, 100, cam()), 110), true);
  assert.equal(buf.push(frame(5, 133, cam({ lon: 50 })), 140), false);
  assert.equal(buf.push(frame(4, 133, cam({ lon: 50 })), 140), false);
  assert.equal(buf.push(frame(6, 90, cam({ lon: 50 })), 140), false);
  assert.equal(buf.frames.length, 1);
  buf.reset();
  assert.equal(buf.sample(1000), null);
  assert.equal(buf.push(frame(1, 0, cam()), 5), true);
});

test('the delay adapts to the observed frame interval', () => {
  // asked for 30/s, the hub sends every 100 ms, punctually (no lateness beyond the offset);
  // no lateness allowance to start with, no headroom
  const buf = new SnapshotBuffer({ rate: 30, marginMs: 0, initialJitterMs: 0, growBandMs: 0, growBand: 0 });
  for (let i = 0; i < 20; i++) buf.push(frame(i + 1, i * 100, cam({ lon: i })), i * 100 + 30);
  assert.ok(Math.abs(buf.interval - 100) < 1e-9, `${buf.interval}`);
  // renders one interval behind the least-delayed frame: at local 1930 (hub 1900) it shows hub 1800
  const s = buf.sample(1930);
  assert.ok(Math.abs(buf.delay - 100) < 1e-9, `${buf.delay}`);
  assert.ok(Math.abs(s.camera.lon - 18) < 1e-9, `${s.camera.lon}`);
});

test('uses the least-delayed frame for the clock offset', () => {
  const buf = new SnapshotBuffer();
  buf.push(frame(1, 0, cam({ lon: 0 })), 80);
  buf.push(frame(2, FRAME_MS, cam({ lon: 1 })), FRAME_MS + 20);
  buf.push(frame(3, 2 * FRAME_MS, cam({ lon: 2 })), 2 * FRAME_MS + 60);
  assert.equal(buf.clockOffset, 20);
});

test('anchor interpolates, defaulting to the centre', () => {
  const c = interpolateCamera(cam(), cam({ anchor: { x: 0.5, y: 0.9 } }), 0.5);
  assert.deepEqual(c.anchor, { x: 0.5, y: 0.7 });
  assert.equal(interpolateCamera(cam(), cam(), 0.5).anchor, undefined);
});

test('padding is interpolated like the anchor, and a resting padded frame lands exactly', () => {
  const a = { lat: 10, lon: 20, zoom: 5, bearing: 0, tilt: 0 };
  const b = { ...a, padding: { top: 100, left: 0, bottom: 40, right: 20 } };
  const half = applyDelta(a, cameraDelta(a, b), 0.5);
  assert.deepEqual(half.padding, { top: 50, left: 0, bottom: 20, right: 10 });
  const back = applyDelta(b, cameraDelta(b, a), 1);
  assert.deepEqual(back.padding, { top: 0, left: 0, bottom: 0, right: 0 });
  assert.equal(applyDelta(a, cameraDelta(a, a), 1).padding, undefined, 'no padding where there was none');
});

test('roll turns the short way round and stays within -180…180; elevation and fov are linear', () => {
  const a = cam({ roll: 170, elevation: 100, fov: 30 });
  const b = cam({ roll: -170, elevation: 500, fov: 50 });
  const samples = [0.25, 0.5, 0.75].map((t) => interpolateCamera(a, b, t));
  assert.deepEqual(samples.map((c) => c.roll), [175, 180, -175]);
  assert.deepEqual(samples.map((c) => c.elevation), [200, 300, 400]);
  assert.deepEqual(samples.map((c) => c.fov), [35, 40, 45]);
  // absent is the default: roll 0, elevation 0, fov 2 atan(1/3)
  const flat = cam();
  const half = interpolateCamera(flat, cam({ roll: -40, elevation: 1000, fov: 36.86989764584402 + 10 }), 0.5);
  assert.equal(half.roll, -20);
  assert.equal(half.elevation, 500);
  assert.ok(Math.abs(half.fov - (36.86989764584402 + 5)) < 1e-12);
  const none = interpolateCamera(flat, cam({ lon: 21 }), 0.5);
  for (const k of ['roll', 'elevation', 'fov']) assert.equal(k in none, false, `no ${k} between cameras without one`);
  assert.deepEqual(interpolateCamera(a, b, 1), b, 'the end exactly');
});

test('roll, elevation and fov follow the hub\'s velocity between frames, and past the newest', () => {
  // Over 2 s the camera rolls from -150° through 180° (a quadratic turn), climbs and narrows its view.
  const T = 2000;
  const path = (t) => {
    const u = t / T;
    const roll = -150 - 80 * u * u; // -150 → -230 (= 130), through -180
    return cam({ lon: 10 + u, tilt: 80, roll: roll < -180 ? roll + 360 : roll, elevation: 3000 * Math.sin(u * 1.5), fov: 40 - 15 * u * u });
  };
  const velocity = (t) => {
    const u = t / T;
    return { lat: 0, lon: 1000 / T, zoom: 0, bearing: 0, tilt: 0, roll: (-160 * u * 1000) / T, elevation: (4500 * Math.cos(u * 1.5) * 1000) / T,
      fov: (-30 * u * 1000) / T };
  };
  const withV = new SnapshotBuffer({ rate: 10 });
  const without = new SnapshotBuffer({ rate: 10 });
  for (let i = 0, t = 0; t <= T; i++, t += 100) {
    withV.push({ ...frame(i + 1, t, path(t)), velocity: velocity(t) }, t + 5);
    without.push(frame(i + 1, t, path(t)), t + 5);
  }
  let worst = { roll: 0, elevation: 0, fov: 0 };
  let worstGuess = 0;
  for (let t = 150; t <= T - 100; t += 7) {
    const c = withV.evaluate(t).camera;
    const want = path(t);
    assert.ok(c.roll >= -180 && c.roll <= 180, `roll ${c.roll}`);
    worst = {
      roll: Math.max(worst.roll, Math.abs(((c.roll - want.roll + 540) % 360) - 180)),
      elevation: Math.max(worst.elevation, Math.abs(c.elevation - want.elevation)),
      fov: Math.max(worst.fov, Math.abs(c.fov - want.fov)),
    };
    const g = without.evaluate(t).camera;
    worstGuess = Math.max(worstGuess, Math.abs(((g.roll - want.roll + 540) % 360) - 180));
  }
  assert.ok(worst.roll < 1e-9 && worst.fov < 1e-9, `quadratic roll and fov are followed exactly: ${JSON.stringify(worst)}`);
  assert.ok(worst.elevation < 0.05, `elevation within 5 cm: ${worst.elevation}`);
  assert.ok(worstGuess > 1e-3, `without the rates the roll is guessed: ${worstGuess}`);
  // dry: along the newest frame's rates
  const dry = new SnapshotBuffer({ rate: 10 });
  dry.push({ ...frame(1, 0, cam({ roll: 178, elevation: 10, fov: 30 })), velocity: { lat: 0, lon: 0, zoom: 0, bearing: 0, tilt: 0, roll: 30, elevation: -100 } }, 5);
  dry.push({ ...frame(2, 100, cam({ roll: 179, elevation: 0, fov: 30 })), velocity: { lat: 0, lon: 0, zoom: 0, bearing: 0, tilt: 0, roll: 40, elevation: -100 } }, 105);
  const s = dry.evaluate(150);
  assert.equal(s.dry, true);
  assert.ok(Math.abs(s.camera.roll - (179 + 40 * 0.05 - 360)) < 1e-9, `roll ${s.camera.roll}`);
  assert.ok(Math.abs(s.camera.elevation - -5) < 1e-9, `elevation ${s.camera.elevation}`);
  assert.equal(s.camera.fov, 30, 'no fov rate: it holds');
});

test('cameraDistancePx counts roll, elevation and fov differences', () => {
  const a = cam({ zoom: 14 });
  assert.equal(cameraDistancePx(a, a), 0);
  assert.ok(Math.abs(cameraDistancePx(a, { ...a, roll: 1 }) - 360 * Math.PI / 180) < 1e-9);
  assert.ok(Math.abs(cameraDistancePx(a, { ...a, fov: 36.86989764584402 + 1 }) - 360 * Math.PI / 180) < 1e-9);
  assert.ok(cameraDistancePx(a, { ...a, elevation: 100 }) > 10, 'a 100 m climb at zoom 14 is several px');
  assert.equal(cameraDistancePx(a, { ...a, roll: 0, elevation: 0, fov: 36.86989764584402 }), 0, 'the defaults are no change');
});

test('a sample after a stall of the page itself (a display frame more than two leads late) is not ranked as lateness', () => {
  const buf = new SnapshotBuffer({ rate: 10 });
  for (let i = 0; i < 5; i++) buf.push(frame(i + 1, i * 100, cam({ lon: i }), true), 5000 + i * 100);
  for (let t = 5400; t <= 5500; t += 20) buf.sample(t, 20);
  const ranked = buf.clock.lateness.length;
  assert.ok(ranked > 0);
  buf.sample(5800, 20); // 300 ms after the last display frame: the page stalled
  assert.equal(buf.clock.lateness.length, ranked);
  buf.sample(5820, 20); // the next one, on time, is ranked
  assert.equal(buf.clock.lateness.length, ranked + 1);
});
