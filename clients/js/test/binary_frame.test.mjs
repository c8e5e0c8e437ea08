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
  assert.throws(() => decodeBinaryFrame(other),
    /binary message of kind 7: only 1 \(frame\) and 2 \(frame with roll, elevation or fov\) exist/);
});

/** Bytes laid out one field after another: [kind, value] pairs (u8, u16, u64, f64, f32, utf8). */
function bytes(fields) {
  const size = fields.reduce((n, [k, v]) => n + ({ u8: 1, u16: 2, u64: 8, f64: 8, f32: 4 }[k] ?? new TextEncoder().encode(v).length), 0);
  const view = new DataView(new ArrayBuffer(size));
  let at = 0;
  for (const [k, v] of fields) {
    if (k === 'u8') view.setUint8(at++, v);
    else if (k === 'u16') { view.setUint16(at, v, true); at += 2; }
    else if (k === 'u64') { view.setBigUint64(at, BigInt(v), true); at += 8; }
    else if (k === 'f64') { view.setFloat64(at, v, true); at += 8; }
    else if (k === 'f32') { view.setFloat32(at, v, true); at += 4; }
    else for (const b of new TextEncoder().encode(v)) view.setUint8(at++, b);
  }
  return view.buffer;
}

const ROLL = 0.1 + 0.2; // 0.30000000000000004: not a float32, not a short decimal
const FOV = 36.86989764584402 * 0.75;

/** Kind 2: moving, velocity, anchor, epoch; roll and fov (3D flags 0x05); by "c3". */
function frame3D({ flags3D = 0x05, rates = [-2.5, 0, 0.75] } = {}) {
  const camera = [48.8566, 2.3522, 12, 30, 80].map((x) => ['f64', x]);
  const extra = [];
  if (flags3D & 0x01) extra.push(['f64', ROLL]);
  if (flags3D & 0x02) extra.push(['f64', -432.125]);
  if (flags3D & 0x04) extra.push(['f64', FOV]);
  return bytes([
    ['u8', 2], ['u8', 0x01 | 0x04 | 0x08 | 0x20], ['u8', flags3D], ['u64', 42], ['f64', 1718000000123.456],
    ...camera, ...extra,
    ['f64', 0.5], ['f64', 0.8], // anchor
    ['u64', 3], // epoch
    ...[0, 0.0125, 0.5, 0, 1.5, ...rates].map((v) => ['f32', v]),
    ['u16', 2], ['utf8', 'c3'],
  ]);
}

test('a kind 2 frame reads roll, elevation and fov on the camera and their rates on the velocity', () => {
  const m = parseMessage(frame3D());
  assert.deepEqual(m, {
    type: 'frame', seq: 42, time: 1718000000123.456,
    camera: { lat: 48.8566, lon: 2.3522, zoom: 12, bearing: 30, tilt: 80, roll: ROLL, fov: FOV, anchor: { x: 0.5, y: 0.8 } },
    moving: true, epoch: 3,
    velocity: { lat: 0, lon: Math.fround(0.0125), zoom: 0.5, bearing: 0, tilt: 1.5, roll: -2.5, fov: 0.75 }, by: 'c3',
  });
  assert.ok(Object.is(m.camera.roll, ROLL) && Object.is(m.camera.fov, FOV), 'the doubles to the bit');
  assert.equal('elevation' in m.camera, false, 'no 3D flag 0x02: no elevation');
  assert.equal('elevation' in m.velocity, false, 'a zero rate is left out, as in JSON');
});

test('a kind 2 frame reads as the JSON frame with the same fields would', () => {
  const json = JSON.stringify({
    type: 'frame', seq: 42, time: 1718000000123.456,
    camera: { lat: 48.8566, lon: 2.3522, zoom: 12, bearing: 30, tilt: 80, roll: ROLL, elevation: -432.125, fov: FOV,
      anchor: { x: 0.5, y: 0.8 } },
    moving: true, by: 'c3', epoch: 3,
    velocity: { lat: 0, lon: Math.fround(0.0125), zoom: 0.5, bearing: 0, tilt: 1.5, elevation: 12.25 },
  });
  assert.deepEqual(parseMessage(frame3D({ flags3D: 0x07, rates: [0, 12.25, 0] })), parseMessage(json));
});

test('a kind 2 frame of a flat camera carries only the velocity\'s new rates', () => {
  const m = decodeBinaryFrame(frame3D({ flags3D: 0, rates: [0, 3, 0] }));
  assert.deepEqual(m.camera, { lat: 48.8566, lon: 2.3522, zoom: 12, bearing: 30, tilt: 80, anchor: { x: 0.5, y: 0.8 } });
  assert.deepEqual(m.velocity, { lat: 0, lon: Math.fround(0.0125), zoom: 0.5, bearing: 0, tilt: 1.5, elevation: 3 });
});

test('a truncated kind 2 frame names its field; unknown 3D flags are refused', () => {
  const cut = new Uint8Array(frame3D()).slice(0, 59 + 8 + 4);
  assert.throws(() => decodeBinaryFrame(cut), (e) => e instanceof ProtocolError && e.code === 'binary'
    && e.message === 'binary frame: camera.fov needs 8 bytes at offset 67, 4 left');
  const velocityCut = new Uint8Array(frame3D()).slice(0, 59 + 16 + 16 + 8 + 28 + 2);
  assert.throws(() => decodeBinaryFrame(velocityCut), /binary frame: velocity.fov needs 4 bytes at offset \d+, 2 left/);
  const unknown = new Uint8Array(frame3D());
  unknown[2] = 0x0d;
  assert.throws(() => decodeBinaryFrame(unknown), /binary frame: unknown 3D flags 0x08/);
  const kind1 = new Uint8Array(frame3D());
  kind1[0] = 1; // the same bytes read as kind 1 do not fit
  assert.throws(() => decodeBinaryFrame(kind1), (e) => e instanceof ProtocolError && e.code === 'binary');
});
