// ?lag=MS: the page's WebSocket delays every message by MS/2 each way (web/js/net/lag.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { laggedWebSocket, parseLag } from '../js/net/lag.js';
import { parseParams } from '../js/ui/params.js';

/** Timers run by hand: advance(ms) fires what is due, in order. */
function manualTimers() {
  let now = 0;
  let queue = [];
  return {
    setTimeout(fn, ms) {
      queue.push({ at: now + ms, fn, n: queue.length });
      return queue.length;
    },
    advance(ms) {
      now += ms;
      const due = queue.filter((q) => q.at <= now).sort((a, b) => a.at - b.at || a.n - b.n);
      queue = queue.filter((q) => q.at > now);
      for (const q of due) q.fn();
    },
  };
}

class FakeSocket {
  constructor(url, protocols) {
    this.url = url;
    this.protocols = protocols;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.last = this;
  }

  send(data) {
    this.sent.push(data);
  }

  close() {
    this.readyState = 3;
  }
}

test('messages each way wait half the lag, in order', () => {
  const timers = manualTimers();
  const Lagged = laggedWebSocket(FakeSocket, 100, timers);
  const ws = new Lagged('ws://hub', 'camhub.v1');
  const raw = FakeSocket.last;
  assert.equal(raw.protocols, 'camhub.v1');
  const got = [];
  ws.onmessage = (e) => got.push(e.data);
  raw.readyState = 1;
  ws.send('a');
  ws.send('b');
  timers.advance(49);
  assert.deepEqual(raw.sent, [], 'nothing leaves before 50 ms');
  timers.advance(1);
  assert.deepEqual(raw.sent, ['a', 'b']);
  raw.onmessage({ data: 'x' });
  raw.onmessage({ data: 'y' });
  timers.advance(49);
  assert.deepEqual(got, []);
  timers.advance(1);
  assert.deepEqual(got, ['x', 'y']);
});

test('binary frames arrive as the page asked: binaryType is the real socket\'s', () => {
  const Lagged = laggedWebSocket(FakeSocket, 100, manualTimers());
  const ws = new Lagged('ws://hub', 'camhub.v1');
  ws.binaryType = 'arraybuffer';
  assert.equal(FakeSocket.last.binaryType, 'arraybuffer');
  assert.equal(ws.binaryType, 'arraybuffer');
});

test('no lag is the plain WebSocket', () => {
  assert.equal(laggedWebSocket(FakeSocket, 0), FakeSocket);
});

test('?lag= takes 0…5000 ms and names anything else', () => {
  assert.deepEqual(parseLag('100'), { lag: 100, problem: null });
  assert.equal(parseLag('').lag, 0);
  assert.equal(parseLag('-5').problem.why, 'the lag is 0…5000 ms of round trip');
  assert.equal(parseLag('soon').lag, 0);
  assert.equal(parseParams('?lag=80').lag, 80);
  assert.deepEqual(parseParams('?lag=abc').problems.map((p) => p.param), ['lag']);
});

test('?predict=0 turns the prediction off; anything but a yes or no is named', () => {
  assert.equal(parseParams('').predict, true);
  assert.equal(parseParams('?predict=0').predict, false);
  assert.deepEqual(parseParams('?predict=maybe').problems.map((p) => p.param), ['predict']);
});
