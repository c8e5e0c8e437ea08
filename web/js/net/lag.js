// `?lag=MS`: a remote hub on one machine. The page's WebSocket delays every
// message by MS/2 in each direction (what it sends, and what it receives,
// opening and closing included), so a loopback hub feels like one MS of round
// trip away. For tests and demos; the hub is not involved. No DOM: the
// WebSocket constructor and timers are injectable (node tests use fakes).

/** The largest lag the page accepts, in ms of round trip. */
export const MAX_LAG_MS = 5000;

/**
 * A WebSocket class like `Base` whose messages each way are delayed by
 * `lagMs / 2` (order kept: every delay is the same). `lagMs` 0 returns `Base`.
 */
export function laggedWebSocket(Base, lagMs, timers = globalThis) {
  if (!(lagMs > 0)) return Base;
  const half = lagMs / 2;
  return class LaggedWebSocket {
    constructor(url, protocols) {
      this.ws = new Base(url, protocols);
      this.onopen = null;
      this.onmessage = null;
      this.onclose = null;
      this.onerror = null;
      this.closedLocally = false;
      const later = (fn) => timers.setTimeout(fn, half);
      this.ws.onopen = (e) => later(() => this.onopen?.(e));
      this.ws.onmessage = (e) => later(() => this.onmessage?.(e));
      this.ws.onclose = (e) => later(() => this.onclose?.(e));
      this.ws.onerror = (e) => later(() => this.onerror?.(e));
      this.pendingSends = 0;
    }

    get readyState() {
      return this.ws.readyState;
    }

    get protocol() {
      return this.ws.protocol;
    }

    get bufferedAmount() {
      return this.ws.bufferedAmount;
    }

    /** How binary messages (binary frames) arrive: set on the real socket. */
    get binaryType() {
      return this.ws.binaryType;
    }

    set binaryType(type) {
      this.ws.binaryType = type;
    }

    send(data) {
      this.pendingSends++;
      timers.setTimeout(() => {
        this.pendingSends--;
        if (this.ws.readyState === 1) this.ws.send(data);
      }, half);
    }

    close(code, reason) {
      timers.setTimeout(() => this.ws.close(code, reason), half);
    }
  };
}

/** The lag asked for by `?lag=` (ms, 0…MAX_LAG_MS), and a problem for a value the page cannot use. */
export function parseLag(text) {
  const asked = String(text ?? '').trim();
  if (!asked) return { lag: 0, problem: null };
  const value = Number(asked);
  if (!Number.isFinite(value) || value < 0 || value > MAX_LAG_MS) {
    return { lag: 0, problem: { param: 'lag', given: asked, why: `the lag is 0…${MAX_LAG_MS} ms of round trip`, used: 'no lag' } };
  }
  return { lag: value, problem: null };
}
