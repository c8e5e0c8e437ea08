// What the page knows about its room: who it is, its role, who presents, who
// moved the camera last and the people in the room, kept up to date from the
// hub's welcome, frame and event messages. Pure: no DOM.

export class RoomState {
  constructor() {
    this.reset();
  }

  reset() {
    this.me = null; // our client id
    this.room = null;
    this.role = null;
    this.presenter = null; // client id or null
    this.lastBy = null; // client id whose command moved the camera last
    this.people = new Map(); // client id -> {client, name, role}
    this.disabledGestures = [];
    this.limits = null;
    this.tracking = 'none';
    this.rate = null;
    this.tick = null;
    this.clients = null; // everyone in the room (large audiences are counted, not listed)
    this.followers = null;
  }

  /** Applies a hub message (welcome, frame, event). Returns a short note for people, or null. */
  apply(m) {
    switch (m.type) {
      case 'welcome':
        return this.welcome(m);
      case 'frame':
        if (m.by) this.lastBy = m.by;
        return null;
      case 'animation':
        return null;
      case 'event':
        return this.event(m);
      default:
        return null;
    }
  }

  welcome(m) {
    this.reset();
    this.me = m.client;
    this.room = m.room;
    this.role = m.role;
    this.presenter = m.presenter ?? null;
    this.rate = m.rate ?? null;
    this.tick = m.tick ?? null;
    this.limits = m.limits ?? null;
    this.disabledGestures = [...(m.gestures ?? [])];
    this.clients = m.clients ?? null;
    this.followers = m.followers ?? null;
    for (const e of m.roster ?? []) this.people.set(e.client, { client: e.client, name: e.name ?? null, role: e.role });
    if (!this.people.has(m.client)) this.people.set(m.client, { client: m.client, name: null, role: m.role });
    return null;
  }

  event(m) {
    switch (m.event) {
      case 'joined':
        this.people.set(m.client, { client: m.client, name: m.name ?? null, role: m.role });
        if (m.role === 'presenter') this.presenter = m.client;
        return `${this.nameOf(m.client)} joined as ${m.role}`;
      case 'left': {
        const name = this.nameOf(m.client);
        this.people.delete(m.client);
        if (this.presenter === m.client) this.presenter = null;
        return `${name} left`;
      }
      case 'presenterChanged': {
        const was = this.presenter; // null already when the presenter's "left" came first
        const demoted = m.demoted ?? null;
        if (demoted) this.setRole(demoted, 'driver');
        this.presenter = m.client ?? null;
        if (this.presenter) this.setRole(this.presenter, 'presenter');
        if (!this.presenter) return was ? `${this.nameOf(was)} stopped presenting` : null;
        return `${this.nameOf(this.presenter)} presents now`;
      }
      case 'audience':
        this.clients = m.clients ?? this.clients;
        this.followers = m.followers ?? this.followers;
        return null;
      case 'limitsChanged':
        if (m.limits) this.limits = m.limits;
        return null;
      case 'trackingModeChanged':
        if (m.mode) this.tracking = m.mode;
        return null;
      default:
        return null;
    }
  }

  setRole(client, role) {
    const p = this.people.get(client);
    if (p) p.role = role;
    if (client === this.me) this.role = role;
  }

  /** The display name of a client id (its name, else the id; "you" marks ours). */
  nameOf(client) {
    if (client === null || client === undefined) return '—';
    const p = this.people.get(client);
    const name = p && p.name ? p.name : client;
    return client === this.me ? `${name} (you)` : name;
  }

  /** People sorted presenter first, then drivers, then followers, then by name. */
  roster() {
    const rank = { presenter: 0, driver: 1, follower: 2 };
    return [...this.people.values()].sort((a, b) =>
      (rank[a.role] ?? 3) - (rank[b.role] ?? 3) || String(a.name ?? a.client).localeCompare(String(b.name ?? b.client)));
  }

  /** How many people are in the room: the hub's count when it sent one, else the listed people. */
  get headCount() {
    return Math.max(this.clients ?? 0, this.people.size);
  }

  get canDrive() {
    return this.role === 'driver' || this.role === 'presenter';
  }
}
