// The story caption, pure: what everyone reads of the room's step, and which
// of the stepper's buttons apply; who may step; a step made from the view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storyCaption, mayStep, stepFromView, STEP_KEYS } from '../js/story/caption.js';
import { validateStep } from '../../clients/js/src/protocol/story.js';

const story = (index, extra = {}) => ({ count: 8, index, title: 'Porto', notes: 'Bridges.\nWine.', playing: false, drivers: false, ...extra });

test('a follower reads the step it is on: progress, title and notes', () => {
  assert.deepEqual(storyCaption(story(2), false), {
    progress: 'Step 3 of 8', title: 'Porto', notes: 'Bridges.\nWine.', playing: false, previous: true, next: true });
});

test('nothing is shown without a storyboard, nor to a follower before the first step', () => {
  assert.equal(storyCaption(null, true), null);
  assert.equal(storyCaption({ ...story(null), count: 0 }, true), null);
  assert.equal(storyCaption(story(null), false), null);
});

test('a presenter before the first step sees the length and may only go on', () => {
  const caption = storyCaption({ ...story(null), title: null, notes: null }, true);
  assert.equal(caption.progress, '8 steps');
  assert.equal(caption.previous, false);
  assert.equal(caption.next, true);
});

test('on the last step there is no next, on the first no previous', () => {
  assert.equal(storyCaption(story(7), true).next, false);
  assert.equal(storyCaption(story(0), true).previous, false);
});

test('presenters step, drivers only where allowed, followers never', () => {
  assert.equal(mayStep('presenter', story(0)), true);
  assert.equal(mayStep('driver', story(0)), false);
  assert.equal(mayStep('driver', story(0, { drivers: true })), true);
  assert.equal(mayStep('follower', story(0, { drivers: true })), false);
});

test('a clicker\'s keys step: → and Page Down go on, ← and Page Up back', () => {
  assert.deepEqual({ ...STEP_KEYS }, { ArrowRight: 'next', PageDown: 'next', ArrowLeft: 'previous', PageUp: 'previous' });
});

test('the view on screen becomes a step the hub takes, with every field of the camera', () => {
  const step = stepFromView({ lat: 41.15, lon: -8.61, zoom: 12, bearing: 30, tilt: 60, roll: -5, elevation: 80, fov: 40, anchor: null }, 'Porto', 3);
  assert.deepEqual(step, { camera: { lat: 41.15, lon: -8.61, zoom: 12, bearing: 30, tilt: 60, roll: -5, elevation: 80, fov: 40 }, title: 'Porto', hold: 3 });
  assert.deepEqual(validateStep(step), step);
  assert.deepEqual(stepFromView({ lat: 1, lon: 2, zoom: 3 }, '', undefined), { camera: { lat: 1, lon: 2, zoom: 3 } });
});
