import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refreshToken } from '../src/net/token_refresh.js';
import { parseMessage } from '../src/protocol/messages.js';

const fetchGiving = (status, body) => async (url, init) => {
  fetchGiving.last = { url, init };
  return { ok: status >= 200 && status < 300, status, text: async () => body };
};

test('a new token is fetched from tokenUrl on the page\'s origin and sent with refresh', async () => {
  const sent = [];
  const token = await refreshToken({ tokenUrl: '/auth/t', fetch: fetchGiving(200, ' new.to.ken\n'), send: (m) => sent.push(m) > 0 });
  assert.equal(token, 'new.to.ken');
  assert.deepEqual(sent, [{ type: 'refresh', token: 'new.to.ken' }]);
  assert.equal(fetchGiving.last.url, '/auth/t');
  assert.equal(fetchGiving.last.init.credentials, 'same-origin');
});

test('a failed fetch, an empty token or a closed connection is an error that says which', async () => {
  const send = () => true;
  await assert.rejects(refreshToken({ tokenUrl: '/t', fetch: fetchGiving(403, 'no'), send }), /\/t answered HTTP 403/);
  await assert.rejects(refreshToken({ tokenUrl: '/t', fetch: fetchGiving(200, '  '), send }), /empty token/);
  await assert.rejects(refreshToken({ tokenUrl: '/t', fetch: fetchGiving(200, 'x.y.z'), send: () => false }), /not connected/);
});

test('tokenExpiring and tokenRefreshed are hub messages the page reads', () => {
  assert.equal(parseMessage('{"type":"tokenExpiring","exp":1718000060}').exp, 1718000060);
  assert.equal(parseMessage('{"type":"tokenRefreshed","exp":1718003600.5}').type, 'tokenRefreshed');
  assert.throws(() => parseMessage('{"type":"tokenExpiring"}'), /exp/);
});
