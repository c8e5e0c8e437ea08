import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseParams, formatParams, hubUrl, cleanRoomName, cleanName, describeProblem, rateRefusal, settleRate, checkRoom } from '../js/ui/params.js';

test('defaults: room demo, role driver', () => {
  const p = parseParams('');
  assert.equal(p.room, 'demo');
  assert.equal(p.role, 'driver');
  assert.equal(p.name, undefined);
  assert.equal(p.token, undefined);
  assert.deepEqual(p.problems, []);
});

test('reads room, role, name, token, rate and fit', () => {
  const p = parseParams('?room=ops-wall_2&role=Follower&name=Big%20screen&token=t0k&rate=20&fit=cover');
  assert.deepEqual(p, { room: 'ops-wall_2', role: 'follower', name: 'Big screen', token: 't0k', tokenUrl: undefined, rate: 20, fit: 'cover', lag: 0,
    motion: undefined, share: undefined, predict: true, problems: [] });
});

test('tokenUrl is a path on the page\'s own origin; anything else is named and not used', () => {
  assert.equal(parseParams('?tokenUrl=/auth/camhub-token').tokenUrl, '/auth/camhub-token');
  for (const given of ['https://elsewhere.example/t', '//elsewhere.example/t', 'relative/t']) {
    const p = parseParams(`?tokenUrl=${encodeURIComponent(given)}`);
    assert.equal(p.tokenUrl, undefined, given);
    assert.equal(p.problems[0].param, 'tokenUrl');
  }
  assert.match(formatParams({ room: 'demo', role: 'driver', tokenUrl: '/t' }), /tokenUrl=%2Ft/);
});

test('motion=reduced or full overrides the system setting; anything else is named', () => {
  assert.equal(parseParams('?motion=reduced').motion, 'reduced');
  assert.equal(parseParams('').motion, undefined);
  assert.deepEqual(parseParams('?motion=slow').problems.map(describeProblem),
    ["?motion=slow: motion is reduced or full; using the system's setting instead."]);
});

test('fit is same unless the address asks for cover; anything else is named', () => {
  assert.equal(parseParams('?role=follower').fit, 'same');
  const p = parseParams('?fit=zoom');
  assert.equal(p.fit, 'same');
  assert.deepEqual(p.problems.map(describeProblem), ['?fit=zoom: fit is same or cover; using same instead.']);
});

test('each unusable parameter is named with what the page uses instead', () => {
  const p = parseParams('?role=admin&rate=500&room=my%20room!');
  assert.equal(p.role, 'driver');
  assert.equal(p.rate, undefined);
  assert.equal(p.room, 'my-room');
  assert.deepEqual(p.problems.map(describeProblem), [
    '?room=my room!: a room name has only letters, digits, _ and - (1–64 of them); using room "my-room" instead.',
    '?role=admin: the roles are presenter, driver and follower; using driver instead.',
    "?rate=500: the rate is 1…240 frames per second (and at most the hub's tick); using the hub's default rate instead.",
  ]);
  // once joined, the rate the hub's default turned out to be
  settleRate(p.problems, 30);
  assert.equal(describeProblem(p.problems[2]),
    "?rate=500: the rate is 1…240 frames per second (and at most the hub's tick); using the hub's default, 30 frames per second instead.");
  const q = parseParams('?rate=fast&room=' + 'x'.repeat(100) + '&name=' + 'n'.repeat(70));
  assert.equal(q.room.length, 64);
  assert.equal(q.name.length, 64);
  assert.deepEqual(q.problems.map((x) => [x.param, x.why]), [
    ['room', 'a room name has at most 64 characters'],
    ['name', 'a name has at most 64 characters'],
    ['rate', 'the rate is a number of frames per second'],
  ]);
  assert.match(describeProblem(q.problems[0]), /^\?room=x{77}…: /, 'long values are shortened in the message');
  assert.deepEqual(parseParams('?rate=0.5').problems.map((x) => x.param), ['rate']);
  assert.equal(parseParams('?rate=12.5').rate, 12.5);
  assert.deepEqual(parseParams('?rate=&role=&room=').problems, [], 'empty means the default');
});

test('parameters the page does not read are named, with a hint for the wrong case', () => {
  const p = parseParams('?Role=follower&zoom=3');
  assert.equal(p.role, 'driver');
  assert.deepEqual(p.problems.map(describeProblem), [
    '?Role=follower: ignored; did you mean role? Parameter names are case-sensitive.',
    '?zoom=3: ignored; the page reads room, role, name, token, tokenUrl, rate, fit, motion, share, lag and predict.',
  ]);
});

test('a rate the hub refuses becomes a problem naming the hub\'s reason', () => {
  const error = { type: 'error', code: 'bad_message', message: 'rate: must be within 1…60 frames per second (got 100.0)', ref: 'hello' };
  const p = rateRefusal(error, { rate: 100 });
  assert.equal(describeProblem(p),
    "?rate=100: the hub refused it (rate: must be within 1…60 frames per second (got 100.0)); using the hub's default rate instead.");
  assert.equal(rateRefusal(error, { rate: undefined }), null, 'the page did not send a rate');
  assert.equal(rateRefusal({ ...error, message: 'room: bad' }, { rate: 100 }), null);
  assert.equal(rateRefusal({ ...error, code: 'forbidden' }, { rate: 100 }), null);
});

test('room names are cleaned to the hub alphabet, names lose control characters', () => {
  assert.equal(cleanRoomName(' ops wall/2 '), 'ops-wall2');
  assert.equal(cleanRoomName('äöü'), 'demo');
  assert.equal(cleanRoomName(''), 'demo');
  assert.equal(cleanName(' a\u0007b '), 'ab');
  assert.equal(cleanName('   '), undefined);
  const p = parseParams('?room=ops%20wall');
  assert.equal(p.room, 'ops-wall');
  assert.deepEqual(p.problems.map((x) => [x.param, x.given, x.used]), [['room', 'ops wall', 'room "ops-wall"']]);
  assert.deepEqual(checkRoom('  ops-wall '), { room: 'ops-wall', problem: null }, 'surrounding blanks are no problem');
  // typed into the session form rather than the address
  assert.equal(describeProblem({ ...checkRoom('my room!').problem, form: true }),
    'room "my room!": a room name has only letters, digits, _ and - (1–64 of them); using room "my-room" instead.');
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
