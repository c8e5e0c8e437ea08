import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenFromUrl } from '../src/net/token_refresh.js';
import { parseMessage } from '../src/protocol/messages.js';

const fetchGiving = (status, body) => async (url, init) => {
  fetchGiving.last = { url, init };
  return { ok: status >= 200 && status < 300, status, text: async () => body };
};

test('a new token is fetched from tokenUrl on the page\'s origin', async () => {
  const token = await tokenFromUrl('/auth/t', fetchGiving(200, ' new.to.ken\n'))();
  assert.equal(token, 'new.to.ken');
  assert.equal(fetchGiving.last.url, '/auth/t');
  assert.equal(fetchGiving.last.init.credentials, 'same-origin');
});

test('a failed fetch or an empty token is an error that says which', async () => {
  await assert.rejects(tokenFromUrl('/t', fetchGiving(403, 'no'))(), /\/t answered HTTP 403/);
  await assert.rejects(tokenFromUrl('/t', fetchGiving(200, '  '))(), /empty token/);
});

test('tokenExpiring and tokenRefreshed are hub messages the page reads', () => {
  assert.equal(parseMessage('{"type":"tokenExpiring","exp":1718000060}').exp, 1718000060);
  assert.equal(parseMessage('{"type":"tokenRefreshed","exp":1718003600.5}').type, 'tokenRefreshed');
  assert.throws(() => parseMessage('{"type":"tokenExpiring"}'), /exp/);
});
