/**
 * The hub URL with the room the hello will join as `?room=` (kept when the URL names one): a hub
 * of several loops serves the connection on its room's loop from the start, so the room's frames
 * reach it without crossing threads. Only a placement hint; the hello decides the room.
 * @param {string} url  ws://host:port/hub
 * @param {string | undefined} room
 */
export function urlWithRoom(url: string, room: string | undefined): string;
export const SUBPROTOCOL: "camhub.v1";
/**
 * Close codes after which the same hello is not tried again: 4000 removed by
 * the server API, 4001 token expired, 4003 token revoked (docs/PROTOCOL.md).
 */
export const FINAL_CLOSE_CODES: number[];
/** Closes that mean the hub is draining (it restarts or goes away): the whole audience comes back. */
export const DRAIN_CLOSE_CODES: number[];
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
    constructor(o: {
        url: string;
        hello: () => object;
        room?: () => (string | undefined);
        onMessage: (m: object, receivedAt: number) => void;
        onState?: (state: string, detail?: string) => void;
        onProtocolError?: (error: Error) => void;
        WebSocket?: Function;
        now?: () => number;
        timers?: object;
        random?: () => number;
        audience?: () => number;
    });
    o: {
        url: string;
        hello: () => object;
        room?: () => (string | undefined);
        onMessage: (m: object, receivedAt: number) => void;
        onState?: (state: string, detail?: string) => void;
        onProtocolError?: (error: Error) => void;
        WebSocket?: Function;
        now?: () => number;
        timers?: object;
        random?: () => number;
        audience?: () => number;
        pingIntervalMs: number;
        backoffMs: number[];
        welcomeTimeoutMs: number;
        openTimeoutMs: number;
        jitter: number;
        drainWindowPerClientMs: number;
        drainWindowMaxMs: number;
    };
    /** @type {typeof WebSocket} */
    WebSocket: typeof WebSocket;
    now: () => number;
    timers: any;
    random: () => number;
    latency: LatencyEstimator;
    state: string;
    detail: string;
    ws: WebSocket;
    attempt: number;
    retryTimer: any;
    pingTimer: any;
    sent: number;
    received: number;
    nextRetryAt: any;
    welcomeTimer: any;
    openTimer: any;
    /** Why the hub refused the last hello: its error {code, message, ref} or {close, reason}; null otherwise. */
    refusal: any;
    /**
     * Why the last open connection ended ("closed (1012: service restart)"), kept while the
     * reconnect attempts that follow fail before opening: what a person needs to know is why
     * the page lost the hub, not that a hub still restarting refused the next socket (1006).
     * Null once a welcome arrives.
     */
    lostBecause: any;
    /** Reconnect attempts since `lostBecause` that ended before the socket opened. */
    failedAttempts: number;
    setState(state: any, detail?: string): void;
    start(): void;
    connect(): void;
    /** The hub refused the hello: close, remember why, and wait for restart(). */
    refuse(refusal: any): void;
    /** Forgets `ws` (its events are ignored from now on) and closes it. */
    drop(ws: any): void;
    clearOpenTimer(): void;
    clearWelcomeTimer(): void;
    /**
     * An open connection ended: that is the reason shown until the page is back.
     * After a drain the first retry waits within the audience's window (`drainWindow`).
     */
    retryLost(why: any, drained?: boolean): void;
    /** How long (ms) a drained room's clients spread their first return over: grows with the audience. */
    drainWindow(): number;
    /** A socket ended before it opened: counted against the reason the connection was lost, if any. */
    retryUnopened(why: any): void;
    /** Retries after `delay` ms, or after the attempt's backoff, jittered. */
    scheduleRetry(why: any, delay?: any): void;
    clearRetry(): void;
    startPings(): void;
    stopPings(): void;
    ping(): void;
    get joined(): boolean;
    sendNow(message: any): boolean;
    /** Sends a message once joined; returns false (and drops it) otherwise. */
    send(message: any): boolean;
    /** Closes and reconnects at once (e.g. with a new hello after a room/role switch). */
    restart(): void;
    stop(): void;
}
import { LatencyEstimator } from "./clock.js";
