import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventLog } from '../js/ui/event_log.js';

const names = { c1: 'ana', c2: 'bo' };
const nameOf = (c) => names[c] ?? c;

test('events and animation reports are logged newest first with who did it', () => {
  const log = new EventLog();
  log.add({ type: 'event', event: 'joined', time: 1, client: 'c2', name: 'bo', role: 'driver' }, nameOf);
  log.add({ type: 'animation', id: 'tour-1', status: 'cancelled', by: 'c1', reason: 'superseded', time: 2 }, nameOf);
  log.add({ type: 'event', event: 'trackingModeChanged', mode: 'followNorthUp', by: 'c2', time: 3 }, nameOf);
  assert.deepEqual(log.entries.map((e) => [e.kind, e.text]), [
    ['tracking', 'followNorthUp by bo'],
    ['animation', 'tour-1 cancelled by ana (superseded)'],
    ['joined', 'bo (driver)'],
  ]);
  assert.match(log.lines()[0], /^\d\d:\d\d:\d\d tracking: followNorthUp by bo$/);
});

test('a change of projection is logged with who made it', () => {
  const log = new EventLog();
  log.add({ type: 'event', event: 'projectionChanged', time: 1, projection: 'globe', by: 'c1' }, nameOf);
  log.add({ type: 'event', event: 'projectionChanged', time: 2, projection: 'mercator', by: null }, nameOf);
  assert.deepEqual(log.entries.map((e) => [e.kind, e.text]), [['projection', 'mercator'], ['projection', 'globe by ana']]);
  assert.match(log.lines()[1], /^\d\d:\d\d:\d\d projection: globe by ana$/);
});

test('the room\'s steps are logged with their place, title and who stepped', () => {
  const log = new EventLog();
  log.add({ type: 'event', event: 'storyStep', time: 1, index: 2, count: 8, title: 'Porto', notes: null, playing: false, by: 'c1' }, nameOf);
  log.add({ type: 'event', event: 'storyStep', time: 2, index: 3, count: 8, title: null, notes: null, playing: true, by: null }, nameOf);
  assert.deepEqual(log.entries.map((e) => [e.kind, e.text]), [['story', 'step 4 of 8 (autoplay)'], ['story', 'step 3 of 8: Porto by ana']]);
});

test('the log is bounded: the oldest entries fall off', () => {
  const log = new EventLog(3);
  for (let i = 0; i < 5; i++) log.add({ type: 'event', event: 'steady', time: i });
  assert.deepEqual(log.entries.map((e) => e.t), [4, 3, 2]);
});

test('messages that are not events or animation reports are not logged', () => {
  const log = new EventLog();
  assert.equal(log.add({ type: 'frame', time: 1 }), null);
  assert.equal(log.entries.length, 0);
});
