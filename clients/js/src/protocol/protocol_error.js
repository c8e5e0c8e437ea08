// A hub message that is not what the protocol says (docs/PROTOCOL.md).

export class ProtocolError extends Error {
  /**
   * @param {string} message
   * @param {{code?: string, raw?: string|ArrayBuffer|ArrayBufferView}} options
   */
  constructor(message, { code = 'invalid', raw } = {}) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code; // 'json' | 'binary' | 'invalid' | 'unknown-type'
    this.raw = raw;
  }
}
