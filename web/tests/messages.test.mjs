import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMessage, ProtocolError, build, encode, validateCamera, toMapLibreCamera } from '../js/messages.js';

const camera = { lat: 48.8566, lon: 2.3522, zoom: 12, bearing: 30, tilt: 45 };

function rejects(input, pattern, code = 'invalid') {
  assert.throws(() => parseMessage(input), (e) => {
    assert.ok(e instanceof ProtocolError, `not a ProtocolError: ${e}`);
    assert.equal(e.code, code);
    assert.match(e.message, pattern);
    return true;
  });
}

test('parses a frame from text and from an object', () => {
  const text = JSON.stringify({ type: 'frame', seq: 7, time: 1700000000123, camera, moving: true, by: 'c3' });
  const m = parseMessage(text);
  assert.equal(m.type, 'frame');
  assert.equal(m.seq, 7);
  assert.deepEqual(m.camera, camera);
  const anchored = { ...camera, anchor: { x: 0.5, y: 0.8 } };
  assert.deepEqual(parseMessage({ type: 'frame', seq: 0, time: 1, camera: anchored, moving: false }).camera, anchored);
  assert.equal(parseMessage({ type: 'frame', seq: 0, time: 1, camera, moving: false, by: null }).by, null);
});

test('rejects malformed frames with clear reasons', () => {
  const ok = { type: 'frame', seq: 1, time: 5, camera, moving: true };
  rejects({ ...ok, seq: -1 }, /frame: "seq" must be in \[0/);
  rejects({ ...ok, seq: 1.5 }, /frame: "seq" must be an integer, got 1.5/);
  rejects({ ...ok, time: '5' }, /frame: "time" must be a finite number, got "5"/);
  rejects({ ...ok, moving: 'yes' }, /frame: "moving" must be true or false/);
  rejects({ ...ok, camera: undefined }, /frame.camera must be an object, got nothing/);
  rejects({ ...ok, camera: { ...camera, lat: 91 } }, /frame.camera: "lat" must be in \[-90, 90\], got 91/);
  rejects({ ...ok, camera: { ...camera, zoom: null } }, /frame.camera: "zoom" must be a finite number, got null/);
  rejects({ ...ok, camera: { ...camera, tilt: 95 } }, /"tilt" must be in \[0, 90\]/);
  rejects({ ...ok, camera: { ...camera, anchor: { x: 0.5 } } }, /frame.camera.anchor: "y" must be a finite number/);
  rejects({ ...ok, by: 3 }, /frame: "by" must be a string/);
  const { bearing, ...noBearing } = camera;
  rejects({ ...ok, camera: noBearing }, /"bearing" must be a finite number, got nothing/);
});

test('rejects non-JSON, non-objects, missing and unknown types', () => {
  rejects('{"type": "frame",', /not valid JSON/, 'json');
  rejects('[1,2]', /must be a JSON object/);
  rejects('null', /must be a JSON object/);
  rejects({ seq: 1 }, /must have a string "type"/);
  rejects({ type: 'teleport' }, /unknown message type "teleport"/, 'unknown-type');
});

test('validates the other hub messages', () => {
  assert.equal(parseMessage({ type: 'welcome', client: 'c3', room: 'main', camera, seq: 0, time: 1 }).client, 'c3');
  assert.equal(parseMessage({ type: 'welcome' }).type, 'welcome');
  rejects({ type: 'welcome', camera: { lat: 0 } }, /welcome.camera: "lon"/);
  rejects({ type: 'welcome', client: 3 }, /welcome: "client" must be a string/);
  assert.equal(parseMessage({ type: 'animation', id: 'a1', kind: 'fly', phase: 'start', duration: 1200 }).kind, 'fly');
  rejects({ type: 'animation', duration: -1 }, /animation: "duration" must be in \[0/);
  assert.equal(parseMessage({ type: 'event', name: 'joined', client: 'c4' }).client, 'c4');
  rejects({ type: 'event' }, /event: "name" must be a string, got nothing/);
  assert.equal(parseMessage({ type: 'result', id: 5, ok: true, geo: { lat: 1, lon: 2 } }).ok, true);
  rejects({ type: 'result' }, /result: "id" must be a string or integer id/);
  rejects({ type: 'result', id: 1, ok: 'no' }, /"ok" must be true or false/);
  assert.equal(parseMessage({ type: 'error', message: 'bad zoom', code: 'invalid-camera', id: 'q1' }).code, 'invalid-camera');
  rejects({ type: 'error', code: 'x' }, /error: "message" must be a string/);
  assert.equal(parseMessage({ type: 'pong', id: 3, time: 99 }).time, 99);
  rejects({ type: 'pong', time: 'now' }, /pong: "time" must be a finite number/);
});

test('builders make well-formed client messages', () => {
  assert.deepEqual(build.hello({ room: 'main', name: 'wall', viewport: { width: 1280, height: 720 } }), {
    type: 'hello', room: 'main', name: 'wall', viewport: { width: 1280, height: 720 },
  });
  assert.throws(() => build.hello({}), /hello: "room" must be a string/);
  assert.deepEqual(build.set({ zoom: 3 }, { id: 'r1' }), { type: 'set', camera: { zoom: 3 }, id: 'r1' });
  assert.throws(() => build.set({}), /at least one of/);
  assert.throws(() => build.set({ lat: 100 }), /set.camera: "lat" must be in/);
  assert.deepEqual(build.ease(camera, { duration: 500, easing: 'easeInOut' }), {
    type: 'ease', camera, duration: 500, easing: 'easeInOut',
  });
  assert.deepEqual(build.fly({ lat: 1, lon: 2, anchor: { x: 0.5, y: 0.8 } }, { speed: 1.2, curve: 1.42 }), {
    type: 'fly', camera: { lat: 1, lon: 2, anchor: { x: 0.5, y: 0.8 } }, speed: 1.2, curve: 1.42,
  });
  assert.throws(() => build.fly(camera, { duration: -5 }), /fly: "duration" must be in \[0/);
  assert.deepEqual(build.viewport(800, 600), { type: 'viewport', width: 800, height: 600 });
  assert.throws(() => build.viewport(0, 600), /"width" must be in \[1/);
  assert.deepEqual(build.ping(123.5, { id: 9 }), { type: 'ping', time: 123.5, id: 9 });
  assert.deepEqual(build.query('unproject', { x: 10, y: 20 }, { id: 'q1' }), {
    type: 'query', what: 'unproject', x: 10, y: 20, id: 'q1',
  });
  assert.throws(() => build.query('bounds'), /needs an id/);
  assert.deepEqual(build.cancel(), { type: 'cancel' });
  assert.deepEqual(build.cancel({ id: 'a1' }), { type: 'cancel', id: 'a1' });
});

test('gesture builders validate kind, phase and numbers', () => {
  const g = { kind: 'pinch', phase: 'change', x: 10, y: 20, t: 5, scale: 1.5, rotation: -3 };
  assert.deepEqual(build.gesture(g), { type: 'gesture', ...g });
  assert.deepEqual(build.gesture({ type: 'gesture', kind: 'tap', phase: 'end', x: 1, y: 2, t: 3 }), {
    type: 'gesture', kind: 'tap', phase: 'end', x: 1, y: 2, t: 3,
  });
  assert.throws(() => build.gesture({ ...g, kind: 'swipe' }), /"kind" must be one of pan\|pinch/);
  assert.throws(() => build.gesture({ ...g, phase: 'moved' }), /"phase" must be one of begin\|change\|end\|cancel/);
  assert.throws(() => build.gesture({ ...g, x: NaN }), /"x" must be a finite number/);
  const batch = build.gestures([g, { kind: 'tilt', phase: 'change', x: 0, y: 0, t: 6, dy: 12 }]);
  assert.equal(batch.type, 'gestures');
  assert.equal(batch.gestures.length, 2);
  assert.equal(batch.gestures[1].dy, 12);
  assert.equal(batch.gestures[0].type, undefined);
  assert.throws(() => build.gestures([]), /non-empty array/);
  assert.throws(() => build.gestures([g, { kind: 'pan' }]), /gestures\[1\]: "phase"/);
});

test('encode and round trip', () => {
  const text = encode(build.set(camera, { id: 1 }));
  assert.deepEqual(JSON.parse(text), { type: 'set', camera, id: 1 });
  assert.equal(validateCamera(camera), camera);
});

test('toMapLibreCamera maps tilt to pitch and the anchor to padding', () => {
  const vp = { width: 800, height: 600 };
  assert.deepEqual(toMapLibreCamera(camera, vp), {
    center: [2.3522, 48.8566], zoom: 12, bearing: 30, pitch: 45, padding: { top: 0, bottom: 0, left: 0, right: 0 },
  });
  const p = toMapLibreCamera({ ...camera, anchor: { x: 0.2, y: 0.8 } }, vp).padding;
  // centre offset = ((left - right) / 2, (top - bottom) / 2) = (0.2 W - W/2, 0.8 H - H/2)
  assert.ok(Math.abs((p.left - p.right) / 2 - (0.2 * 800 - 400)) < 1e-9);
  assert.ok(Math.abs((p.top - p.bottom) / 2 - (0.8 * 600 - 300)) < 1e-9);
});
