import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainRefusal } from '../js/ui/refusal.js';

test('a wrong token: the hub\'s reason, which token is needed, and a way in as a follower', () => {
  const e = explainRefusal({ code: 'forbidden', message: 'token: wrong token for role presenter', ref: 'hello' },
    { room: 'ops', role: 'presenter', token: 'nope' });
  assert.equal(e.title, 'The hub did not let this page join room "ops" as presenter');
  assert.equal(e.reason, 'forbidden: token: wrong token for role presenter');
  assert.match(e.advice, /^The token in this address is not the one the hub was started with\. Presenting needs the presenter token/);
  assert.match(e.advice, /--presenter-token/);
  assert.match(e.advice, /join as a follower/);
  assert.deepEqual(e.actions, ['token', 'follower']);
  const missing = explainRefusal({ code: 'forbidden', message: 'token: missing token for role driver' }, { room: 'demo', role: 'driver' });
  assert.match(missing.advice, /^Driving needs the driver token \(or the presenter token\)/);
  assert.match(missing.advice, /--driver-token/);
});

test('a hello field the hub rejects is named; other refusals offer to join again', () => {
  const bad = explainRefusal({ code: 'bad_message', message: 'viewport.width: must be within 1…16384 (got 20000.0)' },
    { room: 'demo', role: 'follower' });
  assert.equal(bad.reason, 'bad_message: viewport.width: must be within 1…16384 (got 20000.0)');
  assert.match(bad.advice, /^The hub could not accept the hello's viewport\.width\. /);
  assert.deepEqual(bad.actions, ['retry']);
  const closed = explainRefusal({ close: 1008, reason: 'no hello' }, { room: 'demo', role: 'driver' });
  assert.equal(closed.reason, 'connection closed (1008: no hello)');
  assert.deepEqual(closed.actions, ['retry', 'follower']);
  assert.deepEqual(explainRefusal({ close: 1008, reason: '' }, { room: 'demo', role: 'follower' }).actions, ['retry']);
  assert.deepEqual(explainRefusal({ code: 'conflict', message: 'hello: already joined' }, { room: 'demo', role: 'driver' }).actions, ['retry']);
});
