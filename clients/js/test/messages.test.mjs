import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseMessage, ProtocolError, build, encode, validateCamera } from '../src/protocol/messages.js';
import { toMapLibreCamera, fromMapLibreCamera } from '../src/maplibre/camera.js';
import { MapLibreAttachment } from '../src/maplibre/attach.js';
import { project, principalPoint } from '../src/geo/projection.js';

const camera = { lat: 48.8566, lon: 2.3522, zoom: 12, bearing: 30, tilt: 45 };

function rejects(input, pattern, code = 'invalid') {
  assert.throws(() => parseMessage(input), (e) => {
    assert.ok(e instanceof ProtocolError, `not a ProtocolError: ${e}`);
    assert.equal(e.code, code);
    assert.match(e.message, pattern);
    return true;
  });
}

const welcome = {
  type: 'welcome', client: 'c3', room: 'demo', role: 'driver', rate: 30, tick: 30, time: 1700000000000, seq: 4,
  camera, limits: { minZoom: 0, maxZoom: 22, minTilt: 0, maxTilt: 60 }, presenter: null,
  roster: [{ client: 'c1', name: 'wall', role: 'follower' }, { client: 'c3', name: 'me', role: 'driver' }], gestures: [],
};

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
  rejects({ ...ok, camera: { ...camera, lon: 200 } }, /frame.camera: "lon" must be in \[-180, 180\]/);
  rejects({ ...ok, camera: { ...camera, bearing: -5 } }, /frame.camera: "bearing" must be in \[0, 360\]/);
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

test('validates welcome as protocol v1 sends it', () => {
  const m = parseMessage(JSON.stringify(welcome));
  assert.equal(m.client, 'c3');
  assert.equal(m.roster.length, 2);
  rejects({ ...welcome, role: 'boss' }, /welcome: "role" must be one of presenter\|driver\|follower/);
  rejects({ ...welcome, camera: { lat: 0 } }, /welcome.camera: "lon"/);
  rejects({ ...welcome, client: 3 }, /welcome: "client" must be a string/);
  rejects({ ...welcome, roster: [{ client: 'c1', role: 'x' }] }, /welcome.roster\[0\]: "role" must be one of/);
  rejects({ ...welcome, gestures: ['swipe'] }, /welcome.gestures\[0\] must be one of pan/);
  rejects({ ...welcome, presenter: 5 }, /"presenter" must be a string or null/);
  assert.equal(parseMessage({ ...welcome, presenter: 'c1' }).presenter, 'c1');
});

test('validates animation, event, result, error and pong', () => {
  const a = parseMessage({ type: 'animation', id: 'a1', status: 'finished', by: 'c3', lost: [], clamped: ['tilt'], camera, time: 5 });
  assert.equal(a.status, 'finished');
  assert.equal(parseMessage({ type: 'animation', id: null, status: 'started', by: null }).id, null);
  const cut = parseMessage({ type: 'animation', id: 'a1', status: 'interrupted', by: 'c4', lost: ['zoom'], camera, time: 6 });
  assert.deepEqual([cut.status, cut.lost], ['interrupted', ['zoom']]);
  rejects({ type: 'animation', id: 'a1', status: 'done' }, /animation: "status" must be one of started\|finished/);
  rejects({ type: 'animation', id: 7, status: 'started' }, /animation: "id" must be a string or null/);

  assert.equal(parseMessage({ type: 'event', event: 'joined', time: 1, client: 'c4', name: 'x', role: 'follower' }).client, 'c4');
  rejects({ type: 'event', event: 'joined', time: 1, client: 'c4', role: 'king' }, /event\(joined\): "role" must be one of/);
  rejects({ type: 'event', time: 1 }, /event: "event" must be a string, got nothing/);
  assert.equal(parseMessage({ type: 'event', event: 'presenterChanged', time: 1, client: null, previous: 'c1', demoted: null, by: null }).previous, 'c1');
  assert.equal(parseMessage({ type: 'event', event: 'somethingNew', time: 1 }).event, 'somethingNew');
  assert.equal(parseMessage({ type: 'event', event: 'steady', time: 1, camera }).camera.zoom, 12);

  assert.equal(parseMessage({ type: 'result', id: 'q1', what: 'project', points: [{ x: 1, y: 2 }, null] }).points[1], null);
  rejects({ type: 'result' }, /result: "id" must be a string, got nothing/);
  rejects({ type: 'result', id: 'q', points: 3 }, /result: "points" must be an array/);

  assert.equal(parseMessage({ type: 'error', code: 'forbidden', message: 'followers cannot', ref: 'set' }).code, 'forbidden');
  assert.equal(parseMessage({ type: 'error', code: 'bad_message', message: 'x', ref: null }).ref, null);
  rejects({ type: 'error', code: 'x' }, /error: "message" must be a string/);

  assert.equal(parseMessage({ type: 'pong', t: 12.5, time: 99 }).t, 12.5);
  rejects({ type: 'pong', t: 1, time: 'now' }, /pong: "time" must be a finite number/);
});

test('hello, set, ease, fly and animate builders', () => {
  assert.deepEqual(build.hello({ room: 'main', role: 'follower', name: 'wall', viewport: { width: 1280, height: 720 } }), {
    type: 'hello', room: 'main', role: 'follower', name: 'wall', viewport: { width: 1280, height: 720 },
  });
  assert.deepEqual(build.hello({ room: 'r', token: 's3cret', rate: 20, name: '' }), { type: 'hello', room: 'r', role: 'driver', token: 's3cret', rate: 20 });
  assert.throws(() => build.hello({}), /hello: "room" must be a string/);
  assert.deepEqual(build.hello({ room: 'r', render: { roll: false, maxTilt: 60 } }),
    { type: 'hello', room: 'r', role: 'driver', render: { roll: false, maxTilt: 60 } });
  assert.throws(() => build.hello({ room: 'r', render: { maxTilt: 60.5 } }), /maxTilt/);
  assert.throws(() => build.hello({ room: 'r', render: { pitch: 60 } }), /render\.pitch/);
  assert.throws(() => build.hello({ room: '' }), /non-empty/);
  assert.throws(() => build.hello({ room: 'r', role: 'admin' }), /"role" must be one of presenter\|driver\|follower/);
  assert.deepEqual(build.set({ zoom: 3 }), { type: 'set', camera: { zoom: 3 } });
  assert.throws(() => build.set({}), /at least one of/);
  assert.throws(() => build.set({ lat: 100 }), /set.camera: "lat" must be in/);
  assert.deepEqual(build.ease({ bearing: 0, tilt: 0 }, { id: 'e1', duration: 0.8, curve: 'easeOut' }), {
    type: 'ease', id: 'e1', camera: { bearing: 0, tilt: 0 }, duration: 0.8, curve: 'easeOut',
  });
  assert.deepEqual(build.ease({ zoom: 5 }, { around: { x: 10, y: 20 }, curve: [0.25, 0.1, 0.25, 1] }), {
    type: 'ease', camera: { zoom: 5 }, curve: [0.25, 0.1, 0.25, 1], around: { x: 10, y: 20 },
  });
  assert.throws(() => build.ease({ lat: 1, lon: 2 }, { around: { x: 1, y: 1 } }), /around/);
  assert.throws(() => build.ease(camera, { curve: 'bouncy' }), /"curve" must be one of linear/);
  assert.throws(() => build.ease(camera, { curve: [2, 0, 0, 1] }), /x1, x2 in \[0, 1\]/);
  assert.throws(() => build.ease(camera, { duration: 90 }), /"duration" must be in \[0, 60\]/);
  assert.deepEqual(build.fly({ lat: 1, lon: 2, anchor: { x: 0.5, y: 0.8 } }, { id: 'f', speed: 1.2, curve: 1.42, minZoom: 2 }), {
    type: 'fly', id: 'f', camera: { lat: 1, lon: 2, anchor: { x: 0.5, y: 0.8 } }, speed: 1.2, curve: 1.42, minZoom: 2,
  });
  assert.throws(() => build.fly(camera, { duration: -5 }), /fly: "duration" must be in \[0/);
  assert.throws(() => build.fly(camera, { id: 5 }), /fly: "id" must be a string/);
  assert.deepEqual(build.animate({ bearing: 90 }, { id: 't2', duration: 3, after: 't1', delay: 0.5, curve: 'linear' }), {
    type: 'animate', id: 't2', to: { bearing: 90 }, duration: 3, curve: 'linear', delay: 0.5, after: 't1',
  });
  assert.throws(() => build.animate({ bearing: 90 }, {}), /animate: "duration" must be a finite number/);
  assert.throws(() => build.animate({ bearing: 90 }, { id: 'x', after: 'x', duration: 1 }), /cannot wait for itself/);
});

test('cancel, gesture toggles, viewport, limits, track, query and ping builders', () => {
  assert.deepEqual(build.cancel(), { type: 'cancel' });
  assert.deepEqual(build.cancel({ id: 'a1' }), { type: 'cancel', id: 'a1' });
  assert.deepEqual(build.cancel({ all: true }), { type: 'cancel', all: true });
  assert.throws(() => build.cancel({ id: 'a', all: true }), /cannot be combined/);
  assert.deepEqual(build.gestures({ disable: ['rotate', 'tilt'] }), { type: 'gestures', disable: ['rotate', 'tilt'] });
  assert.deepEqual(build.gestures({ enable: ['tilt'] }), { type: 'gestures', enable: ['tilt'] });
  assert.throws(() => build.gestures({}), /disable/);
  assert.throws(() => build.gestures({ disable: ['swipe'] }), /gestures.disable\[0\] must be one of/);
  assert.throws(() => build.gestures({ disable: ['pan'], enable: ['pan'] }), /both disabled and enabled/);
  assert.deepEqual(build.viewport(800, 600), { type: 'viewport', width: 800, height: 600 });
  assert.throws(() => build.viewport(0, 600), /"width" must be in \[1/);
  assert.deepEqual(build.limits({ maxTilt: 85, bounds: null }), { type: 'limits', maxTilt: 85, bounds: null });
  assert.throws(() => build.limits({}), /non-empty/);
  assert.deepEqual(build.track({ mode: 'followNorthUp', location: { lat: 1, lon: 2 } }), {
    type: 'track', mode: 'followNorthUp', location: { lat: 1, lon: 2 },
  });
  assert.throws(() => build.track({ mode: 'orbit' }), /"mode" must be one of none/);
  assert.deepEqual(build.query('q1', 'unproject', { points: [{ x: 10, y: 20 }] }), {
    type: 'query', id: 'q1', what: 'unproject', points: [{ x: 10, y: 20 }],
  });
  assert.deepEqual(build.query('q2', 'bounds'), { type: 'query', id: 'q2', what: 'bounds' });
  assert.throws(() => build.query(undefined, 'bounds'), /needs an id/);
  assert.throws(() => build.query('q', 'area'), /"what" must be one of project/);
  assert.deepEqual(build.ping(123.5), { type: 'ping', t: 123.5 });
  assert.throws(() => build.ping(), /ping: "t" must be a finite number/);
});

test('gesture builder: one message per gesture, no phase for instantaneous kinds', () => {
  const g = { kind: 'pinch', phase: 'change', x: 10, y: 20, t: 5, scale: 1.5, rotation: -3 };
  assert.deepEqual(build.gesture(g), { type: 'gesture', ...g });
  assert.deepEqual(build.gesture({ type: 'gesture', kind: 'tap', phase: 'end', x: 1, y: 2, t: 3 }), {
    type: 'gesture', kind: 'tap', x: 1, y: 2, t: 3,
  });
  assert.deepEqual(build.gesture({ kind: 'scroll', x: 1, y: 2, t: 3, delta: -100 }), {
    type: 'gesture', kind: 'scroll', x: 1, y: 2, t: 3, delta: -100,
  });
  assert.throws(() => build.gesture({ kind: 'scroll', x: 1, y: 2, t: 3 }), /"delta" must be a finite number/);
  assert.throws(() => build.gesture({ kind: 'pan', x: 1, y: 2, t: 3 }), /"phase" must be one of begin\|change\|end\|cancel/);
  assert.throws(() => build.gesture({ ...g, kind: 'swipe' }), /"kind" must be one of pan\|pinch/);
  assert.throws(() => build.gesture({ ...g, phase: 'moved' }), /"phase" must be one of begin\|change\|end\|cancel/);
  assert.throws(() => build.gesture({ ...g, x: NaN }), /"x" must be a finite number/);
  assert.throws(() => build.gesture({ ...g, scale: 0 }), /"scale" must be greater than 0/);
});

test('encode and round trip', () => {
  const text = encode(build.set(camera));
  assert.deepEqual(JSON.parse(text), { type: 'set', camera });
  assert.equal(validateCamera(camera), camera);
});

test('toMapLibreCamera maps tilt to pitch; an anchored camera is centred on the ground under the view centre', () => {
  const vp = { width: 800, height: 600 };
  assert.deepEqual(toMapLibreCamera(camera, vp), {
    center: [2.3522, 48.8566], zoom: 12, bearing: 30, pitch: 45, padding: { top: 0, bottom: 0, left: 0, right: 0 },
  });
  const anchored = { ...camera, anchor: { x: 0.2, y: 0.8 } };
  const ml = toMapLibreCamera(anchored, vp);
  assert.deepEqual(ml.padding, { top: 0, bottom: 0, left: 0, right: 0 });
  // MapLibre centred on `center` (no anchor) draws the hub's target at the anchor point.
  const centred = { lat: ml.center[1], lon: ml.center[0], zoom: 12, bearing: 30, tilt: 45 };
  const at = project(centred, vp, { lat: camera.lat, lon: camera.lon });
  assert.ok(Math.abs(at.x - 0.2 * 800) < 1e-6 && Math.abs(at.y - 0.8 * 600) < 1e-6, JSON.stringify(at));
  assert.deepEqual(toMapLibreCamera(anchored).center, [2.3522, 48.8566], 'no viewport: the target');
});

test('hello and subscribe carry event subscriptions, checked against the protocol names', () => {
  assert.deepEqual(build.hello({ room: 'r', role: 'follower', events: ['steady', 'joined'] }), {
    type: 'hello', room: 'r', role: 'follower', events: ['steady', 'joined'],
  });
  assert.equal(build.hello({ room: 'r', role: 'driver' }).events, undefined, 'no list: the role default');
  assert.deepEqual(build.subscribe([]), { type: 'subscribe', events: [] });
  assert.deepEqual(build.subscribe(['animation', 'tap']), { type: 'subscribe', events: ['animation', 'tap'] });
  assert.throws(() => build.subscribe(['moved']), /subscribe: "events\[0\]" must be one of steady/);
  assert.throws(() => build.hello({ room: 'r', role: 'follower', events: 'steady' }), /"events" must be an array/);
});

test('welcome lists the room\'s live animations and tracking; animation reports name their owner', () => {
  const live = {
    ...welcome,
    animations: [
      { id: 'f1', by: 'c1', kind: 'fly', status: 'running', properties: ['center', 'zoom'], started: 1699999999000, duration: 3, after: null },
      { id: 'a2', by: 'c2', kind: 'animate', status: 'delayed', properties: ['tilt'], started: null, duration: 1, after: null, starts: 1700000002000 },
      { id: 'a3', by: 'c2', kind: 'animate', status: 'waiting', properties: ['bearing'], started: null, duration: null, after: 'a2' },
    ],
    tracking: { mode: 'followDirection', location: { lat: 52.5, lon: 13.4, heading: 87 } },
  };
  const m = parseMessage(JSON.stringify(live));
  assert.equal(m.animations.length, 3);
  assert.equal(m.tracking.location.heading, 87);
  assert.equal(parseMessage({ ...welcome, tracking: { mode: 'none', location: null } }).tracking.location, null);
  rejects({ ...live, animations: [{ ...live.animations[0], kind: 'jump' }] }, /welcome.animations\[0\]: "kind" must be one of ease\|fly\|animate/);
  rejects({ ...live, animations: [{ ...live.animations[0], started: null }] }, /"started" must be a time exactly when running/);
  rejects({ ...live, animations: [{ ...live.animations[1], properties: ['pitch'] }] }, /"property" must be one of center/);
  rejects({ ...live, tracking: { mode: 'orbit', location: null } }, /welcome.tracking: "mode" must be one of none/);
  const a = parseMessage({ type: 'animation', id: 'e1', status: 'started', by: 'c2', owner: 'c2', lost: [], clamped: [], camera, time: 5 });
  assert.equal(a.owner, 'c2');
  rejects({ type: 'animation', id: 'e1', status: 'started', owner: 7 }, /animation: "owner" must be a string/);
  assert.deepEqual(build.subscribe(['roomAnimations']), { type: 'subscribe', events: ['roomAnimations'] });
});

test('long-press phases, gesture listener events and the gestures answer are accepted', () => {
  const lp = parseMessage({ type: 'event', event: 'longPress', time: 1, by: 'c2', phase: 'change', x: 10, y: 20, lat: 1, lon: 2 });
  assert.equal(lp.phase, 'change');
  assert.equal(parseMessage({ type: 'event', event: 'longPress', time: 1, by: 'c2', phase: 'end', x: 10, y: 20, lat: null, lon: null }).lat, null);
  rejects({ type: 'event', event: 'longPress', time: 1, by: 'c2', phase: 'hold', x: 1, y: 1 }, /event\(longPress\): "phase" must be one of begin/);
  const g = parseMessage({ type: 'event', event: 'gesture', time: 1, by: 'c2', kind: 'doubleTap', phase: null, disabled: true, x: 3, y: 4, lat: 5, lon: 6 });
  assert.equal(g.disabled, true);
  rejects({ type: 'event', event: 'gesture', time: 1, by: 'c2', kind: 'swipe', phase: null }, /event\(gesture\): "kind" must be one of pan/);
  assert.deepEqual(parseMessage('{"type":"gestures","disabled":["pan","doubleTap"]}').disabled, ['pan', 'doubleTap']);
  rejects({ type: 'gestures', disabled: ['swipe'] }, /gestures.disabled\[0\] must be one of pan/);
  assert.equal(parseMessage({ type: 'event', event: 'tap', time: 1, by: 'c2', x: 5, y: 6, lat: 1, lon: 2 }).x, 5);
  assert.deepEqual(build.gesture({ kind: 'longPress', phase: 'begin', x: 1, y: 2, t: 3 }),
    { type: 'gesture', kind: 'longPress', phase: 'begin', x: 1, y: 2, t: 3 });
  assert.deepEqual(build.gesture({ kind: 'tap', x: 1, y: 2, t: 3 }), { type: 'gesture', kind: 'tap', x: 1, y: 2, t: 3 });
});

test('padded cameras: frames carry padding, builders send it, MapLibre gets it as its padding', () => {
  const padded = { ...camera, padding: { top: 10, left: 300, bottom: 0, right: 0 } };
  assert.deepEqual(parseMessage({ type: 'frame', seq: 1, time: 1, camera: padded, moving: false }).camera.padding, padded.padding);
  rejects({ type: 'frame', seq: 1, time: 1, camera: { ...camera, padding: { top: -1, left: 0, bottom: 0, right: 0 } }, moving: false },
    /frame.camera.padding: "top" must be in \[0, Infinity\]/);
  rejects({ type: 'frame', seq: 1, time: 1, camera: { ...camera, padding: { top: 1 } }, moving: false }, /frame.camera.padding: "left"/);
  assert.deepEqual(build.ease({ padding: { left: 300 } }, { duration: 1 }), { type: 'ease', camera: { padding: { left: 300 } }, duration: 1 });
  const vp = { width: 800, height: 600 };
  const ml = toMapLibreCamera(padded, vp);
  assert.deepEqual(ml.padding, { top: 10, bottom: 0, left: 300, right: 0 });
  assert.deepEqual(ml.center, [2.3522, 48.8566], 'the target is MapLibre\'s centre at the padded centre');
  // Padded and anchored: MapLibre, centred on `center` with the same padding, draws the target at the anchor.
  const both = { ...padded, anchor: { x: 0.2, y: 0.9 } };
  const m = toMapLibreCamera(both, vp);
  const at = project({ lat: m.center[1], lon: m.center[0], zoom: 12, bearing: 30, tilt: 45, padding: both.padding }, vp,
    { lat: camera.lat, lon: camera.lon });
  assert.ok(Math.abs(at.x - (300 + 0.2 * 500)) < 1e-6 && Math.abs(at.y - (10 + 0.9 * 590)) < 1e-6, JSON.stringify(at));
});

test('route: welcome.route, routeChanged events, the route builder and the route tracking modes', () => {
  const route = [{ lat: 52.52, lon: 13.4 }, { lat: 52.53, lon: 13.41 }];
  assert.equal(parseMessage({ ...welcome, route }).route.length, 2);
  rejects({ ...welcome, route: [{ lat: 95, lon: 0 }] }, /welcome.route\[0\]: "lat" must be in \[-90, 90\]/);
  const ev = parseMessage({ type: 'event', event: 'routeChanged', time: 1, by: 'c2', append: true, total: 3, points: [route[0]] });
  assert.equal(ev.total, 3);
  rejects({ type: 'event', event: 'routeChanged', time: 1, by: 'c2', append: 'no', total: 3, points: [] }, /"append" must be true or false/);
  assert.deepEqual(build.route(route), { type: 'route', points: route });
  assert.deepEqual(build.route([route[0]], { append: true }), { type: 'route', points: [route[0]], append: true });
  assert.deepEqual(build.route([]), { type: 'route', points: [] });
  assert.throws(() => build.route([route[0]]), /at least 2 points/);
  for (const mode of ['followRouteDirection', 'followRouteNorthUp', 'routeOverview']) {
    assert.deepEqual(build.track({ mode }), { type: 'track', mode });
  }
  assert.deepEqual(build.subscribe(['routeChanged']), { type: 'subscribe', events: ['routeChanged'] });
});

test('validates gestureAck as the hub sends it to a gesture\'s sender', () => {
  const ack = { type: 'gestureAck', seq: 12, kind: 'pan', phase: 'end', time: 1700000000123.5,
    camera: { lat: 1, lon: 2, zoom: 3, bearing: 0, tilt: 0 },
    animation: { id: 'momentum', duration: 0.42, to: { lat: 1.1, lon: 2.2, zoom: 3, bearing: 0, tilt: 0 } } };
  assert.deepEqual(parseMessage(JSON.stringify(ack)), ack);
  assert.equal(parseMessage(JSON.stringify({ ...ack, phase: null, animation: undefined })).phase, null);
  assert.throws(() => parseMessage(JSON.stringify({ ...ack, seq: 1.5 })), /gestureAck: "seq"/);
  assert.throws(() => parseMessage(JSON.stringify({ ...ack, animation: { id: 'momentum', duration: 1 } })), /gestureAck.animation.to/);
});

test('follow mode messages: the builders check what they send', () => {
  assert.deepEqual(build.follow('away'), { type: 'follow', state: 'away' });
  assert.throws(() => build.follow('wandering'), /follow: "state" must be one of following\|exploring\|away/);
  assert.deepEqual(build.summon(), { type: 'summon' });
  assert.deepEqual(build.followPolicy(false), { type: 'followPolicy', explore: false });
  assert.deepEqual(build.fit('cover'), { type: 'fit', mode: 'cover' });
  assert.deepEqual(build.pointer(null), { type: 'pointer', lat: null });
  assert.throws(() => build.pointer(91, 0), /pointer: "lat" must be in \[-90, 90\]/);
});

test("follow mode's hub messages are validated: events, a frame's pointer, the welcome's view", () => {
  assert.equal(parseMessage({ type: 'event', event: 'followChanged', time: 1, client: 'c2', name: 'Bo', state: 'away' }).state, 'away');
  assert.throws(() => parseMessage({ type: 'event', event: 'followChanged', time: 1, client: 'c2', state: 'gone' }), /state/);
  assert.throws(() => parseMessage({ type: 'event', event: 'summoned', time: 1, by: 'c1' }), /by/);
  assert.throws(() => parseMessage({ type: 'event', event: 'viewChanged', time: 1, view: { by: 'c1', width: 0, height: 1, padding: {} } }),
    /width/);
  const frame = { type: 'frame', seq: 1, time: 1, camera: { lat: 0, lon: 0, zoom: 1, bearing: 0, tilt: 0 }, moving: false, by: null };
  assert.equal(parseMessage({ ...frame, pointer: null }).pointer, null);
  assert.throws(() => parseMessage({ ...frame, pointer: { lat: 1, lon: 2 } }), /frame.pointer: "by"/);
});

test('cameras with roll, elevation and fov: parsed from frames and reports, absent meaning the default', () => {
  const rolled = { ...camera, tilt: 85, roll: -12.5, elevation: 1834.25, fov: 50 };
  const text = JSON.stringify({ type: 'frame', seq: 9, time: 1, camera: rolled, moving: true, by: 'c2',
    velocity: { lat: 0, lon: 0.5, zoom: 0, bearing: 0, tilt: 0, roll: 3, elevation: -20, fov: 1.5 } });
  const m = parseMessage(text);
  assert.deepEqual(m.camera, rolled);
  assert.deepEqual(m.velocity, { lat: 0, lon: 0.5, zoom: 0, bearing: 0, tilt: 0, roll: 3, elevation: -20, fov: 1.5 });
  assert.deepEqual(parseMessage({ type: 'frame', seq: 1, time: 1, camera, moving: false }).camera, camera, 'a flat camera has none');
  for (const [type, extra] of [['welcome', welcome], ['animation', { id: 'a', status: 'finished', camera: rolled }],
    ['gestureAck', { seq: 1, kind: 'pan', phase: 'end', time: 1 }], ['result', { id: 'q' }]]) {
    assert.deepEqual(parseMessage({ ...extra, type, camera: rolled }).camera, rolled, type);
  }
  rejects({ type: 'frame', seq: 1, time: 1, camera: { ...camera, roll: 190 }, moving: false }, /frame.camera: "roll" must be in \[-180, 180\]/);
  rejects({ type: 'frame', seq: 1, time: 1, camera: { ...camera, elevation: '2' }, moving: false }, /frame.camera: "elevation" must be a finite number/);
  rejects({ type: 'frame', seq: 1, time: 1, camera: { ...camera, fov: 0 }, moving: false }, /frame.camera: "fov" must be greater than 0/);
  rejects({ type: 'frame', seq: 1, time: 1, camera: { ...camera, fov: 180 }, moving: false }, /frame.camera: "fov" must be less than 180/);
  rejects({ type: 'frame', seq: 1, time: 1, camera, moving: true, velocity: { lat: 0, lon: 0, zoom: 0, bearing: 0, tilt: 0, roll: null } },
    /frame.velocity: "roll" must be a finite number/);
  rejects({ type: 'frame', seq: 1, time: 1, camera, moving: true, velocity: { lon: 1 } }, /frame.velocity: "lat" must be a finite number/);
});

test('builders send roll, elevation and fov; animations name them as properties', () => {
  assert.deepEqual(build.set({ roll: 15 }), { type: 'set', camera: { roll: 15 } });
  assert.deepEqual(build.animate({ tilt: 85, elevation: 400, fov: 30 }, { duration: 2 }),
    { type: 'animate', to: { tilt: 85, elevation: 400, fov: 30 }, duration: 2 });
  assert.deepEqual(build.fly({ ...camera, roll: -5 }).camera, { ...camera, roll: -5 });
  assert.throws(() => build.set({ roll: 181 }), /set.camera: "roll" must be in \[-180, 180\]/);
  assert.throws(() => build.set({ elevation: 9001 }), /set.camera: "elevation" must be in \[-11000, 9000\]/);
  assert.throws(() => build.ease({ fov: 70 }), /ease.camera: "fov" must be in \[1, 60\]/);
  assert.throws(() => build.set({}), /set.camera must set at least one of lat, lon, zoom, bearing, tilt, roll, elevation, fov, anchor, padding/);
  const live = { ...welcome, animations: [{ id: 'a1', by: 'c1', kind: 'animate', status: 'running', properties: ['roll', 'elevation', 'fov', 'padding'],
    started: 1, duration: 2, after: null }] };
  assert.deepEqual(parseMessage(live).animations[0].properties, ['roll', 'elevation', 'fov', 'padding']);
});

test('toMapLibreCamera hands MapLibre the roll and elevation; an anchored camera\'s centre is at that altitude', () => {
  const vp = { width: 800, height: 600 };
  const threeD = { ...camera, tilt: 70, roll: 20, elevation: 1200, fov: 45 };
  assert.deepEqual(toMapLibreCamera(threeD, vp), {
    center: [2.3522, 48.8566], zoom: 12, bearing: 30, pitch: 70, padding: { top: 0, bottom: 0, left: 0, right: 0 }, roll: 20, elevation: 1200,
  });
  const anchored = { ...threeD, anchor: { x: 0.25, y: 0.75 } };
  const ml = toMapLibreCamera(anchored, vp);
  // MapLibre centred on `center` (no anchor) at the same elevation draws the target, 1200 m up, at the anchor point.
  const centred = { ...threeD, lat: ml.center[1], lon: ml.center[0] };
  const at = project(centred, vp, { lat: camera.lat, lon: camera.lon, altitude: 1200 });
  assert.ok(Math.abs(at.x - 200) < 1e-6 && Math.abs(at.y - 450) < 1e-6, JSON.stringify(at));
  const { px, py } = principalPoint(anchored, vp);
  const c = project(centred, vp, { lat: ml.center[1], lon: ml.center[0], altitude: 1200 });
  assert.ok(Math.abs(c.x - px) < 1e-6 && Math.abs(c.y - py) < 1e-6);
});

test('fromMapLibreCamera reads roll, centre elevation and fov only when not at their defaults', () => {
  const map = (o = {}) => ({
    getCenter: () => ({ lng: o.lng ?? 190, lat: 10 }), getZoom: () => 5, getBearing: () => o.bearing ?? -30, getPitch: () => o.pitch ?? 80,
    getRoll: () => o.roll ?? 0, getCenterElevation: () => o.elevation ?? 0,
    getVerticalFieldOfView: () => o.fov ?? 0.6435011087932844 * 180 / Math.PI, getPadding: () => o.padding ?? { top: 0, left: 0, bottom: 0, right: 0 },
  });
  assert.deepEqual(fromMapLibreCamera(map()), { lat: 10, lon: -170, zoom: 5, bearing: 330, tilt: 80 });
  assert.deepEqual(fromMapLibreCamera(map({ roll: -15, elevation: 300, fov: 60, padding: { top: 5, left: 0, bottom: 0, right: 0 } })),
    { lat: 10, lon: -170, zoom: 5, bearing: 330, tilt: 80, roll: -15, elevation: 300, fov: 60, padding: { top: 5, left: 0, bottom: 0, right: 0 } });
  const v4 = { getCenter: () => ({ lng: 1, lat: 2 }), getZoom: () => 3, getBearing: () => 4, getPitch: () => 5 };
  assert.deepEqual(fromMapLibreCamera(v4), { lat: 2, lon: 1, zoom: 3, bearing: 4, tilt: 5 }, 'MapLibre 4: no roll, elevation or fov');
});

test('attachMapLibre: a flat camera makes the same calls as ever; fov only when it changes; roll and elevation back to 0', () => {
  const calls = [];
  const map = {
    jumpTo: (o) => calls.push(['jumpTo', o]),
    setVerticalFieldOfView: (f) => calls.push(['setVerticalFieldOfView', f]),
  };
  const attached = Object.assign(Object.create(MapLibreAttachment.prototype), {
    map, viewport: { width: 800, height: 600 }, given: { roll: false, elevation: false, fov: 36.86989764584402 },
  });
  const flat = { ...camera, anchor: { x: 0.5, y: 0.7 } };
  attached.jump(flat);
  assert.deepEqual(calls, [['jumpTo', toMapLibreCamera(flat, attached.viewport)]]);
  assert.equal('roll' in calls[0][1] || 'elevation' in calls[0][1], false);
  calls.length = 0;
  attached.jump({ ...camera, roll: 10, fov: 50 });
  attached.jump({ ...camera, roll: 11, fov: 50 });
  attached.jump({ ...camera, elevation: 100 });
  assert.deepEqual(calls.map((c) => c[0] === 'jumpTo' ? [c[1].roll, c[1].elevation] : c), [
    ['setVerticalFieldOfView', 50], [10, undefined], [11, undefined],
    ['setVerticalFieldOfView', 36.86989764584402], [0, 100],
  ]);
});

test('every hub message of the shared wire fixture parses, its 3D cameras and property names included', () => {
  const path = fileURLToPath(new URL('../../../Tests/Vectors/wire_messages.txt', import.meta.url));
  const hub = readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('hub ')).map((l) => l.slice(4));
  assert.ok(hub.length >= 20);
  for (const text of hub) assert.equal(parseMessage(text).type, JSON.parse(text).type, text);
  const rolled = hub.map((t) => JSON.parse(t)).filter((m) => m.camera?.roll !== undefined);
  assert.ok(rolled.length > 0, 'the fixture has a rolled camera');
});

const viewportsEvent = () => ({ type: 'event', event: 'viewports', time: 1, clients: [{ client: 'c9', name: 'ann',
  state: 'exploring', region: [[179.5, 48.87], [-179.5, 48.87], [-179.5, 48.83], [179.5, 48.83]] }], others: 3 });

test('a viewports event is read with every explorer and the count of the others', () => {
  const m = parseMessage(JSON.stringify(viewportsEvent()));
  assert.deepEqual(m.clients[0].region[1], [-179.5, 48.87]);
  assert.equal(m.others, 3);
});

test('a viewports event whose region lacks a corner is refused, naming it', () => {
  const bad = viewportsEvent();
  bad.clients[0].region.pop();
  assert.throws(() => parseMessage(JSON.stringify(bad)),
    (e) => e instanceof ProtocolError && /clients\[0\]\.region must be four \[lon, lat\] corners/.test(e.message));
});
