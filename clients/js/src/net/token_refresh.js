// Tokens from a URL: a page whose backend hands out signed tokens (on the page's
// own origin) gets a new one with `tokenFromUrl(url)`, a `getToken` for
// `connect()`: the room fetches one when the hub says the token expires soon
// (`tokenExpiring`) and sends it with `refresh` (docs/PROTOCOL.md).

/**
 * A `getToken` that fetches a new token from `tokenUrl` (the body, trimmed); it rejects with an
 * Error saying what went wrong (HTTP status, empty body).
 * @param {string} tokenUrl
 * @param {typeof globalThis.fetch} [fetch]
 * @returns {() => Promise<string>}
 */
export function tokenFromUrl(tokenUrl, fetch = globalThis.fetch.bind(globalThis)) {
  return async () => {
    const response = await fetch(tokenUrl, { credentials: 'same-origin', cache: 'no-store' });
    if (!response.ok) throw new Error(`${tokenUrl} answered HTTP ${response.status}`);
    const token = (await response.text()).trim();
    if (!token) throw new Error(`${tokenUrl} gave an empty token`);
    return token;
  };
}
