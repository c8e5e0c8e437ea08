// Keeping a signed token alive for the whole session: when the hub says the
// token expires soon (`tokenExpiring`), the page fetches a new one from its
// `tokenUrl` (on its own origin) and sends it with `refresh` (docs/PROTOCOL.md).

import { build } from '../protocol/messages.js';

/**
 * Fetches a new token from `tokenUrl` (its body, trimmed) and sends `refresh` with it.
 * Resolves with the new token (the caller keeps it for the next hello); rejects with an
 * Error saying what went wrong (HTTP status, empty body, not sent).
 * @param {{tokenUrl: string, fetch: typeof globalThis.fetch, send: (message: object) => boolean}} o
 * @returns {Promise<string>}
 */
export async function refreshToken({ tokenUrl, fetch, send }) {
  const response = await fetch(tokenUrl, { credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) throw new Error(`${tokenUrl} answered HTTP ${response.status}`);
  const token = (await response.text()).trim();
  if (!token) throw new Error(`${tokenUrl} gave an empty token`);
  if (!send(build.refresh(token))) throw new Error('not connected: the token was not sent');
  return token;
}
