/**
 * A `getToken` that fetches a new token from `tokenUrl` (the body, trimmed); it rejects with an
 * Error saying what went wrong (HTTP status, empty body).
 * @param {string} tokenUrl
 * @param {typeof globalThis.fetch} [fetch]
 * @returns {() => Promise<string>}
 */
export function tokenFromUrl(tokenUrl: string, fetch?: typeof globalThis.fetch): () => Promise<string>;
