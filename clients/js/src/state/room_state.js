// A room as one client knows it: the session (the room and role it joins or
// joined, as the hub said), its own client id, who presents, the people and
// their follow states, the room's limits, tracking mode, route and
// animations, the rate granted, the subscriptions, the hub's camera and last
// frame, how the room's map draws the world (its projection) and where the
// room is in its storyboard.
//
// Hub messages change it only through `apply`, which says what changed
// (`Changes`). Each fact is kept once: the role and room live in `session`
// (what the next `hello` asks for, which follows what the hub granted), who
// presents in `presenter`, and each person's role is derived from those.
// Pure: no DOM, no socket.

import { People } from './people.js';
import { eventsFor } from './subscriptions.js';
import { RouteState } from './route.js';
import { LiveAnimations } from './animations.js';

/** What one hub message changed. */
export class Changes {
  constructor() {
    /** @type {Set<string>} names of the facts that changed: 'session', 'role', 'presenter', 'people', 'limits',
     *  'tracking', 'route', 'animations', 'gestures', 'audience', 'camera', 'followPolicy', 'summoned', 'view',
     *  'projection', 'story', 'viewports' */
    this.what = new Set();
    /** A line for people (someone joined, left, presents now), or null. */
    this.note = null;
    /** Our role before it changed ('role'), or what the hello asked for when the welcome granted another. */
    this.roleWas = null;
    /** Who summoned us ('summoned'): {client, name}. */
    this.summonedBy = null;
  }

  has(fact) {
    return this.what.has(fact);
  }

  add(...facts) {
    for (const f of facts) this.what.add(f);
    return this;
  }
}

/**
 * What a client joins as: the next hello's room, role, name, token, rate and fit.
 * @typedef {{room: string, role: string, name?: string, token?: string, rate?: number, fit?: string}} Session
 */

const RANK = { presenter: 0, driver: 1, follower: 2 };

export class RoomState {
  /**
   * @param {Session} session what the client joins as; kept (the
   *   same object), and changed by the hub's answers (the room and role it granted)
   */
  constructor(session) {
    this.session = session;
    this.people = new People();
    this.route = new RouteState();
    this.animations = new LiveAnimations();
    /** The hub's newest camera (welcome or frame), kept across sessions until the next welcome. */
    this.hubCamera = null;
    /** The hub's newest frame of this session, or null. */
    this.lastFrame = null;
    /**
     * How the room's map draws the world: 'mercator' (flat Web Mercator, a new room's) or 'globe' (MapLibre GL
     * JS 5's globe, which blends into Mercator as it zooms in); welcome.projection, then projectionChanged. Kept
     * across sessions until the next welcome, like the camera.
     * @type {'mercator'|'globe'}
     */
    this.projection = 'mercator';
    /**
     * The room's storyboard as every client hears it: its length, the step the room is on (null: none) with its
     * title and notes, whether autoplay runs and whether drivers may step it; null while the room has none
     * (welcome.story, then storyStep and storyChanged). The steps themselves are the presenter's.
     * @type {{count: number, index: number|null, title: string|null, notes: string|null, playing: boolean,
     *   drivers: boolean, camera?: object}|null}
     */
    this.story = null;
    this.leave();
  }

  /** Forgets what the hub said about the room (a new session starts; the client asks again). */
  leave() {
    this.me = null;
    this.presenter = null;
    /** The client whose command moved the camera last. */
    this.lastBy = null;
    this.people.clear();
    this.limits = null;
    this.tracking = 'none';
    this.rate = null;
    this.tick = null;
    /** Everyone in the room as the hub counts them (large audiences are counted, not listed). */
    this.clients = null;
    this.followers = null;
    /** The room's followers by follow state ({following, exploring, away}), null before a welcome. */
    this.followCounts = null;
    /** Whether the presenter lets followers explore (welcome.followPolicy, followPolicyChanged). */
    this.followPolicy = { explore: true, by: null };
    /** What this client last told the hub of its own map (`follow`): following, exploring or away. */
    this.followState = 'following';
    /** The view of whoever moved the camera last ({by, width, height, padding}), null before anyone did. */
    this.view = null;
    /** Where the room's explorers look (`viewports`: presenters and drivers only): {clients: [{client, name, state, region}], others}. */
    this.viewports = { clients: [], others: 0 };
    /** Gesture kinds the hub does not act on for this client. */
    this.disabledGestures = new Set();
    /** What the hub sends us besides frames (welcome.events), null before a welcome. */
    this.subscriptions = null;
    this.route.welcome({});
    this.animations.welcome({});
  }

  // -- the session -------------------------------------------------------------

  /** The room the client joins or joined. */
  get room() {
    return this.session.room;
  }

  /** The client's role: what it asks for until welcomed, then what the hub says. */
  get role() {
    return this.session.role;
  }

  /** True once the hub welcomed this session. */
  get joined() {
    return this.me !== null;
  }

  get canDrive() {
    return this.joined && (this.role === 'driver' || this.role === 'presenter');
  }

  /** The events to ask for in the next hello (the role's). */
  get helloEvents() {
    return eventsFor(this.role);
  }

  /** Changes what the next hello asks for ({room, role, name, token}); forgets the room. */
  rejoin(next) {
    Object.assign(this.session, next);
    this.leave();
  }

  // -- hub messages ------------------------------------------------------------

  /** Applies a hub message (welcome, frame, event, animation, gestures, error); says what changed. */
  apply(m) {
    switch (m.type) {
      case 'welcome':
        return this.welcome(m);
      case 'frame':
        return this.frame(m);
      case 'event':
        return this.event(m);
      case 'animation':
        this.animations.report(m, this.me);
        return new Changes().add('animations');
      case 'gestures':
        this.disabledGestures = new Set(m.disabled ?? []);
        return new Changes().add('gestures');
      default:
        return new Changes();
    }
  }

  welcome(m) {
    const changes = new Changes().add('session', 'role', 'presenter', 'people', 'limits', 'tracking', 'route',
      'animations', 'gestures', 'audience', 'camera', 'projection', 'story', 'viewports');
    if (m.role !== this.session.role) changes.roleWas = this.session.role;
    this.leave();
    this.me = m.client;
    this.session.room = m.room;
    this.session.role = m.role;
    this.presenter = m.presenter ?? null;
    this.rate = m.rate ?? null;
    this.tick = m.tick ?? null;
    this.limits = m.limits ?? null;
    this.tracking = m.tracking?.mode ?? 'none';
    this.disabledGestures = new Set(m.gestures ?? []);
    this.subscriptions = m.events ? [...m.events] : null;
    this.clients = m.clients ?? null;
    this.followers = m.followers ?? null;
    this.followCounts = countsOf(m);
    this.followPolicy = { explore: m.followPolicy?.explore ?? true, by: null };
    this.view = m.view ?? null;
    for (const e of m.roster ?? []) this.people.add(e.client, e.name, e.role, e.follow);
    if (!this.people.has(m.client)) this.people.add(m.client, null, m.role);
    this.route.welcome(m);
    this.animations.welcome(m);
    this.hubCamera = m.camera;
    this.lastFrame = null;
    this.projection = m.projection ?? 'mercator'; // a hub before projections: Mercator
    this.story = m.story ? { ...m.story } : null;
    return changes;
  }

  frame(m) {
    if (m.by) this.lastBy = m.by;
    this.hubCamera = m.camera;
    this.lastFrame = m;
    return new Changes().add('camera');
  }

  event(m) {
    const changes = new Changes();
    switch (m.event) {
      case 'joined':
        this.people.add(m.client, m.name, m.role);
        if (m.role === 'presenter') this.presenter = m.client;
        changes.note = `${this.nameOf(m.client)} joined as ${m.role}`;
        return changes.add('people');
      case 'left':
        changes.note = `${this.nameOf(m.client)} left`;
        this.people.remove(m.client);
        if (this.presenter === m.client) this.presenter = null;
        return changes.add('people');
      case 'presenterChanged':
        return this.presenterChanged(m, changes);
      case 'audience':
        this.clients = m.clients ?? this.clients;
        this.followers = m.followers ?? this.followers;
        this.followCounts = countsOf(m) ?? this.followCounts;
        return changes.add('audience');
      case 'followChanged':
        this.people.setFollow(m.client, m.state);
        return changes.add('people');
      case 'followPolicyChanged':
        this.followPolicy = { explore: m.explore, by: m.by ?? null };
        return changes.add('followPolicy');
      case 'viewChanged':
        this.view = m.view;
        return changes.add('view');
      case 'viewports':
        this.viewports = { clients: m.clients, others: m.others };
        return changes.add('viewports');
      case 'projectionChanged':
        this.projection = m.projection;
        return changes.add('projection');
      case 'storyStep':
        this.story = { count: m.count, index: m.index, title: m.title ?? null, notes: m.notes ?? null, playing: m.playing,
          drivers: this.story?.drivers ?? false, camera: m.camera };
        return changes.add('story');
      case 'storyChanged':
        this.story = m.count === 0 && m.index === null && !m.drivers ? null : {
          count: m.count, index: m.index, title: m.title ?? null, notes: m.notes ?? null, playing: m.playing, drivers: m.drivers,
          camera: m.index !== null && m.index === this.story?.index ? this.story.camera : undefined };
        return changes.add('story');
      case 'summoned':
        changes.summonedBy = m.by;
        return changes.add('summoned');
      case 'limitsChanged':
        if (m.limits) this.limits = m.limits;
        return changes.add('limits');
      case 'trackingModeChanged':
        if (m.mode) this.tracking = m.mode;
        return changes.add('tracking');
      case 'routeChanged':
        this.route.changed(m);
        return changes.add('route');
      default:
        return changes;
    }
  }

  presenterChanged(m, changes) {
    const was = this.presenter; // null already when the presenter's "left" came first
    this.presenter = m.client ?? null;
    changes.add('presenter', 'people');
    const role = this.presenter === this.me ? 'presenter' : m.demoted === this.me ? 'driver' : this.role;
    if (this.me !== null && role !== this.role) {
      changes.roleWas = this.role;
      this.session.role = role; // a demoted presenter rejoins as a driver
      changes.add('role');
    }
    if (this.presenter) changes.note = `${this.nameOf(this.presenter)} presents now`;
    else if (was) changes.note = `${this.nameOf(was)} stopped presenting`;
    return changes;
  }

  // -- reading -----------------------------------------------------------------

  /** The role of someone in the room now: ours, the presenter's, else the role they joined as (a demoted presenter drives). */
  roleOf(client) {
    if (client === this.me) return this.role;
    if (client === this.presenter) return 'presenter';
    const joinedAs = this.people.joinedAs(client);
    return joinedAs === 'presenter' ? 'driver' : joinedAs;
  }

  /** The display name of a client id (its name, else the id; "you" marks ours). */
  nameOf(client) {
    if (client === null || client === undefined) return '—';
    const name = this.people.name(client) ?? client;
    return client === this.me ? `${name} (you)` : name;
  }

  /** People {client, name, role, follow}, presenter first, then drivers, then followers, then by name. */
  roster() {
    return this.people.all()
      .map((p) => ({ client: p.client, name: p.name, role: this.roleOf(p.client),
        follow: p.client === this.me ? this.followState : p.follow }))
      .sort((a, b) => (RANK[a.role] ?? 3) - (RANK[b.role] ?? 3)
        || String(a.name ?? a.client).localeCompare(String(b.name ?? b.client)));
  }

  /** How this client fits the room's camera to its screen: 'cover' for a follower that asked for it, else 'same'. */
  get fit() {
    return this.role === 'follower' && this.session.fit === 'cover' ? 'cover' : 'same';
  }

  /** "12 following · 3 exploring · 1 away" (the room's followers), or null before the hub counted them. */
  followSummary() {
    const c = this.followCounts;
    if (!c) return null;
    return ['following', 'exploring', 'away'].map((k) => `${c[k]} ${k}`).join(' · ');
  }

  /** How many people are in the room: the hub's count when it sent one, else the listed people. */
  get headCount() {
    return Math.max(this.clients ?? 0, this.people.size);
  }
}

/** The follow counts of a welcome or audience event, or null when it has none. */
function countsOf(m) {
  if (m.following === undefined) return null;
  return { following: m.following, exploring: m.exploring ?? 0, away: m.away ?? 0 };
}
