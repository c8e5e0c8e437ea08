import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageState } from '../js/state/page_state.js';
import { FOLLOWER_EVENTS, DRIVER_EVENTS } from '../../clients/js/src/state/subscriptions.js';
import { parseParams } from '../js/ui/params.js';

const camera = { lat: 48.85, lon: 2.35, zoom: 12, bearing: 0, tilt: 0 };
const welcome = (fields = {}) => ({
  type: 'welcome', client: 'c3', room: 'demo', role: 'driver', rate: 30, tick: 60, time: 1, seq: 4, camera,
  limits: { maxZoom: 18 }, presenter: 'c1', clients: 2, followers: 0,
  roster: [{ client: 'c1', name: 'Ana', role: 'presenter' }, { client: 'c3', name: 'me', role: 'driver' }],
  gestures: ['rotate'], events: DRIVER_EVENTS, animations: [], tracking: { mode: 'followNorthUp', location: null },
  route: [{ lat: 1, lon: 2 }, { lat: 3, lon: 4 }],
  ...fields,
});
const frame = (seq, fields = {}) => ({ type: 'frame', seq, time: 10 + seq, camera: { ...camera, zoom: 12 + seq / 10 }, moving: true, by: null, ...fields });
const ev = (event, fields = {}) => ({ type: 'event', event, time: 2, ...fields });

/** A page that asked for `search` (e.g. '?room=demo&role=driver'). */
function page(search = '?room=demo&role=driver') {
  return new PageState(parseParams(search), { width: 800, height: 600 });
}

function welcomed(fields, search) {
  const s = page(search);
  s.apply(welcome(fields));
  return s;
}

// -- before the hub answers -------------------------------------------------------

test('before a welcome the role and room are what the address asks for, and nothing may be driven', () => {
  const s = page('?room=harbour&role=presenter');
  assert.equal(s.room, 'harbour');
  assert.equal(s.role, 'presenter');
  assert.equal(s.joined, false);
  assert.equal(s.canDrive, false);
  assert.equal(s.me, null);
});

test('the hello asks for the events of the role', () => {
  assert.deepEqual(page('?role=follower').helloEvents, FOLLOWER_EVENTS);
  assert.deepEqual(page('?role=driver').helloEvents, DRIVER_EVENTS);
  assert.ok(!DRIVER_EVENTS.includes('gesture'), 'no raw gesture reports');
  assert.ok(FOLLOWER_EVENTS.includes('tap') && FOLLOWER_EVENTS.includes('joined'), 'a follower shows taps and the roster');
});

// -- welcome ----------------------------------------------------------------------

test('a welcome sets who we are, the room, our role and who presents', () => {
  const s = welcomed();
  assert.equal(s.me, 'c3');
  assert.equal(s.room, 'demo');
  assert.equal(s.role, 'driver');
  assert.equal(s.presenter, 'c1');
  assert.ok(s.joined);
  assert.ok(s.canDrive);
});

test('a welcome keeps the rate granted, the tick, the limits, the tracking mode and the disabled gestures', () => {
  const s = welcomed();
  assert.equal(s.rate, 30);
  assert.equal(s.tick, 60);
  assert.deepEqual(s.limits, { maxZoom: 18 });
  assert.equal(s.tracking, 'followNorthUp');
  assert.deepEqual([...s.disabledGestures], ['rotate']);
});

test("a welcome's events are the page's subscriptions", () => {
  const s = welcomed({ role: 'follower', events: FOLLOWER_EVENTS }, '?role=follower');
  assert.deepEqual(s.subscriptions, FOLLOWER_EVENTS);
  assert.notEqual(s.subscriptions, FOLLOWER_EVENTS, 'a copy, not the message');
});

test('a welcome gives the hub camera and forgets the last frame', () => {
  const s = welcomed();
  s.apply(frame(5));
  s.apply(welcome());
  assert.deepEqual(s.hubCamera, camera);
  assert.equal(s.lastFrame, null);
});

test('a welcome fills the route and the room animations', () => {
  const s = welcomed({ animations: [{ id: 'f1', by: 'c1', kind: 'fly', status: 'running', properties: [], started: 1, duration: 2, after: null }] });
  assert.deepEqual(s.route.points, [{ lat: 1, lon: 2 }, { lat: 3, lon: 4 }]);
  assert.deepEqual(s.animations.entries(s.me).map((a) => a.id), ['f1']);
});

test('a welcome that grants another role than asked for says which was asked for, and the page asks for the granted one next', () => {
  const s = page('?room=demo&role=presenter');
  const changes = s.apply(welcome({ role: 'driver', room: 'demo' }));
  assert.equal(changes.roleWas, 'presenter');
  assert.equal(s.role, 'driver');
  assert.equal(s.params.role, 'driver', 'the next hello and the address ask for what was joined');
});

test('a welcome to the role asked for names no earlier role', () => {
  assert.equal(page().apply(welcome()).roleWas, null);
});

test('the welcome names the room the hub joined, which the next hello asks for', () => {
  const s = page('?room=demo');
  s.apply(welcome({ room: 'other' }));
  assert.equal(s.room, 'other');
  assert.equal(s.params.room, 'other');
});

test('a welcome lists the roster, presenter first, with our own entry marked', () => {
  const s = welcomed();
  assert.deepEqual(s.roster(), [{ client: 'c1', name: 'Ana', role: 'presenter', follow: 'following' },
    { client: 'c3', name: 'me', role: 'driver', follow: 'following' }]);
  assert.equal(s.nameOf('c3'), 'me (you)');
  assert.equal(s.nameOf('c1'), 'Ana');
  assert.equal(s.nameOf('zz'), 'zz');
  assert.equal(s.nameOf(null), '—');
});

test('a welcome without our own roster entry adds one', () => {
  const s = welcomed({ roster: [{ client: 'c1', name: 'Ana', role: 'presenter' }] });
  assert.deepEqual(s.roster().map((p) => p.client), ['c1', 'c3']);
});

test('a second welcome replaces everything the first said', () => {
  const s = welcomed();
  s.apply(ev('joined', { client: 'c7', name: 'Wall', role: 'follower' }));
  s.apply(welcome({ presenter: null, roster: [], gestures: [] }));
  assert.deepEqual(s.roster().map((p) => p.client), ['c3']);
  assert.equal(s.presenter, null);
  assert.equal(s.disabledGestures.size, 0);
});

// -- frames -----------------------------------------------------------------------

test('a frame becomes the hub camera and the last frame, and is counted', () => {
  const s = welcomed();
  const f = frame(5);
  const changes = s.apply(f);
  assert.ok(changes.has('camera'));
  assert.deepEqual(s.hubCamera, f.camera);
  assert.equal(s.lastFrame, f);
  assert.equal(s.diagnostics.framesReceived, 1);
});

test('a frame names who moved the camera last; a frame without `by` keeps the last mover', () => {
  const s = welcomed();
  s.apply(frame(5, { by: 'c1' }));
  assert.equal(s.lastBy, 'c1');
  s.apply(frame(6, { by: null }));
  assert.equal(s.lastBy, 'c1');
});

// -- role changes and presenterChanged ----------------------------------------------

test('presenterChanged names the new presenter and demotes the old one to driver in the roster', () => {
  const s = welcomed();
  s.apply(ev('joined', { client: 'c9', name: 'Bo', role: 'presenter' }));
  const changes = s.apply(ev('presenterChanged', { client: 'c9', previous: 'c1', demoted: 'c1', by: 'c9' }));
  assert.equal(changes.note, 'Bo presents now');
  assert.equal(s.presenter, 'c9');
  assert.equal(s.roleOf('c1'), 'driver');
  assert.deepEqual(s.roster().map((p) => [p.client, p.role]), [['c9', 'presenter'], ['c1', 'driver'], ['c3', 'driver']]);
});

test('our own demotion makes us a driver, and the next hello asks for driver', () => {
  const s = welcomed({ role: 'presenter', presenter: 'c3', roster: [{ client: 'c3', name: 'me', role: 'presenter' }] }, '?role=presenter');
  const changes = s.apply(ev('presenterChanged', { client: 'c4', previous: 'c3', demoted: 'c3', by: 'c4' }));
  assert.ok(changes.has('role'));
  assert.equal(changes.roleWas, 'presenter');
  assert.equal(s.role, 'driver');
  assert.equal(s.params.role, 'driver');
  assert.ok(s.canDrive);
});

test('becoming the presenter makes our role presenter', () => {
  const s = welcomed();
  const changes = s.apply(ev('presenterChanged', { client: 'c3', previous: 'c1', demoted: 'c1', by: 'c3' }));
  assert.ok(changes.has('role'));
  assert.equal(s.role, 'presenter');
  assert.equal(s.roleOf('c3'), 'presenter');
});

test("someone else's presenterChanged leaves our role alone", () => {
  const s = welcomed();
  const changes = s.apply(ev('presenterChanged', { client: 'c8', previous: 'c1', demoted: 'c1', by: 'c8' }));
  assert.ok(!changes.has('role'));
  assert.equal(changes.roleWas, null);
  assert.equal(s.role, 'driver');
});

test('a presenter who leaves stops presenting; the following presenterChanged needs no note', () => {
  const s = welcomed();
  assert.equal(s.apply(ev('left', { client: 'c1', name: 'Ana', role: 'presenter' })).note, 'Ana left');
  assert.equal(s.presenter, null);
  assert.equal(s.apply(ev('presenterChanged', { client: null, previous: 'c1', demoted: null, by: null })).note, null);
  assert.deepEqual(s.roster().map((p) => p.client), ['c3']);
});

test('a presenter stopping without leaving is said so', () => {
  const s = welcomed();
  assert.equal(s.apply(ev('presenterChanged', { client: null, previous: 'c1', demoted: null, by: 'c1' })).note, 'Ana stopped presenting');
});

test('joined adds someone to the roster with a note', () => {
  const s = welcomed();
  const changes = s.apply(ev('joined', { client: 'c7', name: 'Wall', role: 'follower' }));
  assert.equal(changes.note, 'Wall joined as follower');
  assert.ok(changes.has('people'));
  assert.deepEqual(s.roster().map((p) => p.client), ['c1', 'c3', 'c7']);
});

test('followers cannot drive', () => {
  assert.equal(welcomed({ role: 'follower' }, '?role=follower').canDrive, false);
});

// -- limits, tracking, route, audience, animations, gestures ---------------------------

test('limitsChanged replaces the limits', () => {
  const s = welcomed();
  const changes = s.apply(ev('limitsChanged', { limits: { maxTilt: 85 }, by: 'c1' }));
  assert.ok(changes.has('limits'));
  assert.deepEqual(s.limits, { maxTilt: 85 });
});

test('trackingModeChanged sets the tracking mode', () => {
  const s = welcomed();
  assert.ok(s.apply(ev('trackingModeChanged', { mode: 'followDirection', by: 'c1' })).has('tracking'));
  assert.equal(s.tracking, 'followDirection');
});

test('routeChanged extends or replaces the route', () => {
  const s = welcomed();
  assert.ok(s.apply(ev('routeChanged', { by: 'c1', append: true, total: 3, points: [{ lat: 5, lon: 6 }] })).has('route'));
  assert.equal(s.route.points.length, 3);
  s.apply(ev('routeChanged', { by: 'c1', append: false, total: 0, points: [] }));
  assert.deepEqual(s.route.points, []);
});

test('the head count follows the hub count of large audiences', () => {
  const s = welcomed({ clients: 120, followers: 118 });
  assert.equal(s.headCount, 120);
  s.apply(ev('audience', { clients: 300, followers: 297 }));
  assert.equal(s.headCount, 300);
  assert.equal(s.followers, 297);
});

test('without a hub count the head count is the listed people', () => {
  assert.equal(welcomed({ clients: undefined, followers: undefined }).headCount, 2);
});

test('an animation report updates the room animations and is logged', () => {
  const s = welcomed();
  assert.ok(s.apply({ type: 'animation', id: 'f2', status: 'started', by: 'c3', lost: [], clamped: [] }).has('animations'));
  assert.deepEqual(s.animations.entries(s.me).map((a) => [a.id, a.mine]), [['f2', true]]);
  assert.equal(s.diagnostics.animations.length, 1);
});

test("the hub's gestures answer replaces the disabled gestures", () => {
  const s = welcomed();
  assert.ok(s.apply({ type: 'gestures', disabled: ['pan', 'tilt'] }).has('gestures'));
  assert.deepEqual([...s.disabledGestures], ['pan', 'tilt']);
});

test("the hub's errors are kept for tests", () => {
  const s = welcomed();
  s.apply({ type: 'error', code: 'conflict', message: 'x', ref: 'gesture' });
  assert.equal(s.diagnostics.errors.length, 1);
});

test('an unknown event changes nothing', () => {
  const s = welcomed();
  const changes = s.apply(ev('somethingNew'));
  assert.equal(changes.what.size, 0);
  assert.equal(changes.note, null);
});

// -- joining again ----------------------------------------------------------------

test('rejoin asks for the new room and role and forgets the old room', () => {
  const s = welcomed();
  s.rejoin({ room: 'harbour', role: 'follower' });
  assert.equal(s.room, 'harbour');
  assert.equal(s.role, 'follower');
  assert.equal(s.joined, false);
  assert.equal(s.presenter, null);
  assert.equal(s.people.size, 0);
  assert.equal(s.subscriptions, null);
  assert.deepEqual(s.helloEvents, FOLLOWER_EVENTS);
});

// -- follow mode ------------------------------------------------------------------

test("a welcome gives the follow counts, the follow policy and each listed person's state", () => {
  const s = welcomed({
    following: 3, exploring: 1, away: 2, followPolicy: { explore: false },
    roster: [{ client: 'c1', name: 'Ana', role: 'presenter', follow: 'following' },
      { client: 'c5', name: 'Bo', role: 'follower', follow: 'away' }],
  });
  assert.equal(s.followSummary(), '3 following · 1 exploring · 2 away');
  assert.equal(s.followPolicy.explore, false);
  assert.equal(s.roster().find((p) => p.client === 'c5').follow, 'away');
});

test("followChanged changes a listed person's state; audience changes the counts", () => {
  const s = welcomed({ following: 1, exploring: 0, away: 0,
    roster: [{ client: 'c5', name: 'Bo', role: 'follower', follow: 'following' }] });
  assert.ok(s.apply(ev('followChanged', { client: 'c5', name: 'Bo', state: 'exploring' })).has('people'));
  assert.equal(s.roster().find((p) => p.client === 'c5').follow, 'exploring');
  s.apply(ev('audience', { clients: 3, followers: 1, following: 0, exploring: 1, away: 0 }));
  assert.equal(s.followSummary(), '0 following · 1 exploring · 0 away');
});

test('the follow policy and a summons are changes the page reacts to', () => {
  const s = welcomed();
  const locked = s.apply(ev('followPolicyChanged', { explore: false, by: 'c1' }));
  assert.ok(locked.has('followPolicy'));
  assert.deepEqual(s.followPolicy, { explore: false, by: 'c1' });
  const summoned = s.apply(ev('summoned', { by: { client: 'c1', name: 'Ana' } }));
  assert.ok(summoned.has('summoned'));
  assert.deepEqual(summoned.summonedBy, { client: 'c1', name: 'Ana' });
});

test('our own roster entry shows the state this page told the hub; a new session starts following', () => {
  const s = welcomed();
  s.followState = 'exploring';
  assert.equal(s.roster().find((p) => p.client === 'c3').follow, 'exploring');
  s.apply(welcome());
  assert.equal(s.followState, 'following');
});

test('followers ask for summons and the follow policy', () => {
  assert.ok(FOLLOWER_EVENTS.includes('summoned') && FOLLOWER_EVENTS.includes('followPolicyChanged'));
  assert.ok(DRIVER_EVENTS.includes('followChanged'));
});
