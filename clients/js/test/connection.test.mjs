import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, SUBPROTOCOL, urlWithRoom } from '../src/net/connection.js';
import { build } from '../src/protocol/messages.js';

class FakeSocket {
  static all = [];
  constructor(url, protocol) {
    this.url = url;
    this.protocol = protocol;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(obj) {
    this.onmessage?.({ data: typeof obj === 'string' ? obj : JSON.stringify(obj) });
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close(code = 1000, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

function fakeTimers() {
  let id = 0;
  const timers = new Map();
  return {
    timers,
    setTimeout: (fn, ms) => (timers.set(++id, { fn, ms, repeat: false }), id),
    clearTimeout: (i) => timers.delete(i),
    setInterval: (fn, ms) => (timers.set(++id, { fn, ms, repeat: true }), id),
    clearInterval: (i) => timers.delete(i),
    fire(pred) {
      for (const [i, t] of [...timers]) {
        if (!pred(t)) continue;
        if (!t.repeat) timers.delete(i);
        t.fn();
      }
    },
  };
}

const camera = { lat: 1, lon: 2, zoom: 3, bearing: 0, tilt: 0 };
const welcome = { type: 'welcome', client: 'c1', room: 'demo', role: 'driver', rate: 30, tick: 30, time: 1000, seq: 0, camera, limits: {}, presenter: null, roster: [], gestures: [] };

function setup(random = () => 0.5, audience = () => 0) {
  FakeSocket.all = [];
  const timers = fakeTimers();
  let clock = 5000;
  const got = [];
  const states = [];
  const bad = [];
  const conn = new Connection({
    url: 'ws://127.0.0.1:1/hub',
    hello: () => build.hello({ room: 'demo', role: 'driver', viewport: { width: 800, height: 600 } }),
    onMessage: (m, at) => got.push([m, at]),
    onState: (s) => states.push(s),
    onProtocolError: (e) => bad.push(e.message),
    WebSocket: FakeSocket,
    now: () => clock,
    timers,
    random,
    audience,
  });
  return { conn, timers, got, states, bad, advance: (ms) => (clock += ms), socket: () => FakeSocket.all.at(-1) };
}

test('sends hello first with the camhub.v1 subprotocol, then pings once joined', () => {
  const { conn, got, states, socket, advance, timers } = setup();
  conn.start();
  const ws = socket();
  assert.equal(ws.url, 'ws://127.0.0.1:1/hub');
  assert.equal(ws.protocol, SUBPROTOCOL);
  assert.equal(conn.send(build.set({ zoom: 1 })), false, 'nothing but hello before the socket is open');
  ws.open();
  assert.deepEqual(ws.sent, [{ type: 'hello', room: 'demo', role: 'driver', viewport: { width: 800, height: 600 } }]);
  assert.equal(conn.state, 'joining');
  assert.equal(conn.send(build.set({ zoom: 1 })), false, 'commands wait for welcome');
  ws.receive(welcome);
  assert.equal(conn.state, 'joined');
  assert.deepEqual(states, ['connecting', 'joining', 'joined']);
  assert.equal(got[0][0].type, 'welcome');
  assert.deepEqual(ws.sent[1], { type: 'ping', t: 5000 });
  advance(30);
  ws.receive({ type: 'pong', t: 5000, time: 2000 });
  assert.equal(conn.latency.lastRtt, 30);
  assert.equal(conn.latency.offset, 5015 - 2000);
  assert.ok([...timers.timers.values()].some((t) => t.repeat && t.ms === 3000), 'ping interval');
  assert.equal(conn.send(build.set({ zoom: 1 })), true);
  assert.deepEqual(ws.sent.at(-1), { type: 'set', camera: { zoom: 1 } });
});

test('invalid hub messages are reported, not delivered', () => {
  const { conn, got, bad, socket } = setup();
  conn.start();
  socket().open();
  socket().receive('{"type":"frame","seq":-1}');
  socket().receive('not json');
  assert.equal(got.length, 0);
  assert.equal(bad.length, 2);
});

test('reconnects with growing backoff and says hello again', () => {
  const { conn, socket, timers, states } = setup();
  conn.start();
  const first = socket();
  first.open();
  first.receive(welcome);
  first.close(1006);
  assert.equal(conn.state, 'closed');
  assert.match(conn.detail, /1006/);
  const retry = [...timers.timers.values()].filter((t) => !t.repeat);
  assert.deepEqual(retry.map((t) => t.ms), [500]);
  assert.ok(![...timers.timers.values()].some((t) => t.repeat), 'pings stop while closed');
  timers.fire((t) => !t.repeat);
  const second = socket();
  assert.notEqual(second, first);
  second.close(1006); // fails before opening
  assert.deepEqual([...timers.timers.values()].map((t) => t.ms), [1000]);
  timers.fire((t) => !t.repeat);
  socket().open();
  assert.equal(socket().sent[0].type, 'hello');
  socket().receive(welcome);
  socket().close(1006);
  assert.deepEqual([...timers.timers.values()].map((t) => t.ms), [500], 'a welcome resets the backoff');
  assert.ok(states.includes('closed'));
});

test('a drop (1006) is retried, each wait jittered by ±25 %', () => {
  for (const [r, ms] of [[0, 375], [0.999999, 625]]) {
    const { conn, socket, timers } = setup(() => r);
    conn.start();
    socket().open();
    socket().receive(welcome);
    socket().close(1006);
    assert.equal(conn.state, 'closed');
    assert.deepEqual([...timers.timers.values()].filter((t) => !t.repeat).map((t) => t.ms), [ms]);
  }
});

test('after a drain (1012, 1001) the first retry is spread over a window that grows with the audience', () => {
  for (const [code, audience, r, ms] of [[1012, 10, 0.5, 250], [1012, 10000, 0.5, 5000], [1001, 10000, 0.999, 9990],
    [1012, 50000, 0.5, 5000], [1012, 2000, 0, 0]]) {
    const { conn, socket, timers } = setup(() => r, () => audience);
    conn.start();
    socket().open();
    socket().receive(welcome);
    socket().close(code, 'service restart');
    assert.equal(conn.state, 'closed');
    assert.deepEqual([...timers.timers.values()].filter((t) => !t.repeat).map((t) => t.ms), [ms], `${code}, ${audience} clients`);
    timers.fire((t) => !t.repeat);
    socket().close(1006); // the hub is not back yet: the backoff goes on as usual
    assert.deepEqual([...timers.timers.values()].filter((t) => !t.repeat).map((t) => t.ms),
      [Math.round(1000 * (1 + 0.25 * (2 * r - 1)))]);
  }
});

test('while reconnect attempts fail, the page keeps saying why it lost the hub (1012), not the refused socket', () => {
  const { conn, socket, timers } = setup();
  conn.start();
  socket().open();
  socket().receive(welcome);
  socket().close(1012, 'service restart');
  assert.equal(conn.detail, 'closed (1012: service restart)');
  timers.fire((t) => !t.repeat);
  socket().close(1006); // the hub is not listening yet: fails before opening
  assert.equal(conn.state, 'closed');
  assert.equal(conn.detail, 'closed (1012: service restart) · 1 failed attempt');
  timers.fire((t) => !t.repeat);
  socket().close(1006);
  assert.equal(conn.detail, 'closed (1012: service restart) · 2 failed attempts');
  timers.fire((t) => !t.repeat);
  socket().open();
  socket().receive(welcome);
  assert.equal(conn.state, 'joined');
  socket().close(1006); // an open connection dropped: that is the new reason
  assert.equal(conn.detail, 'closed (1006)');
});

test('a first connection that never opens says so plainly', () => {
  const { conn, socket } = setup();
  conn.start();
  socket().close(1006);
  assert.equal(conn.detail, 'closed (1006)');
});

test('a refused hello (error, then close 1008) says why and is not retried until restart', () => {
  const { conn, socket, timers, got, states } = setup();
  conn.start();
  const ws = socket();
  ws.open();
  ws.receive({ type: 'error', code: 'forbidden', message: 'token: wrong token for role presenter', ref: 'hello' });
  assert.equal(conn.state, 'refused');
  assert.deepEqual(conn.refusal, { code: 'forbidden', message: 'token: wrong token for role presenter', ref: 'hello' });
  assert.equal(conn.detail, 'forbidden: token: wrong token for role presenter');
  assert.equal(ws.readyState, 3, 'the page closes the refused socket itself');
  ws.close(1008, 'forbidden'); // the hub's close comes too late to matter
  assert.equal(conn.state, 'refused');
  assert.equal(timers.timers.size, 0, 'no retry, no pings, no welcome timeout');
  assert.deepEqual(got, [], 'the refusal is the state, not a message');
  assert.deepEqual(states, ['connecting', 'joining', 'refused']);
  conn.start();
  assert.equal(conn.state, 'refused', 'start() does not knock again');
  conn.restart();
  assert.equal(conn.state, 'connecting');
  assert.equal(conn.refusal, null);
});

test('a hello error on an open socket (bad rate) is a refusal too: never joining forever', () => {
  const { conn, socket, timers } = setup();
  conn.start();
  const ws = socket();
  ws.open();
  ws.receive({ type: 'error', code: 'bad_message', message: 'rate: must be within 1…60 frames per second (got 100.0)', ref: 'hello' });
  assert.equal(conn.state, 'refused');
  assert.equal(conn.refusal.code, 'bad_message');
  assert.equal(ws.readyState, 3);
  assert.equal(timers.timers.size, 0);
});

test('close 1008 before a welcome is a refusal; after one, a dropped connection that is retried', () => {
  const { conn, socket, timers } = setup();
  conn.start();
  socket().open();
  socket().close(1008, 'no hello');
  assert.equal(conn.state, 'refused');
  assert.deepEqual(conn.refusal, { close: 1008, reason: 'no hello' });
  assert.equal(conn.detail, 'closed (1008: no hello)');
  assert.equal(timers.timers.size, 0);
  conn.restart();
  socket().open();
  socket().receive(welcome);
  socket().close(1008, 'send queue overflow');
  assert.equal(conn.state, 'closed');
  assert.deepEqual([...timers.timers.values()].map((t) => t.ms), [500]);
});

test('a hub that never answers hello is given up on after 15 s and retried', () => {
  const { conn, socket, timers } = setup();
  conn.start();
  const ws = socket();
  ws.open();
  const pending = [...timers.timers.values()];
  assert.deepEqual(pending.map((t) => t.ms), [15000]);
  timers.fire((t) => t.ms === 15000);
  assert.equal(conn.state, 'closed');
  assert.equal(conn.detail, 'no welcome within 15 s');
  assert.equal(ws.readyState, 3);
  assert.deepEqual([...timers.timers.values()].map((t) => t.ms), [500], 'retried with backoff');
  timers.fire((t) => t.ms === 500);
  socket().open();
  socket().receive(welcome);
  assert.equal(conn.state, 'joined');
  assert.ok(![...timers.timers.values()].some((t) => t.ms === 15000), 'the welcome clears the timeout');
});

test('a socket that never opens is given up on after 10 s and retried', () => {
  const { conn, socket, timers } = setup();
  conn.start();
  const stuck = socket();
  assert.deepEqual([...timers.timers.values()].map((t) => t.ms), [10000]);
  timers.fire((t) => t.ms === 10000);
  assert.equal(conn.state, 'closed');
  assert.equal(conn.detail, 'no answer within 10 s');
  assert.equal(stuck.readyState, 3, 'the stuck socket is closed');
  timers.fire((t) => t.ms === 500);
  assert.notEqual(socket(), stuck, 'a new socket');
  socket().open();
  socket().receive(welcome);
  assert.equal(conn.state, 'joined');
  assert.ok(![...timers.timers.values()].some((t) => t.ms === 10000), 'opening cleared the timeout');
});

test('restart closes the old socket quietly and stop stays stopped', () => {
  const { conn, socket, timers } = setup();
  conn.start();
  const first = socket();
  first.open();
  first.receive(welcome);
  conn.restart();
  assert.equal(first.readyState, 3);
  const second = socket();
  assert.notEqual(second, first);
  assert.deepEqual([...timers.timers.values()].map((t) => t.ms), [10000],
    'no retry scheduled for a deliberate close (only the new socket\'s open timeout)');
  second.open();
  assert.equal(second.sent[0].type, 'hello');
  conn.stop();
  assert.equal(conn.state, 'stopped');
  assert.equal(timers.timers.size, 0);
});

test('names the room its hello joins in the URL, so a hub of several loops serves it on the room\'s loop', () => {
  const { conn, socket } = setup();
  conn.o.room = () => 'demo';
  conn.start();
  assert.equal(socket().url, 'ws://127.0.0.1:1/hub?room=demo');
});

test('a URL that already names a room, or one with other parameters, keeps them', () => {
  assert.equal(urlWithRoom('ws://h:1/hub?room=other', 'demo'), 'ws://h:1/hub?room=other');
  assert.equal(urlWithRoom('wss://h/hub?lag=100', 'demo'), 'wss://h/hub?lag=100&room=demo');
  assert.equal(urlWithRoom('ws://h:1/hub', undefined), 'ws://h:1/hub');
});
