// Thumbnails of storyboard steps, the bookkeeping: one render at a time, in
// the order asked, each camera rendered once, stale requests dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ThumbnailQueue } from '../js/story/thumbnail_queue.js';

/** A render whose pictures come when the test says: `renders` lists the cameras asked, `finish(i)` answers one. */
function controlledRender() {
  const calls = [];
  const render = (camera) => new Promise((resolve, reject) => calls.push({ camera, resolve, reject }));
  return { calls, render };
}

const settle = () => new Promise((r) => setImmediate(r));

test('one render runs at a time, in the order the thumbnails were asked for', async () => {
  const { calls, render } = controlledRender();
  const queue = new ThumbnailQueue({ render });
  const shown = [];
  for (const k of ['a', 'b', 'c']) queue.request(k, { k }, (url) => shown.push([k, url]));
  await settle();
  assert.equal(calls.length, 1, 'the second waits for the first');
  assert.equal(queue.pending, 2);
  calls[0].resolve('data:a');
  await settle();
  assert.deepEqual(shown, [['a', 'data:a']]);
  assert.deepEqual(calls.map((c) => c.camera.k), ['a', 'b']);
  calls[1].resolve('data:b');
  await settle();
  calls[2].resolve('data:c');
  await settle();
  assert.deepEqual(shown.map(([k]) => k), ['a', 'b', 'c']);
  assert.equal(queue.renders, 3);
});

test('a camera rendered before is shown at once without rendering again', async () => {
  const { calls, render } = controlledRender();
  const queue = new ThumbnailQueue({ render });
  queue.request('a', {}, () => {});
  await settle();
  calls[0].resolve('data:a');
  await settle();
  let url = null;
  queue.request('a', {}, (u) => { url = u; });
  assert.equal(url, 'data:a');
  assert.equal(queue.renders, 1);
});

test('two rows asking for the same camera share one render', async () => {
  const { calls, render } = controlledRender();
  const queue = new ThumbnailQueue({ render });
  const shown = [];
  queue.request('a', {}, (u) => shown.push(u));
  await settle();
  queue.request('a', {}, (u) => shown.push(u)); // while it renders
  calls[0].resolve('data:a');
  await settle();
  assert.deepEqual(shown, ['data:a', 'data:a']);
  assert.equal(calls.length, 1);
});

test('requests no row wants any more are dropped before they start', async () => {
  const { calls, render } = controlledRender();
  const queue = new ThumbnailQueue({ render });
  for (const k of ['a', 'b', 'c']) queue.request(k, { k }, () => {});
  queue.retain(new Set(['c']));
  await settle();
  calls[0].resolve('data:a'); // already running: it finishes
  await settle();
  assert.deepEqual(calls.map((c) => c.camera.k), ['a', 'c']);
});

test('a failed render shows nothing, is counted, and the next one runs', async () => {
  const { calls, render } = controlledRender();
  const queue = new ThumbnailQueue({ render });
  const shown = [];
  queue.request('a', {}, (u) => shown.push(u));
  queue.request('b', {}, (u) => shown.push(u));
  await settle();
  calls[0].reject(new Error('no WebGL'));
  await settle();
  assert.equal(queue.failures, 1);
  calls[1].resolve('data:b');
  await settle();
  assert.deepEqual(shown, ['data:b']);
});

test('at most `capacity` thumbnails are kept, the least recently used going first', async () => {
  const { calls, render } = controlledRender();
  const queue = new ThumbnailQueue({ render, capacity: 2 });
  for (const k of ['a', 'b']) {
    queue.request(k, {}, () => {});
    await settle();
    calls.at(-1).resolve(`data:${k}`);
    await settle();
  }
  queue.request('a', {}, () => {}); // a is now the most recently used
  queue.request('c', {}, () => {});
  await settle();
  calls.at(-1).resolve('data:c');
  await settle();
  assert.deepEqual([...queue.done.keys()], ['a', 'c']);
});
