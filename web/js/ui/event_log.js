// The page's event log: the room's events and animation reports as they
// arrive, newest first, bounded (the oldest fall off). Pure: the page renders
// `lines()`.

export class EventLog {
  constructor(max = 100) {
    this.max = max;
    this.entries = []; // newest first: {t (hub ms), kind, text}
  }

  /** Adds a hub `event` or `animation` message; `nameOf(client)` names people. */
  add(m, nameOf = (c) => c) {
    const entry = describe(m, nameOf);
    if (!entry) return null;
    this.entries.unshift(entry);
    if (this.entries.length > this.max) this.entries.length = this.max;
    return entry;
  }

  /** `HH:MM:SS kind: text` per entry, newest first (times in the page's time zone). */
  lines() {
    return this.entries.map((e) => `${clock(e.t)} ${e.kind}${e.text ? `: ${e.text}` : ''}`);
  }
}

function describe(m, nameOf) {
  const who = (c) => (c ? nameOf(c) : 'someone');
  if (m.type === 'animation') {
    const reason = m.reason ? ` (${m.reason})` : '';
    return { t: m.time, kind: 'animation', text: `${m.id} ${m.status}${m.by ? ` by ${who(m.by)}` : ''}${reason}` };
  }
  if (m.type !== 'event') return null;
  switch (m.event) {
    case 'joined': return { t: m.time, kind: 'joined', text: `${m.name ?? who(m.client)} (${m.role})` };
    case 'left': return { t: m.time, kind: 'left', text: `${m.name ?? who(m.client)}` };
    case 'presenterChanged': return { t: m.time, kind: 'presenter', text: m.client ? who(m.client) : 'none' };
    case 'trackingModeChanged': return { t: m.time, kind: 'tracking', text: `${m.mode}${m.by ? ` by ${who(m.by)}` : ''}` };
    case 'limitsChanged': return { t: m.time, kind: 'limits', text: m.by ? `by ${who(m.by)}` : '' };
    case 'audience': return { t: m.time, kind: 'audience', text: `${m.clients} clients, ${m.followers} followers` };
    case 'steady': return { t: m.time, kind: 'steady', text: '' };
    case 'projectionChanged': return { t: m.time, kind: 'projection', text: `${m.projection}${m.by ? ` by ${who(m.by)}` : ''}` };
    case 'storyStep': {
      const state = m.playing ? ' (autoplay)' : '';
      return { t: m.time, kind: 'story', text: `step ${m.index + 1} of ${m.count}${m.title ? `: ${m.title}` : ''}${state}${m.by ? ` by ${who(m.by)}` : ''}` };
    }
    case 'storyChanged': return { t: m.time, kind: 'story', text: `${m.op ?? 'drivers'}: ${m.count} steps${m.by ? ` by ${who(m.by)}` : ''}` };
    default: return { t: m.time, kind: m.event, text: m.by ? `by ${who(m.by)}` : '' };
  }
}

function clock(t) {
  if (!Number.isFinite(t)) return '--:--:--';
  const d = new Date(t);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}
