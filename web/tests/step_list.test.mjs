// The storyboard panel's list logic, pure: which rows a new storyboard keeps,
// the `move` a drag or a button asks for, the step an in-place edit sends, and
// the key a thumbnail is kept under.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cameraKey, diffSteps, dropMove, shiftMove, editedStep } from '../js/story/step_list.js';

const lisbon = { camera: { lat: 38.72, lon: -9.14, zoom: 11 }, title: 'Lisbon' };
const porto = { camera: { lat: 41.15, lon: -8.61, zoom: 12, bearing: 30 }, title: 'Porto' };
const madrid = { camera: { lat: 40.42, lon: -3.7, zoom: 10 }, via: 'jump', title: 'Madrid' };

test('an unchanged storyboard keeps every row', () => {
  assert.deepEqual(diffSteps([lisbon, porto, madrid], [lisbon, porto, madrid]), { rows: [0, 1, 2], removed: [] });
});

test('a moved step keeps its row at its new place', () => {
  assert.deepEqual(diffSteps([lisbon, porto, madrid], [madrid, lisbon, porto]), { rows: [2, 0, 1], removed: [] });
});

test('an edited step gets a new row and its old row goes', () => {
  const renamed = { ...porto, title: 'Porto & the Douro' };
  assert.deepEqual(diffSteps([lisbon, porto, madrid], [lisbon, renamed, madrid]), { rows: [0, null, 2], removed: [1] });
});

test('equal steps each keep one row, in order', () => {
  assert.deepEqual(diffSteps([lisbon, lisbon, porto], [lisbon, porto, lisbon, lisbon]), { rows: [0, 2, 1, null], removed: [] });
});

test('a cleared storyboard removes every row', () => {
  assert.deepEqual(diffSteps([lisbon, porto], []), { rows: [], removed: [0, 1] });
});

test('a row dropped further down moves to just before the drop point', () => {
  assert.deepEqual(dropMove(0, 3, 4), { from: 0, to: 2 });
  assert.deepEqual(dropMove(0, 4, 4), { from: 0, to: 3 }, 'after the last row');
});

test('a row dropped further up moves to the drop point', () => {
  assert.deepEqual(dropMove(3, 1, 4), { from: 3, to: 1 });
  assert.deepEqual(dropMove(3, 0, 4), { from: 3, to: 0 });
});

test('a row dropped on itself or just after itself does not move', () => {
  assert.equal(dropMove(2, 2, 4), null);
  assert.equal(dropMove(2, 3, 4), null);
});

test('a drop outside the list moves nothing', () => {
  assert.equal(dropMove(1, 5, 4), null);
  assert.equal(dropMove(4, 0, 4), null);
  assert.equal(dropMove(1, -1, 4), null);
});

test('move up and move down shift a step by one, not past either end', () => {
  assert.deepEqual(shiftMove(2, -1, 4), { from: 2, to: 1 });
  assert.deepEqual(shiftMove(2, 1, 4), { from: 2, to: 3 });
  assert.equal(shiftMove(0, -1, 4), null);
  assert.equal(shiftMove(3, 1, 4), null);
});

test('an edited title is the step with the new title on one line', () => {
  assert.deepEqual(editedStep(porto, 'title', '  Porto,\n the bridges '), { ...porto, title: 'Porto, the bridges' });
});

test('edited notes keep their new lines', () => {
  assert.deepEqual(editedStep(porto, 'notes', 'Bridges.\nWine.\n'), { ...porto, notes: 'Bridges.\nWine.' });
});

test('an emptied title removes it from the step', () => {
  assert.deepEqual(editedStep(porto, 'title', '   '), { camera: porto.camera });
});

test('an edit that changes nothing sends nothing', () => {
  assert.equal(editedStep(porto, 'title', 'Porto'), null);
  assert.equal(editedStep(porto, 'notes', ''), null);
});

test('cameras with the same view share a key, whatever defaults they spell out', () => {
  assert.equal(cameraKey({ lat: 1, lon: 2, zoom: 3 }), cameraKey({ lat: 1, lon: 2, zoom: 3, bearing: 0, tilt: 0, roll: 0, elevation: 0 }));
  assert.notEqual(cameraKey({ lat: 1, lon: 2, zoom: 3 }), cameraKey({ lat: 1, lon: 2, zoom: 3, bearing: 1e-9 }));
});
