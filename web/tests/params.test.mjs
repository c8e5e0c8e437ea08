import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseParams, formatParams, hubUrl, cleanRoomName, cleanName } from '../js/params.js';

test('defaults: room demo, role driver', () => {
  const p = parseParams('');
  assert.equal(p.room, 'demo');
  assert.equal(p.role, 'driver');
  assert.equal(p.name, undefined);
  assert.equal(p.token, undefined);
  assert.deepEqual(p.warnings, []);
});

test('reads room, role, name, token and rate', () => {
  const p = parseParams('?room=ops-wall_2&role=Follower&name=Big%20screen&token=t0k&rate=20');
  assert.deepEqual({ ...p, warnings: undefined }, { room: 'ops-wall_2', role: 'follower', name: 'Big screen', token: 't0k', rate: 20, warnings: undefined });
});

test('bad values fall back with a warning', () => {
  const p = parseParams('?role=admin&rate=fast&room=' + 'x'.repeat(70));
  assert.equal(p.role, 'driver');
  assert.equal(p.rate, undefined);
  assert.equal(p.room.length, 64);
  assert.equal(p.warnings.length, 3);
});

test('room names are cleaned to the hub alphabet, names lose control characters', () => {
  assert.equal(cleanRoomName(' ops wall/2 '), 'ops-wall2');
  assert.equal(cleanRoomName('äöü'), 'demo');
  assert.equal(cleanRoomName(''), 'demo');
  assert.equal(cleanName(' a\u0007b '), 'ab');
  assert.equal(cleanName('   '), undefined);
  const p = parseParams('?room=ops%20wall');
  assert.equal(p.room, 'ops-wall');
  assert.match(p.warnings[0], /not a valid room name/);
});

test('formatParams leaves defaults out and keeps other keys', () => {
  assert.equal(formatParams({ room: 'demo', role: 'driver' }), '');
  assert.equal(formatParams({ room: 'r1', role: 'follower', name: 'a b' }, '?debug=1&role=driver'), '?debug=1&role=follower&room=r1&name=a+b');
  const round = parseParams(formatParams({ room: 'a-b', role: 'presenter', token: 'x&y', name: 'Zoë & co' }));
  assert.equal(round.room, 'a-b');
  assert.equal(round.name, 'Zoë & co');
  assert.equal(round.role, 'presenter');
  assert.equal(round.token, 'x&y');
});

test('hub URL is /hub on the page host', () => {
  assert.equal(hubUrl({ protocol: 'http:', host: '127.0.0.1:8080' }), 'ws://127.0.0.1:8080/hub');
  assert.equal(hubUrl({ protocol: 'https:', host: 'example.org' }), 'wss://example.org/hub');
});
