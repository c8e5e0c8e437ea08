/**
 * Joins a room: returns the `Room` at once, connecting (`await room.ready` for the welcome).
 * @param {ConnectOptions} options
 * @returns {Room}
 */
export function connect(options: ConnectOptions): Room;
/** Animation statuses that end an animation. */
export const ENDED_STATUSES: string[];
/** What the hub refused (its error `code`), or `disconnected` when the connection ended before an answer. */
export class CamHubError extends Error {
    /**
     * @param {string} code the hub's error code (`forbidden`, `conflict`, …), or `disconnected`, `not_joined`
     * @param {string} message
     * @param {object} [answer] the hub's `error` message, when there was one
     */
    constructor(code: string, message: string, answer?: object);
    code: string;
    answer: any;
}
/**
 * @typedef {object} ConnectOptions
 * @property {string} url ws://host:port/hub (wss:// behind TLS)
 * @property {string} [room] the room to join (not needed with `state`)
 * @property {'presenter'|'driver'|'follower'} [role] default 'follower'
 * @property {string} [name] shown to the room's other clients
 * @property {string} [token] a signed token (hubs started with --token-secret)
 * @property {() => (string|Promise<string>)} [getToken] a fresh token: for the first hello when `token` is not
 *   given, 60 s before the token expires (`tokenExpiring`), and after a close for an expired or revoked token
 * @property {number} [rate] frames per second wanted (the hub grants at most its tick)
 * @property {string[]} [events] subscriptions (default: the role's, `eventsFor`)
 * @property {'same'|'cover'} [fit] how a follower fits the room's camera to its screen
 * @property {'binary'|'json'} [encoding] how frames come: 'binary' (default: a third of the bytes) or 'json' text
 * @property {{roll?: boolean, maxTilt?: number, globe?: boolean}} [render] what this client's map can draw
 *   (Mapbox: `{roll: false}`; MapLibre Native Android: `{maxTilt: 60}`); the hub sends it the closest camera it
 *   can show and says what it adapts in `welcome.renderLimited`
 * @property {() => ({width: number, height: number})} [viewport] this client's screen in px, read at each hello
 * @property {RoomState} [state] the state to keep (a subclass, e.g. the viewer's page state); its `session`
 *   holds room, role, name, token, rate and fit
 * @property {Function} [WebSocket] the WebSocket constructor (default globalThis.WebSocket)
 * @property {() => number} [now] local clock in ms (default performance.timeOrigin + performance.now())
 * @property {object} [timers] {setTimeout, clearTimeout, setInterval, clearInterval}
 * @property {() => number} [random] 0 ≤ x < 1, for the retry jitter
 */
export class Room {
    /** @param {ConnectOptions} options */
    constructor(options: ConnectOptions);
    options: ConnectOptions;
    /** @type {RoomState} */
    state: RoomState;
    events: Emitter;
    /** @type {Map<string, {resolve: Function, reject: Function, kind: string}>} animations and queries awaiting an answer */
    pending: Map<string, {
        resolve: Function;
        reject: Function;
        kind: string;
    }>;
    lastId: number;
    /** New tokens fetched for refusals since the last welcome (at most 3 in a row). */
    tokenRetries: number;
    conn: Connection;
    /** Resolves with the first `welcome`; rejects with a CamHubError when the hub refuses the hello. */
    ready: Promise<any>;
    settleReady: any;
    /** Opens the connection (a token from `getToken` first, when none was given). Returns this room. */
    start(): Room;
    /** Leaves the room: closes the connection (1000) for good. Pending commands reject with `disconnected`. */
    close(): void;
    /** This client's id in the room (null before a welcome). */
    get me(): any;
    /** The role the hub granted (or the one asked for, before a welcome). */
    get role(): string;
    /**
     * The room's camera as the hub last said (welcome or frame), wire form {lat, lon, zoom, bearing, tilt, roll?,
     * elevation?, fov?, anchor?, padding?} (roll, elevation, fov absent: 0, 0, 36.86989764584402).
     */
    get camera(): any;
    /** The room's limits {minZoom, maxZoom, minTilt, maxTilt, maxTiltByZoom, bounds} (`setLimits` changes them). */
    get limits(): any;
    /** Everyone listed in the room: [{client, name, role, follow}], presenter first. */
    get roster(): {
        client: string;
        name: string;
        role: string;
        follow: string;
    }[];
    /** The room's followers by follow state {following, exploring, away}, or null before the hub counted them. */
    get followCounts(): any;
    /** The room's running and queued animations [{id, owner, kind, status, mine}]. */
    get animations(): {
        mine: boolean;
        id: string;
        owner: string;
        kind: string;
        status: string;
    }[];
    /** The room's route [{lat, lon}] (`route(points)` sets it). */
    get routePoints(): {
        lat: number;
        lon: number;
    }[];
    get tracking(): any;
    /**
     * How the room's map draws the world: 'mercator' (flat, a new room's) or 'globe' (welcome, then each
     * `projectionChanged`; `setProjection` changes it, `attachMapLibre` puts it on the map).
     * @returns {'mercator'|'globe'}
     */
    get projection(): "mercator" | "globe";
    /**
     * The room's storyboard as everyone hears it (welcome.story, then `storyStep` and `storyChanged`): its `count`,
     * the step the room is on (`index`, null: none) with its `title` and `notes`, whether autoplay runs (`playing`)
     * and whether drivers may step it (`drivers`); null while the room has none.
     * @returns {{count: number, index: number|null, title: string|null, notes: string|null, playing: boolean,
     *   drivers: boolean, camera?: object}|null}
     */
    get story(): {
        count: number;
        index: number | null;
        title: string | null;
        notes: string | null;
        playing: boolean;
        drivers: boolean;
        camera?: object;
    };
    /** 'idle', 'connecting', 'joining', 'joined', 'closed' (reconnecting), 'refused' or 'stopped'. */
    get connection(): string;
    get joined(): boolean;
    /**
     * Calls `handler` for each `name`: a hub event (`joined`, `left`, `followChanged`, `summoned`,
     * `limitsChanged`, `projectionChanged`, …: the event message), `welcome`, `frame` (message, receivedAt), `animation`,
     * `result`, `error`, `gestureAck`, `tokenExpiring`, `tokenRefreshed`, `tokenRefreshFailed` (Error), `refused` (CamHubError: the hello was
     * refused, or the hub ended the session for good),
     * `connection` (state, detail), `protocolError` (Error), or `message` (every hub message: message,
     * receivedAt, changes). Returns the function that removes the handler.
     * @param {string} name
     * @param {(...args: any[]) => void} handler
     * @returns {() => void}
     */
    on(name: string, handler: (...args: any[]) => void): () => void;
    off(name: any, handler: any): void;
    /**
     * Jumps the camera (`set`): any of lat, lon, zoom, bearing, tilt, roll, elevation, fov, anchor, padding.
     * Throws a CamHubError `not_joined` before a welcome.
     */
    set(camera: any): void;
    /**
     * Eases to `camera` ({duration, curve, around, essential, id}); resolves with the final report.
     * @returns {Promise<object>} the `animation` message that ended it (status finished, cancelled or superseded)
     */
    ease(camera: any, options?: {}): Promise<object>;
    /** Flies to `camera` ({duration, speed, curve, minZoom, essential, id}); resolves with the final report. */
    fly(camera: any, options?: {}): Promise<any>;
    /** Animates to `to` over `options.duration` s ({curve, delay, after, essential, id}); resolves with the final report. */
    animate(to: any, options: any): Promise<any>;
    /**
     * `cancel()`: this client's animations; `cancel({id})`: one; `cancel({all: true})`: the room's (presenter).
     * @param {{id?: string, all?: boolean}} [options]
     */
    cancel(options?: {
        id?: string;
        all?: boolean;
    }): void;
    /** Tracking: `track({mode, location})` (docs/PROTOCOL.md, Tracking). */
    track(options: any): void;
    /** The room's route: `route(points)` replaces it ([] clears it), `route(points, {append: true})` extends it. */
    route(points: any, options?: {}): void;
    /** Sets the room's limits ({minZoom, maxZoom, minTilt, maxTilt, maxTiltByZoom, bounds}; presenter). */
    setLimits(limits: any): void;
    /**
     * Asks the hub to compute against the room's camera and this client's viewport: `query('project',
     * {points})`, `'unproject'`, `'bounds'`, `'fit'` {bounds, padding}; or `'story'`: the room's storyboard whole
     * ({steps, index, playing, drivers}; presenters, and drivers where the storyboard allows them). Resolves with the
     * `result`.
     */
    query(what: any, params?: {}): Promise<any>;
    /**
     * Presenter: calls back everyone who explores or is away, or only `client` (an id of `viewports` or the roster);
     * resolves with the `result` (`summoned`: how many).
     * @param {string} [client] the one client to call back (default: everyone not following)
     */
    summon(client?: string): Promise<any>;
    /**
     * Where the room's explorers look, as the newest `viewports` event said (presenters and drivers; empty for a
     * follower, which never gets them): {clients: [{client, name, state, region: 4 × [lon, lat]}] (at most 50),
     * others: how many more share a region}.
     */
    get viewports(): {
        clients: any[];
        others: number;
    } | {
        clients: any;
        others: any;
    };
    /**
     * Tells the hub this client's visible region while it explores (four [lon, lat] corners; geo/region.js
     * computes them), or null: it stops sharing. The follower pipeline does it by itself.
     * @param {number[][]|null} region
     */
    looking(region: number[][] | null): void;
    /** Presenter: `false` locks following (nobody may explore), `true` unlocks. */
    followPolicy(explore: any): void;
    /**
     * Drivers, presenters: draws the room's map as a globe ('globe', MapLibre GL JS 5's, which blends into Web
     * Mercator as it zooms in) or flat ('mercator'), for everyone. Not answered: everyone (this client too) hears
     * `projectionChanged`; a follower's is refused with an `error` `forbidden`. Throws a ProtocolError naming
     * `projection` for any other value, before anything is sent.
     * @param {'mercator'|'globe'} projection
     */
    setProjection(projection: 'mercator' | 'globe'): void;
    /**
     * Presenters (drivers where allowed): replaces the room's storyboard with `steps` (`[]` clears it); a storyboard
     * larger than one message goes as a `set` and `insert`s. Each step: `{camera: {lat, lon, zoom, bearing?, tilt?,
     * roll?, elevation?, fov?}, via?: 'fly'|'ease'|'jump', duration?, speed?, curve?, hold?, title?, notes?,
     * essential?}`. `{drivers: true}` (presenters) lets drivers edit and step it. Not answered: everyone hears
     * `storyChanged`; a refusal is an `error` event. Throws a ProtocolError naming the field before anything is sent.
     * @param {object[]} steps
     * @param {{drivers?: boolean}} [options]
     */
    setStory(steps: object[], options?: {
        drivers?: boolean;
    }): void;
    /** Puts `steps` before step `index` (from 0; undefined: at the end). */
    insertSteps(steps: any, index: any): void;
    /** Replaces step `index`. */
    updateStep(index: any, step: any): void;
    /** Moves step `from` to position `to`. */
    moveStep(from: any, to: any): void;
    /** Takes step `index` out. */
    removeStep(index: any): void;
    /** Presenters: whether drivers may edit and step the room's storyboard. */
    allowStoryDrivers(allow: any): void;
    /**
     * Goes through the room's storyboard: `to` is 'next', 'previous', a step's index, 'play' or 'pause'. The step's
     * move is this client's animation (`id`, else the hub's `#n`): its `animation` reports come as for `fly`, and a
     * gesture or another command interrupts it. Not answered: everyone hears `storyStep`; a step outside the
     * storyboard is an `error` event (ref `step`, or the id).
     * @param {'next'|'previous'|'play'|'pause'|number} to
     * @param {{id?: string}} [options]
     */
    step(to: 'next' | 'previous' | 'play' | 'pause' | number, options?: {
        id?: string;
    }): void;
    /** This client's follow state: 'following', 'exploring' or 'away'. */
    follow(state: any): void;
    /** Shows this client's pointer at (lat, lon) to the room; `pointer(null)` hides it. */
    pointer(lat: any, lon: any): void;
    /** How this client fits the room's camera to its screen from now on ('same' or 'cover'). */
    fit(mode: any): void;
    /** This client's screen size in px (the hub computes queries and fits with it). */
    viewport(width: any, height: any): void;
    /** One gesture as the recognizer made it (drivers and presenters; `drive/gestures.js`). */
    gesture(g: any): void;
    /** Replaces the session's token now (answered with `tokenRefreshed`, or an `error` code `token`). */
    refresh(token: any): void;
    /** Sends a message built with `build.*`; throws a CamHubError `not_joined` when not joined. */
    send(message: any): void;
    /** The hello for each connect: what the session asks for, this client's screen, the role's events. */
    hello(): {
        type: string;
        room: string;
        role: string;
    };
    newId(prefix: any): string;
    animation(kind: any, camera: any, options: any): Promise<any>;
    /**
     * Sends what `make` builds and waits for the answer to `id`; a message that does not build
     * (a ProtocolError naming the field) or cannot be sent rejects the promise.
     */
    ask(make: any, id: any, kind: any): Promise<any>;
    settle(id: any, answer: any, error: any): void;
    failPending(why: any): void;
    receive(m: any, receivedAt: any): void;
    /** The newest welcome (a client attached later starts from it). */
    welcome: any;
    /** The token expires within a minute: with `getToken`, a new one is fetched and sent. */
    refreshSoon(): void;
    fetchToken(): Promise<string>;
    connectionChanged(s: any, detail: any): void;
    /** The hub refused the hello or ended the session for good: a token problem with `getToken` joins again. */
    refused(refusal: any): void;
}
export { ProtocolError };
export type ConnectOptions = {
    /**
     * ws://host:port/hub (wss:// behind TLS)
     */
    url: string;
    /**
     * the room to join (not needed with `state`)
     */
    room?: string;
    /**
     * default 'follower'
     */
    role?: 'presenter' | 'driver' | 'follower';
    /**
     * shown to the room's other clients
     */
    name?: string;
    /**
     * a signed token (hubs started with --token-secret)
     */
    token?: string;
    /**
     * a fresh token: for the first hello when `token` is not
     * given, 60 s before the token expires (`tokenExpiring`), and after a close for an expired or revoked token
     */
    getToken?: () => (string | Promise<string>);
    /**
     * frames per second wanted (the hub grants at most its tick)
     */
    rate?: number;
    /**
     * subscriptions (default: the role's, `eventsFor`)
     */
    events?: string[];
    /**
     * how a follower fits the room's camera to its screen
     */
    fit?: 'same' | 'cover';
    /**
     * how frames come: 'binary' (default: a third of the bytes) or 'json' text
     */
    encoding?: 'binary' | 'json';
    /**
     * what this client's map can draw
     * (Mapbox: `{roll: false}`; MapLibre Native Android: `{maxTilt: 60}`); the hub sends it the closest camera it
     * can show and says what it adapts in `welcome.renderLimited`
     */
    render?: {
        roll?: boolean;
        maxTilt?: number;
        globe?: boolean;
    };
    /**
     * this client's screen in px, read at each hello
     */
    viewport?: () => ({
        width: number;
        height: number;
    });
    /**
     * the state to keep (a subclass, e.g. the viewer's page state); its `session`
     * holds room, role, name, token, rate and fit
     */
    state?: RoomState;
    /**
     * the WebSocket constructor (default globalThis.WebSocket)
     */
    WebSocket?: Function;
    /**
     * local clock in ms (default performance.timeOrigin + performance.now())
     */
    now?: () => number;
    /**
     * {setTimeout, clearTimeout, setInterval, clearInterval}
     */
    timers?: object;
    /**
     * 0 ≤ x < 1, for the retry jitter
     */
    random?: () => number;
};
import { RoomState } from "./state/room_state.js";
import { Emitter } from "./events.js";
import { Connection } from "./net/connection.js";
import { ProtocolError } from "./protocol/messages.js";
