import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync, createGzip, constants } from 'node:zlib';
import { RecordingFormatError, Timeline, inFlightAt, parseRecording, preludeAt } from '../js/ui/recording_timeline.js';
import { gunzipText } from '../js/ui/gunzip.js';
import { formatSeconds } from '../js/ui/recordings.js';

const header = { type: 'recording', version: 1, room: 'demo', started: 1763935200123.4, part: 1 };
const VP = { width: 1024, height: 700 };
const command = (t, message, viewport = VP) => ({ type: 'command', t, time: 0, client: 'c1', role: 'presenter', viewport, message: JSON.stringify(message) });
const ended = (t, camera, id = 'a') => ({ type: 'animationEnded', t, time: 0, id, owner: 'c1', status: 'finished', camera });
const text = (...lines) => [header, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';

const PARIS = { lat: 48.85, lon: 2.35, zoom: 10.3, bearing: 0, tilt: 0 };
const ROME = { lat: 41.9, lon: 12.5, zoom: 9, bearing: 10, tilt: 20, padding: { top: 5, left: 0, bottom: 0, right: 0 } };
const fly = { type: 'fly', id: 'paris', camera: { lat: 48.85, lon: 2.35, zoom: 10.3 } };
const limits = { type: 'limits', minZoom: 3 };
const ease = { type: 'ease', id: 'rome', camera: { lat: 41.9, lon: 12.5, zoom: 9 }, duration: 1 };

/** A show: limits at 0.5 s, fly at 1 s (ends 2 s on PARIS), ease at 3 s (ends 4 s on ROME), set at 5 s. */
const show = () =>
  parseRecording(text(command(0.5, limits), command(1, fly), ended(2, PARIS, 'paris'), command(3, ease), ended(4, ROME, 'rome'),
    command(5, { type: 'set', camera: { zoom: 4 } }, { width: 800, height: 600 })));

test('parseRecording reads the header, each command with its message as an object, and the duration', () => {
  const r = show();
  assert.equal(r.room, 'demo');
  assert.equal(r.started, 1763935200123.4);
  assert.equal(r.part, 1);
  assert.equal(r.start, 0);
  assert.equal(r.entries.length, 6);
  assert.deepEqual(r.entries[1], { t: 1, kind: 'command', client: 'c1', viewport: VP, message: fly });
  assert.deepEqual(r.entries[2], { t: 2, kind: 'animationEnded', id: 'paris', owner: 'c1', camera: PARIS });
  assert.equal(r.duration, 5);
});

test('parseRecording names the line of a bad entry', () => {
  assert.throws(() => parseRecording(text(command(1, fly), { ...command(2, fly), t: -1 })),
    (e) => e instanceof RecordingFormatError && e.message === 'line 3: "t" must be seconds ≥ 0');
});

test('parseRecording refuses text without a recording header', () => {
  assert.throws(() => parseRecording('{"type":"command","t":1}\n'), /line 1: an entry before the recording header/);
  assert.throws(() => parseRecording(''), /no recording header/);
});

test('a last line cut short is dropped from a truncated recording and an error otherwise', () => {
  const cut = text(command(1, fly)) + '{"type":"comm';
  assert.equal(parseRecording(cut, { truncated: true }).entries.length, 1);
  assert.throws(() => parseRecording(cut), /line 3: not JSON/);
});

test('the prelude at T is the last limits before T and a set to the last camera an animation ended with before T', () => {
  const r = show();
  assert.deepEqual(preludeAt(r.entries, 3.5), [limits, { type: 'set', camera: PARIS }]);
});

test('the prelude leaves out the recorded camera\'s padding, as camhub replay does', () => {
  const [, set] = preludeAt(show().entries, 4.5);
  assert.deepEqual(set, { type: 'set', camera: { lat: 41.9, lon: 12.5, zoom: 9, bearing: 10, tilt: 20 } });
});

test('the prelude takes the animation that ended last by its time, not by where it was written', () => {
  // an end stamped 1.9 s is written after a command handled at 1.95 s
  const r = parseRecording(text(ended(1, ROME), command(1.95, fly), ended(1.9, PARIS), command(3, ease)));
  assert.deepEqual(preludeAt(r.entries, 2), [{ type: 'set', camera: PARIS }]);
});

test('the prelude at 0 is empty, and an entry exactly at T is not before T', () => {
  const r = show();
  assert.deepEqual(preludeAt(r.entries, 0), []);
  assert.deepEqual(preludeAt(r.entries, 2), [limits]);
});

test('playing sends each command once its time has come, after its sender\'s viewport when that changed', () => {
  const t = new Timeline(show());
  assert.deepEqual(t.play(10_000), []);
  assert.deepEqual(t.due(10_400), []);
  assert.deepEqual(t.due(10_500), [{ type: 'viewport', width: 1024, height: 700 }, limits]);
  assert.deepEqual(t.due(11_000), [fly], 'the same viewport is not declared again');
  assert.deepEqual(t.due(13_100), [ease]);
  assert.deepEqual(t.due(15_000), [{ type: 'viewport', width: 800, height: 600 }, { type: 'set', camera: { zoom: 4 } }]);
});

test('pause sends cancel and holds the position; play goes on from there', () => {
  const t = new Timeline(show());
  t.play(0);
  t.due(2200);
  assert.deepEqual(t.pause(2200), [{ type: 'cancel' }]);
  assert.equal(t.position(60_000), 2.2, 'paused: the position does not move');
  assert.deepEqual(t.due(60_000), [], 'nothing is sent while paused');
  assert.deepEqual(t.play(100_000), [], 'the fly ended before the pause: nothing to resume');
  assert.ok(Math.abs(t.position(100_700) - 2.9) < 1e-9);
  assert.deepEqual(t.due(100_799), []);
  assert.deepEqual(t.due(100_800), [ease], 'the ease at 3 s comes 0.8 s after the resume at 2.2 s');
});

test('play after a pause first sends the fly the pause cut, with the time it had left', () => {
  const t = new Timeline(show());
  t.play(0);
  t.due(1200);
  t.pause(1200);
  assert.deepEqual(t.play(100_000), [{ ...fly, duration: 0.8 }], 'the fly ended at 2 s: 0.8 s after the pause at 1.2 s');
  assert.equal(t.position(101_000), 2.2);
  assert.deepEqual(t.due(101_799), []);
  assert.deepEqual(t.due(101_800), [ease], 'the ease at 3 s comes 1.8 s after the resume at 1.2 s');
});

test('a seek after a pause resumes nothing: the seek set the camera', () => {
  const t = new Timeline(show());
  t.play(0);
  t.due(1200);
  t.pause(1200);
  t.seek(1.5, 2000);
  assert.deepEqual(t.play(3000), []);
});

test('inFlightAt leaves out what ended before T, animate, and animations without an id', () => {
  const animate = { type: 'animate', id: 'spin', to: { bearing: 90 }, duration: 2 };
  const anonymous = { type: 'ease', camera: { zoom: 3 }, duration: 5 };
  const flyBySpeed = { type: 'fly', id: 'far', camera: { lat: 10, lon: 10 }, speed: 1.2 };
  const r = parseRecording(text(command(0, animate), command(0, anonymous), ended(2, PARIS, 'spin'), ended(5, PARIS, '#1'),
    command(1, flyBySpeed), ended(4, ROME, 'far')));
  assert.deepEqual(inFlightAt(r.entries, 1.5).map((c) => c.message), [{ type: 'fly', id: 'far', camera: { lat: 10, lon: 10 }, duration: 2.5 }],
    'a fly given by speed is resumed by the duration it had left');
  assert.deepEqual(inFlightAt(r.entries, 4.5), []);
});

test('pause gives the page its own viewport back after a recorded one was declared', () => {
  const t = new Timeline(show(), { ownViewport: () => ({ width: 1280, height: 720 }) });
  t.play(0);
  t.due(600);
  assert.deepEqual(t.pause(600), [{ type: 'cancel' }, { type: 'viewport', width: 1280, height: 720 }]);
  t.play(1000);
  assert.deepEqual(t.due(1400), [{ type: 'viewport', width: 1024, height: 700 }, fly], 'declared again before the next command');
});

test('seek sends cancel and the prelude, and playing goes on with the commands from T', () => {
  const t = new Timeline(show());
  assert.deepEqual(t.seek(2.5, 0), [{ type: 'cancel' }, limits, { type: 'set', camera: PARIS }]);
  assert.equal(t.position(5000), 2.5);
  t.play(5000);
  assert.deepEqual(t.due(5499), []);
  assert.deepEqual(t.due(5500), [{ type: 'viewport', width: 1024, height: 700 }, ease]);
});

test('seek while playing moves the clock and keeps playing', () => {
  const t = new Timeline(show());
  t.play(0);
  t.due(3500);
  t.seek(0.8, 3500);
  assert.ok(t.playing);
  assert.deepEqual(t.due(3700), [fly], 'the fly at 1 s again, 0.2 s after seeking to 0.8 s');
});

test('seek is clamped to the recording', () => {
  const t = new Timeline(show());
  t.seek(99, 0);
  assert.equal(t.position(0), 5);
  t.seek(-3, 0);
  assert.equal(t.position(0), 0);
});

test('at the end the clock stops and the page\'s viewport is declared again; play starts over', () => {
  const t = new Timeline(show(), { ownViewport: () => ({ width: 1280, height: 720 }) });
  t.play(0);
  const out = t.due(9000);
  assert.deepEqual(out.at(-1), { type: 'viewport', width: 1280, height: 720 });
  assert.equal(t.playing, false);
  assert.equal(t.position(20_000), 5);
  assert.deepEqual(t.play(20_000), [{ type: 'cancel' }], 'from the start again: the prelude at 0 is empty');
  assert.equal(t.position(20_000), 0);
});

test('a later part plays from its first entry: t counts from the room\'s first entry in every part', () => {
  const lines = [{ ...header, part: 2 }, command(3600.5, fly), ended(3601.5, PARIS, 'paris')].map((l) => JSON.stringify(l)).join('\n');
  const t = new Timeline(parseRecording(lines));
  assert.equal(t.start, 3600.5);
  assert.equal(t.position(0), 3600.5);
  assert.deepEqual(t.play(0), [{ type: 'viewport', width: 1024, height: 700 }, fly], 'its first command at once, not in an hour');
  t.seek(10, 0);
  assert.equal(t.position(0), 3600.5, 'a seek is clamped to the part');
});

test('a recorded gesture is sent without its seq (the hub would acknowledge it to this page)', () => {
  const g = { type: 'gesture', kind: 'pan', phase: 'begin', x: 10, y: 20, t: 0, seq: 7 };
  const t = new Timeline(parseRecording(text(command(0, g))));
  const sent = t.play(0);
  assert.deepEqual(sent[1], { type: 'gesture', kind: 'pan', phase: 'begin', x: 10, y: 20, t: 0 });
});

test('gunzipText reads a whole gzip file', async () => {
  const lines = text(command(1, fly));
  assert.deepEqual(await gunzipText(new Uint8Array(gzipSync(lines))), { text: lines, truncated: false });
});

test('gunzipText reads a part still being written up to its last flush, and says it was cut', async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify(command(i / 10, fly))).join('\n') + '\n';
  const gz = createGzip();
  const out = [];
  gz.on('data', (d) => out.push(d));
  gz.write(lines);
  await new Promise((resolve) => gz.flush(constants.Z_SYNC_FLUSH, resolve));
  const r = await gunzipText(new Uint8Array(Buffer.concat(out)));
  assert.equal(r.truncated, true);
  assert.equal(r.text, lines);
  gz.destroy();
});

test('formatSeconds shows minutes and tenths', () => {
  assert.equal(formatSeconds(0), '0:00.0');
  assert.equal(formatSeconds(65.34), '1:05.3');
});
