// The hub connection: a WebSocket to /hub with subprotocol camhub.v1, `hello`
// as the first message, validated messages out to the page, ping/pong every
// few seconds for the latency estimate, and reconnection with backoff.
// No DOM: the WebSocket constructor, clock and timers are injectable, so it
// runs under node with a fake socket.
//
// States: 'idle' → 'connecting' → 'joining' (open, hello sent) → 'joined'
// (welcome received) → 'closed' (waiting to reconnect) → 'connecting' …;
// 'stopped' after stop().

import { parseMessage, encode, build, ProtocolError } from './messages.js';
import { LatencyEstimator } from './clock.js';

export const SUBPROTOCOL = 'camhub.v1';

const DEFAULTS = {
  pingIntervalMs: 3000,
  backoffMs: [500, 1000, 2000, 4000, 8000],
  // Each retry waits its backoff ±25 %, so that the viewers of a hub that
  // restarts (close 1012) do not all come back in the same instant.
  jitter: 0.25,
};

export class Connection {
  /**
   * @param {object} o
   * @param {string} o.url              ws://host:port/hub
   * @param {() => object} o.hello      builds the hello message (called on each connect)
   * @param {(m: object, receivedAt: number) => void} o.onMessage   every valid hub message
   * @param {(state: string, detail?: string) => void} [o.onState]
   * @param {(error: Error) => void} [o.onProtocolError]            invalid hub messages
   * @param {Function} [o.WebSocket]    constructor (default globalThis.WebSocket)
   * @param {() => number} [o.now]      local clock in ms
   * @param {object} [o.timers]         {setTimeout, clearTimeout, setInterval, clearInterval}
   * @param {() => number} [o.random]   0 ≤ x < 1 for the retry jitter (default Math.random)
   */
  constructor(o) {
    this.o = { ...DEFAULTS, ...o };
    this.WebSocket = o.WebSocket ?? globalThis.WebSocket;
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
  }

  setState(state, detail = '') {
    this.state = state;
    this.detail = detail;
    this.o.onState?.(state, detail);
  }

  start() {
    if (this.state === 'connecting' || this.state === 'joining' || this.state === 'joined') return;
    this.connect();
  }

  connect() {
    this.clearRetry();
    this.latency.reset();
    let ws;
    try {
      ws = new this.WebSocket(this.o.url, SUBPROTOCOL);
    } catch (e) {
      this.scheduleRetry(`cannot open ${this.o.url}: ${e.message}`);
      return;
    }
    this.ws = ws;
    this.setState('connecting');
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.sendNow(this.o.hello());
      this.setState('joining');
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      const receivedAt = this.now();
      this.received++;
      let m;
      try {
        m = parseMessage(typeof ev.data === 'string' ? ev.data : String(ev.data));
      } catch (e) {
        if (e instanceof ProtocolError) {
          this.o.onProtocolError?.(e);
          return;
        }
        throw e;
      }
      if (m.type === 'welcome') {
        this.attempt = 0;
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
      this.stopPings();
      if (this.state === 'stopped') return;
      const why = ev && ev.code ? `closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''})` : 'closed';
      if (ev && ev.code === 1008) {
        // Policy: a refused hello (wrong or missing token, hello timeout). Retrying
        // would be refused again: wait for restart() (the page's Join button).
        this.setState('closed', `${why}: refused by the hub`);
        return;
      }
      this.scheduleRetry(why);
    };
    ws.onerror = () => {
      // onclose follows with the details.
    };
  }

  scheduleRetry(why) {
    const delays = this.o.backoffMs;
    const base = delays[Math.min(this.attempt, delays.length - 1)];
    const delay = Math.round(base * (1 + this.o.jitter * (2 * this.random() - 1)));
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
    this.ws.send(encode(message));
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
    this.connect();
  }

  stop() {
    this.clearRetry();
    this.stopPings();
    const ws = this.ws;
    this.ws = null;
    this.setState('stopped');
    if (ws) {
      try {
        ws.close(1000, 'bye');
      } catch {
        // already closing
      }
    }
  }
}
