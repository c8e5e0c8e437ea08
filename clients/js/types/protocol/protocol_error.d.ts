export class ProtocolError extends Error {
    /**
     * @param {string} message
     * @param {{code?: string, raw?: string|ArrayBuffer|ArrayBufferView}} options
     */
    constructor(message: string, { code, raw }?: {
        code?: string;
        raw?: string | ArrayBuffer | ArrayBufferView;
    });
    code: string;
    raw: string | ArrayBuffer | ArrayBufferView;
}
