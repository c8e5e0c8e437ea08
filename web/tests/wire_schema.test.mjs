// The viewer's outgoing messages against the protocol's one description,
// docs/asyncapi.yaml, checked by a maintained JSON Schema validator (Python's
// jsonschema, through scripts/validate_messages.py; node has no registry here).
// Every message goes out through a real Connection, as on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '../../clients/js/src/net/connection.js';
import { build } from '../../clients/js/src/protocol/messages.js';
import { GestureRecognizer } from '../../clients/js/src/drive/gestures.js';
import { Timeline, parseRecording } from '../js/ui/recording_timeline.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs the validator on `lines` (JSON texts a client sent); {status, out}. */
function validate(lines, args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'camhub-schema-'));
  try {
    const file = join(dir, 'sent.jsonl');
    writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
    const r = spawnSync('python3', [join(ROOT, 'scripts', 'validate_messages.py'), '--sender', 'client', ...args, file],
      { encoding: 'utf8', timeout: 30000 });
    return { status: r.status, out: `${r.stdout}${r.stderr}${r.error ? r.error.message : ''}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

class FakeSocket {
  constructor() {
    this.readyState = 0;
    this.sent = [];
    FakeSocket.last = this;
  }
  send(text) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
  }
}

/** A joined Connection on a fake socket; returns {conn, sent} (the texts that left it). */
function joined() {
  const conn = new Connection({
    url: 'ws://127.0.0.1:1/hub',
    hello: () => build.hello({ room: 'demo', role: 'presenter', name: 'schema test', rate: 30,
      viewport: { width: 1280, height: 720 }, events: ['steady', 'joined', 'left', 'animation'] }),
    onMessage: () => {},
    WebSocket: FakeSocket,
    timers: { setTimeout: () => 0, clearTimeout: () => {}, setInterval: () => 0, clearInterval: () => {} },
    now: () => 1718000000000,
  });
  conn.start();
  const ws = FakeSocket.last;
  ws.readyState = 1;
  ws.onopen();
  ws.onmessage({ data: JSON.stringify({ type: 'welcome', client: 'c1', room: 'demo', role: 'presenter', rate: 30, tick: 60,
    time: 1, seq: 0, camera: { lat: 0, lon: 0, zoom: 1, bearing: 0, tilt: 0 },
    limits: { minZoom: 0, maxZoom: 22, minTilt: 0, maxTilt: 60, maxTiltByZoom: [], bounds: null },
    presenter: 'c1', roster: [], gestures: [] }) });
  assert.equal(conn.state, 'joined');
  return { conn, sent: ws.sent };
}

/** The gestures a real recognizer makes of mouse and touch input (pan, pinch, scroll, taps, long press, keys). */
function recognizedGestures() {
  const r = new GestureRecognizer({ width: 800, height: 600 });
  const m = { pointerType: 'mouse' };
  const ev = (type, id, x, y, time, extra = {}) => ({ type, pointerId: id, pointerType: 'touch', x, y, time,
    button: 0, buttons: type === 'pointerup' ? 0 : 1, ...extra });
  const out = [];
  const feed = (events) => { for (const e of events) out.push(...r.handle(e)); };
  feed([ev('pointerdown', 1, 100, 100, 0, m), ev('pointermove', 1, 120, 110, 20, m), ev('pointermove', 1, 150, 130, 30, m),
    ev('pointerup', 1, 150, 130, 40, m)]);
  feed([ev('pointerdown', 1, 300, 300, 1000), ev('pointerdown', 2, 400, 300, 1001), ev('pointermove', 2, 450, 320, 1050),
    ev('pointermove', 1, 250, 280, 1060), ev('pointerup', 1, 250, 280, 1100), ev('pointerup', 2, 450, 320, 1101)]);
  feed([{ type: 'wheel', x: 400, y: 300, deltaY: -120, time: 2000 }]);
  feed([ev('pointerdown', 1, 200, 200, 3000), ev('pointerup', 1, 200, 200, 3050), ev('pointerdown', 1, 201, 200, 3150),
    ev('pointerup', 1, 201, 200, 3200)]);
  feed([ev('pointerdown', 1, 500, 400, 5000)]);
  out.push(...r.tick(6000));
  feed([ev('pointermove', 1, 540, 400, 6100), ev('pointerup', 1, 540, 400, 6200)]);
  feed([{ type: 'keydown', key: 'ArrowLeft', time: 7000 }, { type: 'keydown', key: '+', time: 7100 }]);
  const right = { pointerType: 'mouse', button: 2, buttons: 2 };
  feed([ev('pointerdown', 1, 400, 300, 7500, right), ev('pointermove', 1, 480, 260, 7550, right),
    ev('pointermove', 1, 520, 220, 7600, right), ev('pointerup', 1, 520, 220, 7650, { ...right, buttons: 0 })]);
  feed([ev('pointerdown', 1, 600, 100, 8000), ev('pointerup', 1, 600, 100, 8050)]);
  out.push(...r.tick(9000));
  return out;
}

test('every kind of message the viewer sends, through a Connection, matches docs/asyncapi.yaml', () => {
  const { conn, sent } = joined();
  const messages = [
    build.subscribe(['steady', 'significantChange', 'gesture']),
    build.set({ lat: 48.8566, lon: 2.3522, zoom: 12, anchor: { x: 0.5, y: 0.8 }, padding: { left: 300 } }),
    build.ease({ zoom: 14, bearing: 90 }, { id: 'e1', duration: 1.5, curve: 'easeInOut', around: { x: 400, y: 300 } }),
    build.ease({ tilt: 30 }, { curve: [0.25, 0.1, 0.25, 1] }),
    build.fly({ lat: 40.7128, lon: -74.006, zoom: 11 }, { id: 'f1', speed: 1.2, curve: 1.42, minZoom: 3 }),
    build.animate({ bearing: 180 }, { id: 'a1', duration: 4, delay: 1, after: 'f1' }),
    build.cancel({ id: 'a1' }), build.cancel(), build.cancel({ all: true }),
    build.gestures({ disable: ['doubleTap', 'tilt'], enable: ['pan'] }),
    build.viewport(1280, 720),
    build.limits({ minZoom: 2, maxZoom: null, maxTiltByZoom: [[10, 30], [14, 60]], bounds: { south: 40, west: -10, north: 60, east: 20 } }),
    build.track({ mode: 'followDirection', location: { lat: 52.52, lon: 13.405, heading: 87 } }),
    build.track({ location: { lat: 52.53, lon: 13.41 } }),
    build.route([{ lat: 52.52, lon: 13.40 }, { lat: 52.53, lon: 13.41 }]),
    build.route([{ lat: 52.54, lon: 13.42 }], { append: true }),
    build.route([]),
    build.query('q1', 'project', { points: [{ lat: 48.85, lon: 2.35 }] }),
    build.query('q2', 'unproject', { points: [{ x: 100, y: 200 }] }),
    build.query('q3', 'bounds'),
    build.query('q4', 'fit', { bounds: { south: 48.8, west: 2.2, north: 48.9, east: 2.4 }, padding: 20 }),
    build.follow('exploring'), build.follow('away'), build.follow('following'),
    build.summon(), build.summon('back'), build.followPolicy(false), build.followPolicy(true),
    build.fit('cover'), build.pointer(48.8584, 2.2945), build.pointer(null),
    build.projection('globe'), build.projection('mercator'), build.set({ roll: -12.5 }), build.set({ roll: 0 }),
    ...recognizedGestures().map((g) => build.gesture(g)),
  ];
  const gestureKinds = new Set(messages.filter((m) => m.type === 'gesture').map((m) => m.kind));
  for (const kind of ['pan', 'pinch', 'rotate', 'tilt', 'scroll', 'doubleTap', 'tap', 'longPress']) assert.ok(gestureKinds.has(kind), `no ${kind} gesture`);
  for (const m of messages) assert.equal(conn.send(m), true, `not sent: ${JSON.stringify(m)}`);
  conn.ping();
  const kinds = new Set(sent.map((t) => JSON.parse(t).type));
  for (const type of ['hello', 'gesture', 'ping', 'query']) assert.ok(kinds.has(type), `no ${type} was sent`);
  const r = validate(sent, ['--require',
    'hello,subscribe,set,ease,fly,animate,cancel,gesture,gestures,viewport,limits,track,route,query,ping,follow,summon,followPolicy,fit,pointer,projection']);
  assert.equal(r.status, 0, r.out);
  conn.stop();
});

test('what the Recordings player sends (seek prelude, recorded commands, viewports, cancel) matches docs/asyncapi.yaml', () => {
  const { conn, sent } = joined();
  const line = (o) => JSON.stringify(o);
  const command = (t, message, viewport) => line({ type: 'command', t, time: 0, client: 'c1', role: 'presenter', viewport, message: line(message) });
  const recording = parseRecording([
    line({ type: 'recording', version: 1, room: 'demo', started: 1, part: 1 }),
    command(0, { type: 'limits', minZoom: 2, bounds: { south: 40, west: -10, north: 60, east: 20 } }, { width: 1024, height: 700 }),
    command(0.5, { type: 'fly', id: 'paris', camera: { lat: 48.85, lon: 2.35, zoom: 10.3 } }, { width: 1024, height: 700 }),
    line({ type: 'animationEnded', t: 2, time: 0, id: 'paris', owner: 'c1', status: 'finished',
      camera: { lat: 48.85, lon: 2.35, zoom: 10.3, bearing: 0, tilt: 0, anchor: { x: 0.5, y: 0.7 }, padding: { top: 10, left: 0, bottom: 0, right: 0 } } }),
    command(3, { type: 'gesture', kind: 'pan', phase: 'begin', x: 10, y: 20, t: 0, seq: 4 }, { width: 800, height: 600 }),
  ].join('\n'));
  const t = new Timeline(recording, { ownViewport: () => ({ width: 1280, height: 720 }) });
  const messages = [...t.seek(2.5, 0), ...t.play(0), ...t.due(400), ...t.pause(400), ...t.play(1000), ...t.due(5000)];
  assert.ok(messages.length >= 7, JSON.stringify(messages));
  for (const m of messages) assert.equal(conn.send(m), true, `not sent: ${JSON.stringify(m)}`);
  const r = validate(sent.slice(1), ['--require', 'limits,set,cancel,viewport,gesture']);
  assert.equal(r.status, 0, r.out);
  conn.stop();
});

test('a message that breaks the schema fails the check, naming the field and the schema rule', () => {
  const r = validate([JSON.stringify({ type: 'ease', camera: { lng: 2.35 } })]);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /\$\.camera: Additional properties are not allowed \('lng' was unexpected\)/);
  assert.match(r.out, /schema: asyncapi\.yaml#\/components\/schemas\/PartialCamera\/additionalProperties/);
});

test('a message type the protocol does not have fails the check', () => {
  const r = validate([JSON.stringify({ type: 'jump', camera: { zoom: 3 } })]);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /type 'jump' is not a client message in the schema/);
});
