import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RoomState } from '../js/ui/room.js';

const camera = { lat: 0, lon: 0, zoom: 1, bearing: 0, tilt: 0 };
const welcome = {
  type: 'welcome', client: 'c3', room: 'demo', role: 'driver', rate: 30, tick: 30, time: 1, seq: 0, camera, limits: {},
  presenter: 'c1', roster: [{ client: 'c1', name: 'Ana', role: 'presenter' }, { client: 'c3', name: 'me', role: 'driver' }],
  gestures: ['rotate'],
};
const ev = (event, fields) => ({ type: 'event', event, time: 2, ...fields });

test('welcome fills the roster, presenter and role', () => {
  const r = new RoomState();
  r.apply(welcome);
  assert.equal(r.me, 'c3');
  assert.equal(r.role, 'driver');
  assert.ok(r.canDrive);
  assert.equal(r.nameOf('c1'), 'Ana');
  assert.equal(r.nameOf('c3'), 'me (you)');
  assert.equal(r.nameOf('zz'), 'zz');
  assert.equal(r.nameOf(null), '—');
  assert.deepEqual(r.disabledGestures, ['rotate']);
  assert.deepEqual(r.roster().map((p) => p.client), ['c1', 'c3']);
});

test('joined, left, presenterChanged and frames keep it up to date', () => {
  const r = new RoomState();
  r.apply(welcome);
  assert.equal(r.apply(ev('joined', { client: 'c7', name: 'Wall', role: 'follower' })), 'Wall joined as follower');
  assert.deepEqual(r.roster().map((p) => p.client), ['c1', 'c3', 'c7']);
  r.apply({ type: 'frame', seq: 1, time: 3, camera, moving: true, by: 'c1' });
  assert.equal(r.lastBy, 'c1');
  r.apply({ type: 'frame', seq: 2, time: 4, camera, moving: false, by: null });
  assert.equal(r.lastBy, 'c1', 'a frame without by keeps the last mover');

  // c9 joins as presenter: c1 is demoted to driver
  r.apply(ev('joined', { client: 'c9', name: 'Bo', role: 'presenter' }));
  assert.equal(r.apply(ev('presenterChanged', { client: 'c9', previous: 'c1', demoted: 'c1', by: 'c9' })), 'Bo presents now');
  assert.equal(r.presenter, 'c9');
  assert.equal(r.people.get('c1').role, 'driver');
  assert.deepEqual(r.roster().map((p) => p.client), ['c9', 'c1', 'c3', 'c7']);

  // the presenter leaves
  assert.equal(r.apply(ev('left', { client: 'c9', name: 'Bo', role: 'presenter' })), 'Bo left');
  assert.equal(r.apply(ev('presenterChanged', { client: null, previous: 'c9', demoted: null, by: null })), null);
  assert.equal(r.presenter, null);
  assert.ok(!r.people.has('c9'));
});

test('our own demotion changes our role', () => {
  const r = new RoomState();
  r.apply({ ...welcome, role: 'presenter', presenter: 'c3', roster: [{ client: 'c3', name: 'me', role: 'presenter' }] });
  r.apply(ev('presenterChanged', { client: 'c4', previous: 'c3', demoted: 'c3', by: 'c4' }));
  assert.equal(r.role, 'driver');
  assert.equal(r.presenter, 'c4');
  assert.ok(r.canDrive);
});

test('followers cannot drive; limits and tracking events are kept', () => {
  const r = new RoomState();
  r.apply({ ...welcome, role: 'follower' });
  assert.ok(!r.canDrive);
  r.apply(ev('limitsChanged', { limits: { maxTilt: 85 }, by: 'c1' }));
  assert.deepEqual(r.limits, { maxTilt: 85 });
  r.apply(ev('trackingModeChanged', { mode: 'followNorthUp', by: 'c1' }));
  assert.equal(r.tracking, 'followNorthUp');
  assert.equal(r.apply(ev('somethingNew', {})), null);
});

test('the head count follows the hub count of large audiences', () => {
  const room = new RoomState();
  room.apply({ type: 'welcome', client: 'c9', room: 'big', role: 'follower', presenter: null, clients: 120, followers: 118,
    roster: [{ client: 'c1', name: 'ana', role: 'presenter' }] });
  assert.equal(room.headCount, 120);
  room.apply({ type: 'event', event: 'audience', clients: 300, followers: 297 });
  assert.equal(room.headCount, 300);
  assert.equal(room.followers, 297);
});

test('without a hub count, the head count is the listed people', () => {
  const room = new RoomState();
  room.apply({ type: 'welcome', client: 'c2', room: 'r', role: 'driver', roster: [{ client: 'c1', name: 'a', role: 'driver' }] });
  assert.equal(room.headCount, 2);
});
