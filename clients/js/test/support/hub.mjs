// A real hub for the client library's tests: `camhub serve` on 127.0.0.1,
// port 0, its address read from what it prints. CAMHUB names the binary
// (default .build/debug/camhub); `args` adds flags (a token secret, a short tick).

import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../../src/index.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

/** Starts a hub; resolves with {url, http, port, output, stop(signal)} once it listens. */
export function startHub(args = [], { timeoutMs = 20000, port = 0 } = {}) {
  const binary = process.env.CAMHUB ?? join(ROOT, '.build', 'debug', 'camhub');
  if (!existsSync(binary)) throw new Error(`hub binary ${binary} not found: run \`swift build\` (or set CAMHUB)`);
  const proc = spawn(binary, ['serve', '--host', '127.0.0.1', '--port', String(port), '--web', join(ROOT, 'web'), ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`hub did not start within ${timeoutMs} ms:\n${output.join('')}`));
    }, timeoutMs);
    const read = (chunk) => {
      output.push(chunk.toString());
      const m = LISTENING.exec(output.join(''));
      if (!m || proc.started) return;
      proc.started = true;
      clearTimeout(timer);
      const port = Number(m[1]);
      resolve({
        port, output, proc,
        url: `ws://127.0.0.1:${port}/hub`,
        http: `http://127.0.0.1:${port}`,
        stop: (signal = 'SIGTERM') => new Promise((done) => {
          if (proc.exitCode !== null || proc.signalCode !== null) return done();
          proc.once('exit', () => done());
          proc.kill(signal);
        }),
      });
    };
    proc.stdout.on('data', read);
    proc.stderr.on('data', read);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      if (!proc.started) reject(new Error(`hub exited (${code}) before listening:\n${output.join('')}`));
    });
  });
}

/** Resolves with the next `name` event's arguments of `room` (rejects after `ms`, naming it). */
export function next(room, name, ms = 10000, accept = () => true) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${name} within ${ms} ms`));
    }, ms);
    const off = room.on(name, (...args) => {
      if (!accept(...args)) return;
      clearTimeout(timer);
      off();
      resolve(args);
    });
  });
}

/**
 * One hub for a test file: started before its tests, stopped (and every room
 * closed) after them. Returns {hub(), roomName(), join(room, role, extra), track(room)}:
 * a fresh room name per call (`${prefix}-N`, so tests do not see each other),
 * a client joined to `room` as `role` once its welcome came, and `track`, which
 * has a client the test connected itself closed at the end too.
 */
export function hubForTests(prefix) {
  let hub;
  const rooms = [];
  let roomCount = 0;
  before(async () => {
    hub = await startHub();
  });
  after(async () => {
    for (const r of rooms) r.close();
    await hub.stop();
  });
  return {
    hub: () => hub,
    roomName: () => `${prefix}-${++roomCount}`,
    track(r) {
      rooms.push(r);
      return r;
    },
    async join(room, role, extra = {}) {
      const r = connect({ url: hub.url, room, role, name: `${role} ${rooms.length}`, ...extra });
      rooms.push(r);
      await r.ready;
      return r;
    },
  };
}
