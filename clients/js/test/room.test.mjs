// The client library against a real hub (`camhub serve` on loopback): joining,
// commands whose promises settle with the hub's answers, the room's state and
// events, reconnection. Run with node --experimental-websocket (node 20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, CamHubError, ProtocolError } from '../src/index.js';
import { hubForTests, next } from './support/hub.mjs';

const { hub, roomName, join, track } = hubForTests('js-room');

test('connect resolves ready with the welcome and keeps the room as the hub said', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  assert.equal(presenter.role, 'presenter');
  assert.match(presenter.me, /^c\d+$/);
  assert.equal(typeof presenter.camera.zoom, 'number');
  assert.deepEqual(presenter.roster.map((p) => p.client), [presenter.me]);
  assert.equal(presenter.connection, 'joined');
});

test('fly resolves with the finished report and the follower ends on the same camera', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const follower = await join(name, 'follower');
  const target = { lat: 48.85, lon: 2.35, zoom: 9, bearing: 0, tilt: 0 };
  // Listening before the fly: the follower's resting frame may come before the presenter's report
  // (they go to two sockets, possibly on two of the hub's loops).
  const resting = next(follower, 'frame', 10000, (f) => !f.moving && Math.abs(f.camera.zoom - 9) < 1e-6);
  const report = await presenter.fly(target, { duration: 0.3 });
  assert.equal(report.type, 'animation');
  assert.equal(report.status, 'finished');
  const [frame] = await resting;
  assert.ok(Math.abs(frame.camera.lat - 48.85) < 1e-6 && Math.abs(frame.camera.lon - 2.35) < 1e-6);
  assert.ok(Math.abs(follower.camera.zoom - 9) < 1e-6, 'the follower keeps the camera of its last frame');
});

test('an animation another replaces resolves as superseded', async () => {
  const presenter = await join(roomName(), 'presenter');
  const first = presenter.ease({ zoom: 5 }, { duration: 5 });
  await next(presenter, 'animation', 10000, (m) => m.status === 'started');
  const second = presenter.ease({ zoom: 3 }, { duration: 0.1 });
  assert.equal((await first).status, 'superseded');
  assert.equal((await second).status, 'finished');
});

test('a command the hub refuses rejects with its error code and the connection stays usable', async () => {
  const name = roomName();
  await join(name, 'presenter');
  const follower = await join(name, 'follower');
  await assert.rejects(follower.fly({ zoom: 4 }, { duration: 0.2 }), (e) => e instanceof CamHubError && e.code === 'forbidden');
  const result = await follower.query('bounds');
  assert.equal(result.what, 'bounds', 'the same connection answers the next command');
});

test('a plain object flies like a camera and anything else rejects with a ProtocolError naming the wanted type', async () => {
  const presenter = await join(roomName(), 'presenter');
  const report = await presenter.fly({ lat: 48.8566, lon: 2.3522, zoom: 11 }, { duration: 0.2 });
  assert.equal(report.status, 'finished');
  assert.deepEqual([report.camera.lat, report.camera.lon, report.camera.zoom], [48.8566, 2.3522, 11]);
  await assert.rejects(presenter.fly(42), (e) => e instanceof ProtocolError && /camera must be an object, got 42/.test(e.message));
  await assert.rejects(presenter.animate({ zoom: '12' }, { duration: 1 }), (e) => e instanceof ProtocolError && /zoom/.test(e.message));
  assert.equal((await presenter.ease({ zoom: 12 }, { duration: 0.1 })).status, 'finished', 'the room goes on');
});

test('a command before the welcome throws not_joined', async () => {
  const r = track(connect({ url: hub().url, room: roomName(), role: 'presenter' }));
  assert.throws(() => r.set({ zoom: 3 }), (e) => e instanceof CamHubError && e.code === 'not_joined');
  await assert.rejects(r.fly({ zoom: 3 }), (e) => e.code === 'not_joined');
  await r.ready;
});

test('query resolves with the hub\'s result for this client\'s viewport', async () => {
  const presenter = await join(roomName(), 'presenter', { viewport: () => ({ width: 800, height: 600 }) });
  presenter.set({ lat: 0, lon: 0, zoom: 2, bearing: 0, tilt: 0 });
  const result = await presenter.query('project', { points: [{ lat: 0, lon: 0 }] });
  assert.equal(result.what, 'project');
  assert.ok(Math.abs(result.points[0].x - 400) < 1e-6 && Math.abs(result.points[0].y - 300) < 1e-6);
});

test('a follower exploring is a followChanged event to the presenter, and summon brings it back', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const follower = await join(name, 'follower');
  const changed = next(presenter, 'followChanged', 10000, (m) => m.client === follower.me && m.state === 'exploring');
  follower.follow('exploring');
  await changed;
  assert.equal(presenter.roster.find((p) => p.client === follower.me).follow, 'exploring');
  const summoned = next(follower, 'summoned');
  const result = await presenter.summon();
  assert.equal(result.what, 'summon');
  assert.equal(result.summoned, 1);
  const [event] = await summoned;
  assert.equal(event.by.client, presenter.me);
});

const REGION = [[2.3, 48.9], [2.4, 48.9], [2.4, 48.8], [2.3, 48.8]];

test("a presenter's viewports show where an explorer looks, and summon with its id brings that one back", async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const explorer = await join(name, 'follower');
  const other = await join(name, 'follower');
  const seen = next(presenter, 'viewports', 10000, (m) => m.clients.some((v) => v.client === explorer.me));
  explorer.follow('exploring');
  explorer.looking(REGION);
  await seen;
  assert.deepEqual(presenter.viewports.clients.map((v) => v.client), [explorer.me]);
  assert.deepEqual(presenter.viewports.clients[0].region, REGION);
  assert.equal(presenter.viewports.others, 0);
  const summoned = next(explorer, 'summoned');
  assert.equal((await presenter.summon(explorer.me)).summoned, 1);
  await summoned;
  assert.deepEqual(other.viewports, { clients: [], others: 0 }, 'a follower never gets viewports');
});

test("an explorer that stops sharing leaves the presenter's viewports", async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const explorer = await join(name, 'follower');
  const shared = next(presenter, 'viewports', 10000, (m) => m.clients.length === 1);
  explorer.follow('exploring');
  explorer.looking(REGION);
  await shared;
  const gone = next(presenter, 'viewports', 10000, (m) => m.clients.length === 0);
  explorer.looking(null);
  await gone;
  assert.deepEqual(presenter.viewports, { clients: [], others: 0 });
});

test('the roster follows joins and leaves', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const joined = next(presenter, 'joined');
  const driver = await join(name, 'driver');
  await joined;
  assert.ok(presenter.roster.some((p) => p.client === driver.me && p.role === 'driver'));
  const left = next(presenter, 'left', 10000, (m) => m.client === driver.me);
  driver.close();
  await left;
  assert.ok(!presenter.roster.some((p) => p.client === driver.me));
});

test('a command still waiting when the client leaves rejects with disconnected', async () => {
  const presenter = await join(roomName(), 'presenter');
  const flight = presenter.ease({ zoom: 6 }, { duration: 30 });
  presenter.close();
  await assert.rejects(flight, (e) => e instanceof CamHubError && e.code === 'disconnected');
});

test('bad arguments throw before anything is sent, naming the field', () => {
  assert.throws(() => connect({ url: hub().url, room: 'x', role: 'owner' }), /role/);
  const r = track(connect({ url: hub().url, room: roomName(), role: 'presenter' }));
  return r.ready.then(() => {
    assert.throws(() => r.set({ lat: 91 }), /lat/);
    return assert.rejects(r.fly({ zoom: 3 }, { duration: -1 }), /duration/);
  });
});

/** A WebSocket that counts the kinds of messages it receives. */
function countingWebSocket(counts) {
  return class extends WebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (ev) => {
        const kind = typeof ev.data === 'string' ? 'text' : 'binary';
        counts[kind] = (counts[kind] ?? 0) + 1;
      });
    }
  };
}

test('frames come binary by default and say to the bit what the JSON frames say', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const binaryCounts = {};
  const jsonCounts = {};
  // At the tick rate both get every frame: at 30 Hz each would get every other tick's,
  // the same ones or not depending on the ticks they joined on.
  const binary = await join(name, 'follower', { rate: 60, WebSocket: countingWebSocket(binaryCounts) });
  const json = await join(name, 'follower', { rate: 60, encoding: 'json', WebSocket: countingWebSocket(jsonCounts) });
  const framesOf = (r) => {
    const frames = [];
    r.on('frame', (f) => frames.push(f));
    return frames;
  };
  const [binaryFrames, jsonFrames] = [framesOf(binary), framesOf(json)];
  const target = { lat: 48.8566, lon: 2.3522, zoom: 11.123456789, bearing: 33.3, tilt: 20 };
  await presenter.fly(target, { duration: 0.4 });
  const resting = (f) => !f.moving && f.camera.zoom === target.zoom;
  for (let waited = 0; !(binaryFrames.some(resting) && jsonFrames.some(resting)); waited += 20) {
    assert.ok(waited < 10000, 'both followers get the resting frame within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(binaryCounts.binary > 5, `binary frames: ${JSON.stringify(binaryCounts)}`);
  assert.equal(jsonCounts.binary ?? 0, 0, 'a follower that asked for JSON gets text frames only');
  const bySeq = new Map(jsonFrames.map((f) => [f.seq, f]));
  const both = binaryFrames.filter((f) => bySeq.has(f.seq));
  assert.ok(both.length > 5);
  for (const f of both) {
    const j = bySeq.get(f.seq);
    assert.deepEqual(f.camera, j.camera, `seq ${f.seq}: the same camera to the bit`);
    assert.equal(f.time, j.time);
    assert.equal(f.moving, j.moving);
    assert.equal(f.by, j.by);
    if (j.velocity) {
      for (const k of ['lat', 'lon', 'zoom', 'bearing', 'tilt']) assert.equal(f.velocity[k], Math.fround(j.velocity[k]));
    }
  }
  assert.deepEqual(binary.camera, json.camera, 'both land on the hub camera');
});

test('a rolled, raised camera with its own fov comes in kind 2 binary frames that say what the JSON frames say', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const kinds = {};
  class KindCounting extends WebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (ev) => {
        const kind = ev.data instanceof ArrayBuffer ? `kind ${new Uint8Array(ev.data)[0]}` : typeof ev.data === 'string' ? 'text' : 'other';
        kinds[kind] = (kinds[kind] ?? 0) + 1;
      });
    }
  }
  const binary = await join(name, 'follower', { rate: 60, WebSocket: KindCounting });
  const json = await join(name, 'follower', { rate: 60, encoding: 'json' });
  const framesOf = (r) => {
    const frames = [];
    r.on('frame', (f) => frames.push(f));
    return frames;
  };
  const [binaryFrames, jsonFrames] = [framesOf(binary), framesOf(json)];
  const target = { lat: 46.55, lon: 7.98, zoom: 12.5, bearing: 200, tilt: 55, roll: -12.5, elevation: 3454.25, fov: 50 };
  await presenter.fly(target, { duration: 0.4 });
  const resting = (f) => !f.moving && f.camera.roll === target.roll;
  for (let waited = 0; !(binaryFrames.some(resting) && jsonFrames.some(resting)); waited += 20) {
    assert.ok(waited < 10000, 'both followers get the resting frame within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok((kinds['kind 2'] ?? 0) > 5, `kind 2 frames: ${JSON.stringify(kinds)}`);
  const bySeq = new Map(jsonFrames.map((f) => [f.seq, f]));
  const both = binaryFrames.filter((f) => bySeq.has(f.seq));
  assert.ok(both.length > 5);
  for (const f of both) {
    const j = bySeq.get(f.seq);
    assert.deepEqual(f.camera, j.camera, `seq ${f.seq}: the same camera to the bit`);
    if (j.velocity) {
      assert.deepEqual(Object.keys(f.velocity).sort(), Object.keys(j.velocity).sort(), `seq ${f.seq}: the same rates`);
      for (const k of Object.keys(j.velocity)) assert.equal(f.velocity[k], Math.fround(j.velocity[k]), `seq ${f.seq} ${k}`);
    }
  }
  const end = binaryFrames.find(resting).camera;
  for (const k of ['roll', 'elevation', 'fov', 'tilt', 'bearing']) assert.equal(end[k], target[k], k);
  assert.ok(binaryFrames.some((f) => f.velocity?.roll !== undefined), 'the roll rate comes with the motion');
});

test('setProjection puts the room on the globe for everyone: projectionChanged, a joiner\'s welcome; a follower\'s is forbidden', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const follower = await join(name, 'follower');
  assert.equal(presenter.projection, 'mercator', 'a new room is flat');
  assert.equal(presenter.welcome.projection, 'mercator', 'welcome.projection is always there');
  const heard = next(follower, 'projectionChanged');
  const own = next(presenter, 'projectionChanged');
  presenter.setProjection('globe');
  const [event] = await heard;
  assert.equal(event.projection, 'globe');
  assert.equal(event.by, presenter.me);
  assert.equal(follower.projection, 'globe');
  await own;
  assert.equal(presenter.projection, 'globe', 'the sender hears it too');
  const late = await join(name, 'driver');
  assert.equal(late.projection, 'globe', 'a joiner finds it in its welcome');

  const refused = next(follower, 'error', 10000, (m) => m.ref === 'projection');
  follower.setProjection('mercator');
  const [error] = await refused;
  assert.equal(error.code, 'forbidden');
  assert.equal(presenter.projection, 'globe', 'nothing changed');

  const back = next(follower, 'projectionChanged', 10000, (m) => m.projection === 'mercator');
  late.setProjection('mercator');
  assert.equal((await back)[0].by, late.me, 'drivers set it too');
  assert.equal(follower.projection, 'mercator');
});
