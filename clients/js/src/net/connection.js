// The hub connection: a WebSocket to /hub with subprotocol camhub.v1, `hello`
// as the first message, validated messages out to the page, ping/pong every
// few seconds for the latency estimate, and reconnection with backoff.
// No DOM: the WebSocket constructor, clock and timers are injectable, so it
// runs under node with a fake socket.
//
// States: 'idle' → 'connecting' → 'joining' (open, hello sent) → 'joined'
// (welcome received) → 'closed' (waiting to reconnect) → 'connecting' …;
// 'refused' when the hub answered the hello with an error or closed with 1008
// before a welcome (`refusal` says why; no retry until restart());
// 'stopped' after stop().

import { parseMessage, encode, build, ProtocolError } from '../protocol/messages.js';
import { LatencyEstimator } from './clock.js';

export const SUBPROTOCOL = 'camhub.v1';

/**
 * Close codes after which the same hello is not tried again: 4000 removed by
 * the server API, 4001 token expired, 4003 token revoked (docs/PROTOCOL.md).
 */
export const FINAL_CLOSE_CODES = [4000, 4001, 4003];

/**
 * Test hook: when a test has set `globalThis.__camhubWireTap` to a function,
 * it gets the JSON text of every message any Connection sends (this module is
 * the one place messages leave the page). The node and browser tests record
 * them and check each against docs/asyncapi.yaml. Unset in normal use.
 */
function tapSent(text) {
  const tap = globalThis.__camhubWireTap;
  if (typeof tap === 'function') tap(text);
}

const DEFAULTS = {
  pingIntervalMs: 3000,
  backoffMs: [500, 1000, 2000, 4000, 8000],
  // A hub answers hello at once; one that has not welcomed us by then is
  // treated like a dropped connection (closed, retried with backoff).
  welcomeTimeoutMs: 15000,
  // A socket that has not opened by then is given up and retried: a WebSocket
  // has no handshake timeout of its own, and one can stay connecting for good
  // (seen with node's WebSocket when a hub restarts on the same port).
  openTimeoutMs: 10000,
  // Each retry waits its backoff ±25 %, so that the viewers of a hub that
  // restarts (close 1012) do not all come back in the same instant.
  jitter: 0.25,
  // After a drain (1012 restart, 1001 going away) the first retry waits a
  // random time within a window that grows with the room's audience, 1 ms per
  // client, from the first backoff up to 10 s: a room of 10,000 comes back at
  // ~1,000 joins a second, not in the same backoff window. The hub spreads
  // its closes too (--drain-spread); this spreads the returns.
  drainWindowPerClientMs: 1,
  drainWindowMaxMs: 10000,
};

/** Closes that mean the hub is draining (it restarts or goes away): the whole audience comes back. */
export const DRAIN_CLOSE_CODES = [1001, 1012];

/**
 * The hub URL with the room the hello will join as `?room=` (kept when the URL names one): a hub
 * of several loops serves the connection on its room's loop from the start, so the room's frames
 * reach it without crossing threads. Only a placement hint; the hello decides the room.
 * @param {string} url  ws://host:port/hub
 * @param {string | undefined} room
 */
export function urlWithRoom(url, room) {
  if (!room) return url;
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.searchParams.has('room')) return url;
  parsed.searchParams.set('room', room);
  return parsed.toString();
}

export class Connection {
  /**
   * @param {object} o
   * @param {string} o.url              ws://host:port/hub
   * @param {() => object} o.hello      builds the hello message (called on each connect)
   * @param {() => (string | undefined)} [o.room]  the room the hello joins, named in the URL (`urlWithRoom`)
   * @param {(m: object, receivedAt: number) => void} o.onMessage   every valid hub message
   * @param {(state: string, detail?: string) => void} [o.onState]
   * @param {(error: Error) => void} [o.onProtocolError]            invalid hub messages
   * @param {Function} [o.WebSocket]    constructor (default globalThis.WebSocket)
   * @param {() => number} [o.now]      local clock in ms
   * @param {object} [o.timers]         {setTimeout, clearTimeout, setInterval, clearInterval}
   * @param {() => number} [o.random]   0 ≤ x < 1 for the retry jitter (default Math.random)
   * @param {() => number} [o.audience] clients in the room as last known, for the wait after a drain (default 0)
   */
  constructor(o) {
    this.o = { ...DEFAULTS, ...o };
    /** @type {typeof WebSocket} */
    this.WebSocket = /** @type {any} */ (o.WebSocket ?? globalThis.WebSocket);
    this.now = o.now ?? (() => performance.timeOrigin + performance.now());
    this.timers = o.timers ?? globalThis;
    this.random = o.random ?? Math.random;
    this.latency = new LatencyEstimator();
    this.state = 'idle';
    this.detail = '';
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.sent = 0;
    this.received = 0;
    this.nextRetryAt = null;
    this.welcomeTimer = null;
    this.openTimer = null;
    /** Why the hub refused the last hello: its error {code, message, ref} or {close, reason}; null otherwise. */
    this.refusal = null;
    /**
     * Why the last open connection ended ("closed (1012: service restart)"), kept while the
     * reconnect attempts that follow fail before opening: what a person needs to know is why
     * the page lost the hub, not that a hub still restarting refused the next socket (1006).
     * Null once a welcome arrives.
     */
    this.lostBecause = null;
    /** Reconnect attempts since `lostBecause` that ended before the socket opened. */
    this.failedAttempts = 0;
  }

  setState(state, detail = '') {
    this.state = state;
    this.detail = detail;
    this.o.onState?.(state, detail);
  }

  start() {
    if (this.state === 'connecting' || this.state === 'joining' || this.state === 'joined' || this.state === 'refused') return;
    this.connect();
  }

  connect() {
    this.clearRetry();
    this.latency.reset();
    let ws;
    try {
      ws = new this.WebSocket(urlWithRoom(this.o.url, this.o.room?.()), SUBPROTOCOL);
    } catch (e) {
      this.retryUnopened(`cannot open ${this.o.url}: ${e.message}`);
      return;
    }
    ws.binaryType = 'arraybuffer'; // binary frames (hello.encoding) arrive as ArrayBuffers
    this.ws = ws;
    this.setState('connecting');
    let opened = false;
    this.openTimer = this.timers.setTimeout(() => {
      this.openTimer = null;
      if (ws !== this.ws || opened) return;
      this.drop(ws);
      this.retryUnopened(`no answer within ${Math.round(this.o.openTimeoutMs / 1000)} s`);
    }, this.o.openTimeoutMs);
    ws.onopen = () => {
      if (ws !== this.ws) return;
      opened = true;
      this.clearOpenTimer();
      this.sendNow(this.o.hello());
      this.setState('joining');
      this.welcomeTimer = this.timers.setTimeout(() => {
        this.welcomeTimer = null;
        if (ws !== this.ws || this.state !== 'joining') return;
        this.drop(ws);
        this.retryLost(`no welcome within ${Math.round(this.o.welcomeTimeoutMs / 1000)} s`);
      }, this.o.welcomeTimeoutMs);
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      const receivedAt = this.now();
      this.received++;
      let m;
      try {
        m = parseMessage(ev.data);
      } catch (e) {
        if (e instanceof ProtocolError) {
          this.o.onProtocolError?.(e);
          return;
        }
        throw e;
      }
      if (this.state === 'joining' && m.type === 'error') {
        // Nothing but the hello was sent: this error refuses it. The hub keeps
        // the socket open for most refusals, so close it ourselves.
        this.refuse({ code: m.code, message: m.message, ref: m.ref ?? null });
        return;
      }
      if (m.type === 'welcome') {
        this.clearWelcomeTimer();
        this.attempt = 0;
        this.refusal = null;
        this.lostBecause = null;
        this.failedAttempts = 0;
        this.setState('joined');
        this.startPings();
      } else if (m.type === 'pong') {
        this.latency.pong(m, receivedAt);
      }
      this.o.onMessage(m, receivedAt);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.clearOpenTimer();
      this.stopPings();
      this.clearWelcomeTimer();
      if (this.state === 'stopped') return;
      const why = ev && ev.code ? `closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''})` : 'closed';
      if (ev && ((ev.code === 1008 && this.state !== 'joined') || FINAL_CLOSE_CODES.includes(ev.code))) {
        // Policy before a welcome (a refused hello), or the hub ended the session
        // for good (removed, token expired or revoked): retrying with the same
        // hello would be refused. Wait for restart() (a new token, the page's Join button).
        this.refuse({ close: ev.code, reason: ev.reason ?? '' });
        return;
      }
      if (opened) this.retryLost(why, this.state === 'joined' && DRAIN_CLOSE_CODES.includes(ev?.code));
      else this.retryUnopened(why);
    };
    ws.onerror = () => {
      // onclose follows with the details.
    };
  }

  /** The hub refused the hello: close, remember why, and wait for restart(). */
  refuse(refusal) {
    this.clearWelcomeTimer();
    this.clearRetry();
    this.stopPings();
    if (this.ws) this.drop(this.ws);
    this.refusal = refusal;
    const detail = refusal.code ? `${refusal.code}: ${refusal.message}` : `closed (${refusal.close}${refusal.reason ? `: ${refusal.reason}` : ''})`;
    this.setState('refused', detail);
  }

  /** Forgets `ws` (its events are ignored from now on) and closes it. */
  drop(ws) {
    if (ws === this.ws) this.ws = null;
    try {
      ws.close(1000, 'bye');
    } catch {
      // already closing
    }
  }

  clearOpenTimer() {
    if (this.openTimer) this.timers.clearTimeout(this.openTimer);
    this.openTimer = null;
  }

  clearWelcomeTimer() {
    if (this.welcomeTimer !== null) this.timers.clearTimeout(this.welcomeTimer);
    this.welcomeTimer = null;
  }

  /**
   * An open connection ended: that is the reason shown until the page is back.
   * After a drain the first retry waits within the audience's window (`drainWindow`).
   */
  retryLost(why, drained = false) {
    this.lostBecause = why;
    this.failedAttempts = 0;
    this.scheduleRetry(why, drained ? Math.round(this.random() * this.drainWindow()) : undefined);
  }

  /** How long (ms) a drained room's clients spread their first return over: grows with the audience. */
  drainWindow() {
    const audience = Math.max(0, this.o.audience?.() ?? 0);
    return Math.min(this.o.drainWindowMaxMs, Math.max(this.o.backoffMs[0], audience * this.o.drainWindowPerClientMs));
  }

  /** A socket ended before it opened: counted against the reason the connection was lost, if any. */
  retryUnopened(why) {
    if (this.lostBecause === null) return this.scheduleRetry(why);
    const n = ++this.failedAttempts;
    this.scheduleRetry(`${this.lostBecause} · ${n} failed ${n === 1 ? 'attempt' : 'attempts'}`);
  }

  /** Retries after `delay` ms, or after the attempt's backoff, jittered. */
  scheduleRetry(why, delay = undefined) {
    if (delay === undefined) {
      const delays = this.o.backoffMs;
      const base = delays[Math.min(this.attempt, delays.length - 1)];
      delay = Math.round(base * (1 + this.o.jitter * (2 * this.random() - 1)));
    }
    this.attempt++;
    this.nextRetryAt = this.now() + delay;
    this.setState('closed', why);
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  clearRetry() {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.nextRetryAt = null;
  }

  startPings() {
    this.stopPings();
    this.ping();
    this.pingTimer = this.timers.setInterval(() => this.ping(), this.o.pingIntervalMs);
  }

  stopPings() {
    if (this.pingTimer !== null) this.timers.clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  ping() {
    this.send(build.ping(this.now()));
  }

  get joined() {
    return this.state === 'joined';
  }

  sendNow(message) {
    if (!this.ws || this.ws.readyState !== 1) return false;
    const text = encode(message);
    this.ws.send(text);
    tapSent(text);
    this.sent++;
    return true;
  }

  /** Sends a message once joined; returns false (and drops it) otherwise. */
  send(message) {
    if (!this.joined) return false;
    return this.sendNow(message);
  }

  /** Closes and reconnects at once (e.g. with a new hello after a room/role switch). */
  restart() {
    this.stop();
    this.state = 'idle';
    this.attempt = 0;
    this.refusal = null;
    this.lostBecause = null;
    this.failedAttempts = 0;
    this.connect();
  }

  stop() {
    this.clearRetry();
    this.clearOpenTimer();
    this.clearWelcomeTimer();
    this.stopPings();
    const ws = this.ws;
    this.ws = null;
    this.setState('stopped');
    if (ws) this.drop(ws);
  }
}
