// The client library's sessions against real hubs: it comes back after a hub
// restarts (close 1012), keeps its token alive with getToken, joins again with a
// new token after a revocation, and stays out after the server API removed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, CamHubError } from '../src/index.js';
import { startHub, next, ROOT } from './support/hub.mjs';

const SECRET = 'a loopback test secret, 32 bytes or more';
const binary = process.env.CAMHUB ?? join(ROOT, '.build', 'debug', 'camhub');

/** A hub with a token secret, a revoked-ids file and an API key: {hub, token(ttl, jti), revoke(jti), apiKey, done}. */
async function securedHub() {
  const dir = mkdtempSync(join(tmpdir(), 'camhub-js-'));
  const secret = join(dir, 'secret');
  const revoked = join(dir, 'revoked');
  const keys = join(dir, 'api-keys');
  writeFileSync(secret, SECRET);
  writeFileSync(revoked, '');
  writeFileSync(keys, 'test-key\n');
  const hub = await startHub(['--token-secret-file', secret, '--revoked-file', revoked, '--api-key-file', keys]);
  return {
    hub,
    apiKey: 'test-key',
    token: (ttl, jti) => execFileSync(binary, ['token', '--secret-file', secret, '--room', 'demo', '--role', 'driver',
      '--ttl', ttl, ...(jti ? ['--jti', jti] : [])], { encoding: 'utf8' }).trim(),
    revoke: (jti) => {
      writeFileSync(revoked, `${jti}\n`);
      hub.proc.kill('SIGHUP');
    },
    done: async () => {
      await hub.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('a room comes back after its hub restarts on the same port, in the same role', async () => {
  const hub = await startHub();
  const room = connect({ url: hub.url, room: 'restart', role: 'presenter' });
  try {
    await room.ready;
    const lost = next(room, 'connection', 10000, (s) => s === 'closed');
    await hub.stop();
    await lost;
    const welcomed = next(room, 'welcome', 30000); // before the hub is back: the welcome may come at once
    const again = await startHub([], { port: hub.port });
    try {
      const [welcome] = await welcomed;
      assert.equal(welcome.role, 'presenter');
      assert.equal(room.connection, 'joined');
      assert.equal((await room.ease({ zoom: 4 }, { duration: 0.1 })).status, 'finished');
    } finally {
      room.close();
      await again.stop();
    }
  } finally {
    room.close();
    await hub.stop();
  }
});

test('getToken keeps the session alive past its first token\'s expiry', async () => {
  const s = await securedHub();
  const fresh = [];
  const room = connect({ url: s.hub.url, room: 'demo', role: 'driver', token: s.token('4s'),
    getToken: () => fresh[fresh.push(s.token('1h')) - 1] });
  try {
    await room.ready;
    const first = room.me;
    // Less than a minute left: warned at once, refreshed on its own.
    await next(room, 'tokenRefreshed', 10000);
    assert.equal(room.state.session.token, fresh[0]);
    // Past the first token's expiry, the session is the same one and still acts.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    assert.equal(room.me, first);
    assert.equal((await room.ease({ zoom: 5 }, { duration: 0.1 })).status, 'finished');
  } finally {
    room.close();
    await s.done();
  }
});

test('a revoked client with getToken joins again with a new token', async () => {
  const s = await securedHub();
  const room = connect({ url: s.hub.url, room: 'demo', role: 'driver', token: s.token('1h', 't-1'),
    getToken: () => s.token('1h', 't-2') });
  try {
    await room.ready;
    const first = room.me;
    const rejoined = next(room, 'welcome', 15000);
    s.revoke('t-1');
    const [welcome] = await rejoined;
    assert.notEqual(welcome.client, first);
    assert.equal((await room.ease({ zoom: 6 }, { duration: 0.1 })).status, 'finished');
  } finally {
    room.close();
    await s.done();
  }
});

test('a client the server API removed stays out and says why', async () => {
  const s = await securedHub();
  const room = connect({ url: s.hub.url, room: 'demo', role: 'driver', token: s.token('1h') });
  try {
    await room.ready;
    const refused = next(room, 'refused', 10000);
    const answer = await fetch(`${s.hub.http}/api/v1/rooms/demo/clients/${room.me}`,
      { method: 'DELETE', headers: { authorization: `Bearer ${s.apiKey}` } });
    assert.equal(answer.status, 204);
    const [error] = await refused;
    assert.ok(error instanceof CamHubError);
    assert.match(error.message, /4000/);
    assert.equal(room.connection, 'refused', 'no reconnection after a removal');
  } finally {
    room.close();
    await s.done();
  }
});
