// The people in the room as the hub listed them (welcome.roster, then
// joined/left events): client id, display name, the role each joined as and
// its follow state (followChanged events).
// Who presents and this page's own role are not kept here: `PageState` owns
// them and derives each person's current role. Pure: no DOM.

export class People {
  constructor() {
    /** @type {Map<string, {client: string, name: string|null, role: string, follow: string}>} */
    this.byClient = new Map();
  }

  clear() {
    this.byClient.clear();
  }

  /** Someone in the room (a later call for the same client replaces the entry). */
  add(client, name, role, follow = 'following') {
    this.byClient.set(client, { client, name: name ?? null, role, follow });
  }

  /** A listed person's follow state changed (someone not listed is ignored). */
  setFollow(client, state) {
    const p = this.byClient.get(client);
    if (p) p.follow = state;
  }

  /** `client`'s follow state, or null for someone not listed. */
  follow(client) {
    return this.byClient.get(client)?.follow ?? null;
  }

  remove(client) {
    this.byClient.delete(client);
  }

  has(client) {
    return this.byClient.has(client);
  }

  /** The display name the hub gave `client`, or null. */
  name(client) {
    return this.byClient.get(client)?.name ?? null;
  }

  /** The role `client` joined as, or null for someone not listed. */
  joinedAs(client) {
    return this.byClient.get(client)?.role ?? null;
  }

  get size() {
    return this.byClient.size;
  }

  /** Everyone listed, in the order they were added. */
  all() {
    return [...this.byClient.values()];
  }
}
