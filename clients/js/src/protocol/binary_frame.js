// The binary `frame` (docs/PROTOCOL.md, "Binary frames"): what a client that
// said `encoding: "binary"` in its hello gets instead of the JSON frame. Every
// other message stays JSON text. Little-endian; doubles are the hub's IEEE 754
// bits, so the camera read here is the hub's to the bit, as from the JSON.
//
// Kind 1, a camera without roll, elevation or fov (all at their defaults) and a
// velocity without their rates:
//
//   0  u8   kind: 1 (frame)
//   1  u8   flags: 0x01 moving, 0x02 corner, 0x04 velocity, 0x08 anchor, 0x10 padding,
//           0x20 epoch, 0x40 pointer shown, 0x80 pointer hidden
//   2  u64  seq
//  10  f64  time (ms since the Unix epoch)
//  18  f64  ×5 camera: lat, lon, zoom, bearing, tilt
//  58  then, each only with its flag: anchor x, y (f64); padding top, left, bottom, right (f64);
//      epoch (u64); velocity lat, lon, zoom, bearing, tilt per second (f32)
//      by: u16 length (0xFFFF: null) + UTF-8; pointer (0x40): lat, lon (f64), by (u16 length + UTF-8)
//
// Kind 2, sent when the camera has a roll, elevation or fov not at its default
// or the velocity a non-zero rate of one of them:
//
//   0  u8   kind: 2
//   1  u8   flags: as kind 1
//   2  u8   3D flags: 0x01 roll, 0x02 elevation, 0x04 fov
//   3  u64  seq
//  11  f64  time
//  19  f64  ×5 camera: lat, lon, zoom, bearing, tilt
//  59  then roll (degrees), elevation (m), fov (degrees) (f64), each only with its 3D flag;
//      then as kind 1 (anchor, padding, epoch, velocity, by, pointer) except that the
//      velocity (0x04) is 8 f32: lat, lon, zoom, bearing, tilt, roll (deg/s),
//      elevation (m/s), fov (deg/s) per second
//
// Both read into the object the JSON frame parses to: roll, elevation and fov
// are on the camera only with their 3D flag, the velocity's roll, elevation and
// fov rates only when not zero (absent: 0), as in JSON.

import { ProtocolError } from './protocol_error.js';

export const BINARY_FRAME_KIND = 1;
/** The kind of a frame whose camera has roll, elevation or fov (or whose velocity has their rates). */
export const BINARY_FRAME_3D_KIND = 2;
/** @type {Array<[number, string]>} 3D flag bits and the fields they bring, in their order. */
const FLAGS_3D = [[0x01, 'roll'], [0x02, 'elevation'], [0x04, 'fov']];
const NULL_LENGTH = 0xffff;
const utf8 = new TextDecoder();

/**
 * Reads one binary frame into the object the JSON frame parses to
 * (`{type: 'frame', seq, time, camera, moving, by, corner?, epoch?, velocity?, pointer?}`).
 * Throws a ProtocolError (code 'binary') naming the field that does not fit.
 * @param {ArrayBuffer|ArrayBufferView} data
 * @returns {any}
 */
export function decodeBinaryFrame(data) {
  const view = ArrayBuffer.isView(data)
    ? new DataView(data.buffer, data.byteOffset, data.byteLength)
    : new DataView(data);
  let at = 0;
  const need = (n, field) => {
    if (at + n > view.byteLength) {
      throw new ProtocolError(`binary frame: ${field} needs ${n} bytes at offset ${at}, ${view.byteLength - at} left`,
        { code: 'binary', raw: data });
    }
    const start = at;
    at += n;
    return start;
  };
  const u8 = (field) => view.getUint8(need(1, field));
  const f64 = (field) => view.getFloat64(need(8, field), true);
  const f32 = (field) => view.getFloat32(need(4, field), true);
  const u64 = (field) => Number(view.getBigUint64(need(8, field), true));
  const text = (field) => {
    const length = view.getUint16(need(2, `${field} length`), true);
    if (length === NULL_LENGTH) return null;
    const start = need(length, field);
    return utf8.decode(new Uint8Array(view.buffer, view.byteOffset + start, length));
  };

  const kind = u8('kind');
  if (kind !== BINARY_FRAME_KIND && kind !== BINARY_FRAME_3D_KIND) {
    throw new ProtocolError(`binary message of kind ${kind}: only ${BINARY_FRAME_KIND} (frame) and ${BINARY_FRAME_3D_KIND} `
      + '(frame with roll, elevation or fov) exist', { code: 'binary', raw: data });
  }
  const flags = u8('flags');
  const flags3D = kind === BINARY_FRAME_3D_KIND ? u8('3D flags') : 0;
  if (flags3D & ~0x07) {
    throw new ProtocolError(`binary frame: unknown 3D flags 0x${(flags3D & ~0x07).toString(16).padStart(2, '0')}`,
      { code: 'binary', raw: data });
  }
  const m = { type: 'frame', seq: u64('seq'), time: f64('time') };
  /** @type {any} */
  const camera = { lat: f64('camera.lat'), lon: f64('camera.lon'), zoom: f64('camera.zoom'),
    bearing: f64('camera.bearing'), tilt: f64('camera.tilt') };
  for (const [bit, name] of FLAGS_3D) if (flags3D & bit) camera[name] = f64(`camera.${name}`);
  if (flags & 0x08) camera.anchor = { x: f64('anchor.x'), y: f64('anchor.y') };
  if (flags & 0x10) {
    camera.padding = { top: f64('padding.top'), left: f64('padding.left'), bottom: f64('padding.bottom'),
      right: f64('padding.right') };
  }
  m.camera = camera;
  m.moving = (flags & 0x01) !== 0;
  if (flags & 0x20) m.epoch = u64('epoch');
  if (flags & 0x04) {
    /** @type {any} */
    const velocity = { lat: f32('velocity.lat'), lon: f32('velocity.lon'), zoom: f32('velocity.zoom'),
      bearing: f32('velocity.bearing'), tilt: f32('velocity.tilt') };
    if (kind === BINARY_FRAME_3D_KIND) {
      for (const [, name] of FLAGS_3D) {
        const rate = f32(`velocity.${name}`);
        if (rate !== 0) velocity[name] = rate;
      }
    }
    m.velocity = velocity;
  }
  m.by = text('by');
  if (flags & 0x02) m.corner = true;
  if (flags & 0x40) {
    const lat = f64('pointer.lat');
    const lon = f64('pointer.lon');
    m.pointer = { lat, lon, by: text('pointer.by') };
  } else if (flags & 0x80) {
    m.pointer = null;
  }
  if (at !== view.byteLength) {
    throw new ProtocolError(`binary frame: ${view.byteLength - at} bytes after its last field`, { code: 'binary', raw: data });
  }
  return m;
}
