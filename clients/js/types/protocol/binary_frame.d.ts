/**
 * Reads one binary frame into the object the JSON frame parses to
 * (`{type: 'frame', seq, time, camera, moving, by, corner?, epoch?, velocity?, pointer?}`).
 * Throws a ProtocolError (code 'binary') naming the field that does not fit.
 * @param {ArrayBuffer|ArrayBufferView} data
 * @returns {any}
 */
export function decodeBinaryFrame(data: ArrayBuffer | ArrayBufferView): any;
export const BINARY_FRAME_KIND: 1;
/** The kind of a frame whose camera has roll, elevation or fov (or whose velocity has their rates). */
export const BINARY_FRAME_3D_KIND: 2;
