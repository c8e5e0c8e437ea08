// The room's storyboard through the client library, against a real hub: a
// presenter sets and steps it, every client hears where the room is, a
// joiner finds it in its welcome; the builders refuse bad steps by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildStory, storySet, STORY_LIMITS } from '../src/index.js';
import { hubForTests, next } from './support/hub.mjs';

const { roomName, join } = hubForTests('js-story');

const steps = [
  { camera: { lat: 38.72, lon: -9.14, zoom: 11 }, via: 'jump', title: 'Lisbon', notes: 'The Tagus.\nWest.' },
  { camera: { lat: 41.15, lon: -8.61, zoom: 12, bearing: 30, tilt: 50, roll: -8 }, duration: 0.3, title: 'Porto' },
];

test('a presenter steps through its storyboard: followers hear each step and land on its camera; a joiner finds it', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const follower = await join(name, 'follower');
  assert.equal(follower.story, null, 'a room without a storyboard');
  const changed = next(follower, 'storyChanged');
  presenter.setStory(steps);
  assert.equal((await changed)[0].count, 2);
  assert.deepEqual(follower.story, { count: 2, index: null, title: null, notes: null, playing: false, drivers: false, camera: undefined });

  const first = next(follower, 'storyStep');
  presenter.step('next');
  const [lisbon] = await first;
  assert.equal(lisbon.title, 'Lisbon');
  assert.equal(follower.story.notes, 'The Tagus.\nWest.');

  const second = next(follower, 'storyStep');
  const landed = next(follower, 'frame', 10000, (f) => !f.moving && Math.abs(f.camera.zoom - 12) < 1e-9);
  presenter.step('next', { id: 'porto' });
  const [porto] = await second;
  assert.equal(porto.index, 1);
  assert.equal(follower.story.title, 'Porto');
  const [frame] = await landed;
  for (const [k, v] of Object.entries({ lat: 41.15, lon: -8.61, bearing: 30, tilt: 50, roll: -8 })) assert.equal(frame.camera[k], v, k);

  const late = await join(name, 'follower');
  assert.deepEqual(late.welcome.story, { count: 2, index: 1, title: 'Porto', notes: null, playing: false, drivers: false });
});

test('a driver may step only once a presenter allows drivers', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const driver = await join(name, 'driver');
  presenter.setStory(steps);
  await next(driver, 'storyChanged');
  const refused = next(driver, 'error', 10000, (m) => m.ref === 'step');
  driver.step(0);
  assert.equal((await refused)[0].code, 'forbidden');
  const allowed = next(driver, 'storyChanged', 10000, (m) => m.drivers);
  presenter.allowStoryDrivers(true);
  await allowed;
  assert.equal(driver.story.drivers, true);
  const stepped = next(presenter, 'storyStep');
  driver.step(0);
  assert.equal((await stepped)[0].by, driver.me);
});

test('a storyboard larger than one message goes as a set and inserts, and the hub holds every step', async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const many = Array.from({ length: STORY_LIMITS.steps }, (_, i) => ({
    camera: { lat: i / 10, lon: i / 10, zoom: 5 }, title: `Step ${i}`, notes: 'n'.repeat(300) }));
  const messages = storySet(many);
  assert.ok(messages.length > 1 && messages[0].op === 'set' && messages.slice(1).every((m) => m.op === 'insert'));
  assert.ok(messages.every((m) => new TextEncoder().encode(JSON.stringify(m)).length <= 8192));
  const all = next(presenter, 'storyChanged', 10000, (m) => m.count === STORY_LIMITS.steps);
  presenter.setStory(many);
  await all;
});

test('the builders refuse a bad step naming the field, before anything is sent', () => {
  const cases = [
    [() => buildStory.set([{ camera: { lat: 1, lon: 2 } }]), /steps\[0\]\.camera\.zoom: missing/],
    [() => buildStory.set([{ camera: { lat: 1, lon: 2, zoom: 3 }, via: 'jump', duration: 1 }]), /steps\[0\]\.duration: a jump takes no time/],
    [() => buildStory.set([{ camera: { lat: 1, lon: 2, zoom: 3 }, hold: -1 }]), /steps\[0\]\.hold: must be within 0…3600/],
    [() => buildStory.update(0, { camera: { lat: 1, lon: 2, zoom: 3 }, title: 'a'.repeat(121) }), /step\.title: must be at most 120 characters/],
    [() => buildStory.step('sideways'), /to: unknown step 'sideways'/],
    [() => buildStory.move(-1, 0), /from: must be a whole number/],
  ];
  for (const [make, message] of cases) assert.throws(make, message);
});

test("query('story') gives a presenter the steps whole, and refuses a follower", async () => {
  const name = roomName();
  const presenter = await join(name, 'presenter');
  const follower = await join(name, 'follower');
  const changed = next(presenter, 'storyChanged');
  presenter.setStory(steps);
  await changed;
  const stepped = next(presenter, 'storyStep');
  presenter.step(1);
  await stepped;
  const story = await presenter.query('story');
  assert.equal(story.what, 'story');
  assert.deepEqual(story.steps.map((s) => s.title), ['Lisbon', 'Porto']);
  assert.deepEqual(story.steps[1].camera, { lat: 41.15, lon: -8.61, zoom: 12, bearing: 30, tilt: 50, roll: -8 });
  assert.equal(story.steps[0].notes, 'The Tagus.\nWest.');
  assert.equal(story.index, 1);
  assert.equal(story.playing, false);
  await assert.rejects(follower.query('story'), (e) => e.code === 'forbidden' && e.message.includes('what: story'));
});
