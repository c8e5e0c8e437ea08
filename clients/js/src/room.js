// A room of a CameraHub, as a client joins it: `connect({url, room, role})`
// opens the connection (reconnecting with backoff and jitter after 1001, 1012
// and drops), keeps the room's state (`RoomState`: camera, limits, roster,
// follow states, animations, route), sends commands as methods and tells what
// happens as events (`room.on('followChanged', …)`).
//
// Commands that the hub answers return promises: `fly`, `ease` and `animate`
// settle with the animation's final report (finished, cancelled or superseded),
// `query` and `summon` with their `result`; each rejects with a `CamHubError`
// when the hub refuses it (its `code`), or when the connection is lost first
// (`disconnected`). No DOM: runs in browsers and under node (WebSocket, clock
// and timers are injectable).

import { build, ROLES, ProtocolError } from './protocol/messages.js';
import { buildStory, storySet } from './protocol/story.js';
import { Connection } from './net/connection.js';
import { RoomState } from './state/room_state.js';
import { Emitter } from './events.js';

/** Animation statuses that end an animation. */
export const ENDED_STATUSES = ['finished', 'cancelled', 'superseded'];

/** Close codes after which a client with `getToken` joins again with a new token (expired, revoked). */
const TOKEN_CLOSE_CODES = [4001, 4003];

/** What the hub refused (its error `code`), or `disconnected` when the connection ended before an answer. */
export class CamHubError extends Error {
  /**
   * @param {string} code the hub's error code (`forbidden`, `conflict`, …), or `disconnected`, `not_joined`
   * @param {string} message
   * @param {object} [answer] the hub's `error` message, when there was one
   */
  constructor(code, message, answer) {
    super(`${code}: ${message}`);
    this.name = 'CamHubError';
    this.code = code;
    this.answer = answer ?? null;
  }
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
  constructor(options) {
    if (!options || typeof options.url !== 'string') throw new TypeError('connect: "url" must be a ws:// or wss:// URL');
    const role = options.role ?? 'follower';
    if (!options.state && !ROLES.includes(role)) throw new TypeError(`connect: "role" must be one of ${ROLES.join('|')}`);
    if (options.getToken !== undefined && typeof options.getToken !== 'function') {
      throw new TypeError('connect: "getToken" must be a function returning a token');
    }
    this.options = options;
    /** @type {RoomState} */
    this.state = options.state ?? new RoomState({ room: options.room, role, name: options.name, token: options.token,
      rate: options.rate, fit: options.fit });
    this.events = new Emitter();
    /** @type {Map<string, {resolve: Function, reject: Function, kind: string}>} animations and queries awaiting an answer */
    this.pending = new Map();
    this.lastId = 0;
    /** New tokens fetched for refusals since the last welcome (at most 3 in a row). */
    this.tokenRetries = 0;
    this.conn = new Connection({
      url: options.url,
      hello: () => this.hello(),
      room: () => this.state.session.room,
      onMessage: (m, receivedAt) => this.receive(m, receivedAt),
      onState: (s, detail) => this.connectionChanged(s, detail),
      onProtocolError: (e) => this.events.emit('protocolError', e),
      WebSocket: options.WebSocket,
      now: options.now,
      timers: options.timers,
      random: options.random,
      audience: () => this.state.clients ?? 0,
    });
    let settle;
    /** Resolves with the first `welcome`; rejects with a CamHubError when the hub refuses the hello. */
    this.ready = new Promise((resolve, reject) => (settle = { resolve, reject }));
    this.ready.catch(() => {}); // a caller that never awaits it is not an unhandled rejection
    this.settleReady = settle;
  }

  /** Opens the connection (a token from `getToken` first, when none was given). Returns this room. */
  start() {
    const { getToken } = this.options;
    if (this.state.session.token || !getToken) {
      this.conn.start();
      return this;
    }
    this.fetchToken().then(() => this.conn.start(), (e) => this.refused({ code: 'token', message: e.message }));
    return this;
  }

  /** Leaves the room: closes the connection (1000) for good. Pending commands reject with `disconnected`. */
  close() {
    this.conn.stop();
    this.failPending('the room was closed');
  }

  // -- what the room is ------------------------------------------------------------------------------

  /** This client's id in the room (null before a welcome). */
  get me() {
    return this.state.me;
  }

  /** The role the hub granted (or the one asked for, before a welcome). */
  get role() {
    return this.state.role;
  }

  /**
   * The room's camera as the hub last said (welcome or frame), wire form {lat, lon, zoom, bearing, tilt, roll?,
   * elevation?, fov?, anchor?, padding?} (roll, elevation, fov absent: 0, 0, 36.86989764584402).
   */
  get camera() {
    return this.state.hubCamera;
  }

  /** The room's limits {minZoom, maxZoom, minTilt, maxTilt, maxTiltByZoom, bounds} (`setLimits` changes them). */
  get limits() {
    return this.state.limits;
  }

  /** Everyone listed in the room: [{client, name, role, follow}], presenter first. */
  get roster() {
    return this.state.roster();
  }

  /** The room's followers by follow state {following, exploring, away}, or null before the hub counted them. */
  get followCounts() {
    return this.state.followCounts;
  }

  /** The room's running and queued animations [{id, owner, kind, status, mine}]. */
  get animations() {
    return this.state.animations.entries(this.state.me);
  }

  /** The room's route [{lat, lon}] (`route(points)` sets it). */
  get routePoints() {
    return this.state.route.points;
  }

  get tracking() {
    return this.state.tracking;
  }

  /**
   * How the room's map draws the world: 'mercator' (flat, a new room's) or 'globe' (welcome, then each
   * `projectionChanged`; `setProjection` changes it, `attachMapLibre` puts it on the map).
   * @returns {'mercator'|'globe'}
   */
  get projection() {
    return this.state.projection;
  }

  /**
   * The room's storyboard as everyone hears it (welcome.story, then `storyStep` and `storyChanged`): its `count`,
   * the step the room is on (`index`, null: none) with its `title` and `notes`, whether autoplay runs (`playing`)
   * and whether drivers may step it (`drivers`); null while the room has none.
   * @returns {{count: number, index: number|null, title: string|null, notes: string|null, playing: boolean,
   *   drivers: boolean, camera?: object}|null}
   */
  get story() {
    return this.state.story;
  }

  /** 'idle', 'connecting', 'joining', 'joined', 'closed' (reconnecting), 'refused' or 'stopped'. */
  get connection() {
    return this.conn.state;
  }

  get joined() {
    return this.conn.joined && this.state.joined;
  }

  // -- events ----------------------------------------------------------------------------------------

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
  on(name, handler) {
    return this.events.on(name, handler);
  }

  off(name, handler) {
    this.events.off(name, handler);
  }

  // -- commands --------------------------------------------------------------------------------------

  /**
   * Jumps the camera (`set`): any of lat, lon, zoom, bearing, tilt, roll, elevation, fov, anchor, padding.
   * Throws a CamHubError `not_joined` before a welcome.
   */
  set(camera) {
    this.send(build.set(camera));
  }

  /**
   * Eases to `camera` ({duration, curve, around, essential, id}); resolves with the final report.
   * @returns {Promise<object>} the `animation` message that ended it (status finished, cancelled or superseded)
   */
  ease(camera, options = {}) {
    return this.animation('ease', camera, options);
  }

  /** Flies to `camera` ({duration, speed, curve, minZoom, essential, id}); resolves with the final report. */
  fly(camera, options = {}) {
    return this.animation('fly', camera, options);
  }

  /** Animates to `to` over `options.duration` s ({curve, delay, after, essential, id}); resolves with the final report. */
  animate(to, options) {
    return this.animation('animate', to, options ?? {});
  }

  /**
   * `cancel()`: this client's animations; `cancel({id})`: one; `cancel({all: true})`: the room's (presenter).
   * @param {{id?: string, all?: boolean}} [options]
   */
  cancel(options = {}) {
    this.send(build.cancel(options));
  }

  /** Tracking: `track({mode, location})` (docs/PROTOCOL.md, Tracking). */
  track(options) {
    this.send(build.track(options));
  }

  /** The room's route: `route(points)` replaces it ([] clears it), `route(points, {append: true})` extends it. */
  route(points, options = {}) {
    this.send(build.route(points, options));
  }

  /** Sets the room's limits ({minZoom, maxZoom, minTilt, maxTilt, maxTiltByZoom, bounds}; presenter). */
  setLimits(limits) {
    this.send(build.limits(limits));
  }

  /**
   * Asks the hub to compute against the room's camera and this client's viewport: `query('project',
   * {points})`, `'unproject'`, `'bounds'`, `'fit'` {bounds, padding}; or `'story'`: the room's storyboard whole
   * ({steps, index, playing, drivers}; presenters, and drivers where the storyboard allows them). Resolves with the
   * `result`.
   */
  query(what, params = {}) {
    const id = this.newId('q');
    return this.ask(() => build.query(id, what, params), id, 'query');
  }

  /**
   * Presenter: calls back everyone who explores or is away, or only `client` (an id of `viewports` or the roster);
   * resolves with the `result` (`summoned`: how many).
   * @param {string} [client] the one client to call back (default: everyone not following)
   */
  summon(client) {
    const id = this.newId('summon');
    return this.ask(() => build.summon(id, client), id, 'summon');
  }

  /**
   * Where the room's explorers look, as the newest `viewports` event said (presenters and drivers; empty for a
   * follower, which never gets them): {clients: [{client, name, state, region: 4 × [lon, lat]}] (at most 50),
   * others: how many more share a region}.
   */
  get viewports() {
    return this.state.viewports;
  }

  /**
   * Tells the hub this client's visible region while it explores (four [lon, lat] corners; geo/region.js
   * computes them), or null: it stops sharing. The follower pipeline does it by itself.
   * @param {number[][]|null} region
   */
  looking(region) {
    this.send(build.looking(region));
  }

  /** Presenter: `false` locks following (nobody may explore), `true` unlocks. */
  followPolicy(explore) {
    this.send(build.followPolicy(explore));
  }

  /**
   * Drivers, presenters: draws the room's map as a globe ('globe', MapLibre GL JS 5's, which blends into Web
   * Mercator as it zooms in) or flat ('mercator'), for everyone. Not answered: everyone (this client too) hears
   * `projectionChanged`; a follower's is refused with an `error` `forbidden`. Throws a ProtocolError naming
   * `projection` for any other value, before anything is sent.
   * @param {'mercator'|'globe'} projection
   */
  setProjection(projection) {
    this.send(build.projection(projection));
  }

  /**
   * Presenters (drivers where allowed): replaces the room's storyboard with `steps` (`[]` clears it); a storyboard
   * larger than one message goes as a `set` and `insert`s. Each step: `{camera: {lat, lon, zoom, bearing?, tilt?,
   * roll?, elevation?, fov?}, via?: 'fly'|'ease'|'jump', duration?, speed?, curve?, hold?, title?, notes?,
   * essential?}`. `{drivers: true}` (presenters) lets drivers edit and step it. Not answered: everyone hears
   * `storyChanged`; a refusal is an `error` event. Throws a ProtocolError naming the field before anything is sent.
   * @param {object[]} steps
   * @param {{drivers?: boolean}} [options]
   */
  setStory(steps, options = {}) {
    for (const m of storySet(steps, options)) this.send(m);
  }

  /** Puts `steps` before step `index` (from 0; undefined: at the end). */
  insertSteps(steps, index) {
    this.send(buildStory.insert(steps, index));
  }

  /** Replaces step `index`. */
  updateStep(index, step) {
    this.send(buildStory.update(index, step));
  }

  /** Moves step `from` to position `to`. */
  moveStep(from, to) {
    this.send(buildStory.move(from, to));
  }

  /** Takes step `index` out. */
  removeStep(index) {
    this.send(buildStory.remove(index));
  }

  /** Presenters: whether drivers may edit and step the room's storyboard. */
  allowStoryDrivers(allow) {
    this.send(buildStory.drivers(allow));
  }

  /**
   * Goes through the room's storyboard: `to` is 'next', 'previous', a step's index, 'play' or 'pause'. The step's
   * move is this client's animation (`id`, else the hub's `#n`): its `animation` reports come as for `fly`, and a
   * gesture or another command interrupts it. Not answered: everyone hears `storyStep`; a step outside the
   * storyboard is an `error` event (ref `step`, or the id).
   * @param {'next'|'previous'|'play'|'pause'|number} to
   * @param {{id?: string}} [options]
   */
  step(to, options = {}) {
    this.send(buildStory.step(to, options.id));
  }

  /** This client's follow state: 'following', 'exploring' or 'away'. */
  follow(state) {
    this.send(build.follow(state));
    this.state.followState = state;
  }

  /** Shows this client's pointer at (lat, lon) to the room; `pointer(null)` hides it. */
  pointer(lat, lon) {
    this.send(build.pointer(lat, lon));
  }

  /** How this client fits the room's camera to its screen from now on ('same' or 'cover'). */
  fit(mode) {
    this.send(build.fit(mode));
    this.state.session.fit = mode;
  }

  /** This client's screen size in px (the hub computes queries and fits with it). */
  viewport(width, height) {
    this.send(build.viewport(width, height));
  }

  /** One gesture as the recognizer made it (drivers and presenters; `drive/gestures.js`). */
  gesture(g) {
    this.send(build.gesture(g));
  }

  /** Replaces the session's token now (answered with `tokenRefreshed`, or an `error` code `token`). */
  refresh(token) {
    this.send(build.refresh(token));
    this.state.session.token = token;
  }

  /** Sends a message built with `build.*`; throws a CamHubError `not_joined` when not joined. */
  send(message) {
    if (!this.conn.send(message)) throw new CamHubError('not_joined', `not joined: ${message.type} was not sent`);
  }

  // -- inside ----------------------------------------------------------------------------------------

  /** The hello for each connect: what the session asks for, this client's screen, the role's events. */
  hello() {
    const { session } = this.state;
    const viewport = this.options.viewport?.();
    return build.hello({ room: session.room, role: session.role, name: session.name, token: session.token,
      rate: session.rate, viewport, events: this.options.events ?? this.state.helloEvents, fit: this.state.fit,
      encoding: this.options.encoding ?? 'binary', render: this.options.render });
  }

  newId(prefix) {
    this.lastId++;
    return `${prefix}${this.lastId}`;
  }

  animation(kind, camera, options) {
    const id = options.id ?? this.newId(kind);
    return this.ask(() => build[kind](camera, { ...options, id }), id, kind);
  }

  /**
   * Sends what `make` builds and waits for the answer to `id`; a message that does not build
   * (a ProtocolError naming the field) or cannot be sent rejects the promise.
   */
  ask(make, id, kind) {
    try {
      this.send(make());
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, kind }));
  }

  settle(id, answer, error) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (error) p.reject(error);
    else p.resolve(answer);
  }

  failPending(why) {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new CamHubError('disconnected', `${p.kind}: ${why}`));
  }

  receive(m, receivedAt) {
    const changes = this.state.apply(m);
    switch (m.type) {
      case 'welcome':
        this.tokenRetries = 0;
        /** The newest welcome (a client attached later starts from it). */
        this.welcome = m;
        this.settleReady.resolve(m);
        break;
      case 'animation':
        if ((m.owner === undefined || m.owner === this.state.me) && ENDED_STATUSES.includes(m.status)) this.settle(m.id, m);
        break;
      case 'result':
        this.settle(m.id, m);
        break;
      case 'error':
        if (m.ref) this.settle(m.ref, null, new CamHubError(m.code, m.message, m));
        break;
      case 'event':
        this.events.emit(m.event, m);
        break;
      case 'tokenExpiring':
        this.refreshSoon();
        break;
      default:
        break;
    }
    this.events.emit(m.type, m, receivedAt);
    this.events.emit('message', m, receivedAt, changes);
  }

  /** The token expires within a minute: with `getToken`, a new one is fetched and sent. */
  refreshSoon() {
    if (!this.options.getToken) return;
    this.fetchToken()
      .then((token) => this.refresh(token))
      .catch((e) => this.events.emit('tokenRefreshFailed', e)); // no token, or not sent (not joined)
  }

  async fetchToken() {
    const token = await this.options.getToken();
    if (typeof token !== 'string' || token.length === 0) throw new Error('getToken gave no token');
    this.state.session.token = token;
    return token;
  }

  connectionChanged(s, detail) {
    if (s === 'closed' || s === 'stopped') this.failPending(`connection ${detail || s}`);
    if (s === 'refused') this.refused(this.conn.refusal);
    this.events.emit('connection', s, detail);
  }

  /** The hub refused the hello or ended the session for good: a token problem with `getToken` joins again. */
  refused(refusal) {
    this.failPending(`refused (${refusal.code ?? refusal.close})`);
    const tokenProblem = refusal.code === 'token' || TOKEN_CLOSE_CODES.includes(refusal.close);
    if (tokenProblem && this.options.getToken && this.tokenRetries++ < 3) {
      this.fetchToken().then(() => this.conn.restart(), (e) => this.events.emit('tokenRefreshFailed', e));
      return;
    }
    const why = refusal.code ? refusal.message : `closed ${refusal.close}${refusal.reason ? ` (${refusal.reason})` : ''}`;
    const error = new CamHubError(refusal.code ?? 'refused', why, refusal);
    this.settleReady.reject(error);
    this.events.emit('refused', error);
  }
}

/**
 * Joins a room: returns the `Room` at once, connecting (`await room.ready` for the welcome).
 * @param {ConnectOptions} options
 * @returns {Room}
 */
export function connect(options) {
  return new Room(options).start();
}

export { ProtocolError };
