// The binary frame decoder on bytes laid out by hand (docs/PROTOCOL.md, "Binary frames").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBinaryFrame, parseMessage, ProtocolError } from '../src/index.js';

/** seq 42, moving, with velocity (float32), by "c3", and with `pointer` a pointer shown by "c1". */
function frameBytes({ flags = 0x05, pointer = false } = {}) {
  const size = 58 + 20 + 4 + (pointer ? 16 + 4 : 0);
  const view = new DataView(new ArrayBuffer(size));
  let at = 0;
  view.setUint8(at++, 1);
  view.setUint8(at++, flags | (pointer ? 0x40 : 0));
  view.setBigUint64(at, 42n, true); at += 8;
  view.setFloat64(at, 1718000000123.456, true); at += 8;
  for (const x of [48.8566, 2.3522, 12, 30, 45]) { view.setFloat64(at, x, true); at += 8; }
  for (const v of [0, 0.0125, 0.5, 0, 0]) { view.setFloat32(at, v, true); at += 4; }
  view.setUint16(at, 2, true); at += 2;
  view.setUint8(at++, 0x63); view.setUint8(at++, 0x33); // "c3"
  if (pointer) {
    view.setFloat64(at, 48.8584, true); at += 8;
    view.setFloat64(at, 2.2945, true); at += 8;
    view.setUint16(at, 2, true); at += 2;
    view.setUint8(at++, 0x63); view.setUint8(at++, 0x31); // "c1"
  }
  return view.buffer;
}

test('a binary frame reads as the JSON frame would', () => {
  const m = parseMessage(frameBytes({ pointer: true }));
  assert.deepEqual(m, {
    type: 'frame', seq: 42, time: 1718000000123.456,
    camera: { lat: 48.8566, lon: 2.3522, zoom: 12, bearing: 30, tilt: 45 },
    moving: true, velocity: { lat: 0, lon: Math.fround(0.0125), zoom: 0.5, bearing: 0, tilt: 0 }, by: 'c3',
    pointer: { lat: 48.8584, lon: 2.2945, by: 'c1' },
  });
});

test('a typed array view over the bytes reads the same', () => {
  const bytes = new Uint8Array(frameBytes());
  const padded = new Uint8Array(bytes.length + 3);
  padded.set(bytes, 3);
  assert.deepEqual(decodeBinaryFrame(padded.subarray(3)), decodeBinaryFrame(bytes.buffer));
});

test('a truncated frame is refused naming the field it ends in', () => {
  const bytes = new Uint8Array(frameBytes()).slice(0, 38);
  assert.throws(() => decodeBinaryFrame(bytes), (e) => e instanceof ProtocolError && e.code === 'binary'
    && e.message === 'binary frame: camera.zoom needs 8 bytes at offset 34, 4 left');
});

test('bytes after the last field and an unknown kind are refused', () => {
  const longer = new Uint8Array(new Uint8Array(frameBytes()).length + 1);
  longer.set(new Uint8Array(frameBytes()));
  assert.throws(() => decodeBinaryFrame(longer), /1 bytes after its last field/);
  const other = new Uint8Array(frameBytes());
  other[0] = 7;
  assert.throws(() => decodeBinaryFrame(other), /binary message of kind 7: only 1 \(frame\) exists/);
});
