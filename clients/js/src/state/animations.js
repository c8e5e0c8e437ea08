// The room's running and queued animations as this page knows them: from
// `welcome.animations`, then every `animation` report (the page subscribes to
// `roomAnimations`, so others' too). Pure: no DOM; node-tested.

const ENDED = new Set(['finished', 'cancelled', 'superseded']);

export class LiveAnimations {
  constructor() {
    /** @type {Map<string, {id: string|null, owner: string|null, kind: string|null, status: string}>} */
    this.live = new Map();
  }

  static key(owner, id) {
    return `${owner ?? ''}\u0000${id ?? ''}`;
  }

  /** A `welcome`: its `animations` (running, delayed or waiting) replace what was known. */
  welcome(m) {
    this.live.clear();
    for (const a of m.animations ?? []) {
      this.live.set(LiveAnimations.key(a.by, a.id), { id: a.id, owner: a.by, kind: a.kind, status: a.status });
    }
  }

  /** An `animation` report; `me` is this page's client id (reports without `owner` are its own). */
  report(m, me) {
    const owner = m.owner ?? me;
    const key = LiveAnimations.key(owner, m.id);
    if (ENDED.has(m.status)) this.live.delete(key);
    else this.live.set(key, { id: m.id, owner, kind: this.live.get(key)?.kind ?? null, status: m.status === 'started' ? 'running' : m.status });
  }

  /**
   * The live animations for the panel's list, oldest first: `mine` when
   * `me` owns it (the page may cancel it by id; others' only a presenter's
   * "cancel all" ends).
   */
  entries(me) {
    return [...this.live.values()].map((a) => ({ ...a, mine: a.owner === me }));
  }

  /** "fly f1 (ana), animate look (bob, delayed)" or "none". */
  describe(nameOf) {
    if (this.live.size === 0) return 'none';
    return [...this.live.values()]
      .map((a) => {
        const what = [a.kind, a.id].filter(Boolean).join(' ') || 'animation';
        const how = a.status === 'running' || a.status === 'interrupted' ? '' : `, ${a.status}`;
        return `${what} (${a.owner ? nameOf(a.owner) : 'hub'}${how})`;
      })
      .join(', ');
  }
}
