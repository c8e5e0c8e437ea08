// The panel's "Recordings" section: where the hub records (`camhub serve
// --record`: /map/config.json names /recordings) and the page presents, it lists the
// hub's recordings, opens one (fetched, gunzipped, parsed) and plays its
// commands into the page's room through the page's connection, with play,
// pause and a seek slider (semantics: recording_timeline.js and
// docs/RECORDING.md). It keeps only what is its own: the list, the open
// recording and its timeline.

import { gunzipText } from './gunzip.js';
import { Timeline, parseRecording } from './recording_timeline.js';

/** How often the playing timeline sends what is due and moves the slider (ms). */
const TICK_MS = 20;

/** "1:05.3" for 65.3 seconds. */
export function formatSeconds(s) {
  const m = Math.floor(s / 60);
  const rest = (s - m * 60).toFixed(1).padStart(4, '0');
  return `${m}:${rest}`;
}

export class Recordings {
  /** deps: {conn, state (PageState), now, toast, token() (the page's token or undefined), viewport() (the page's {width, height})} */
  constructor(deps) {
    this.d = deps;
    this.$ = (sel) => document.querySelector(sel);
    this.available = null; // null: not asked yet; true/false: the hub records (/map/config.json)
    this.asking = false;
    this.list = []; // {room, file, part, bytes, started}
    this.open = null; // {room, file, timeline}
    this.timer = null;
    this.dragging = false;
    this.$('#recording-refresh').addEventListener('click', () => this.refresh());
    this.$('#recording-controls').addEventListener('toggle', (ev) => {
      if (ev.target.open && this.presenting && !this.asking) this.refresh(); // the list as it is now
    });
    this.$('#recording-open').addEventListener('click', () => this.openSelected());
    this.$('#recording-play').addEventListener('click', () => (this.open?.timeline.playing ? this.pause() : this.play()));
    const seek = this.$('#recording-seek');
    seek.addEventListener('input', () => {
      this.dragging = true;
      this.showTime(Number(seek.value));
    });
    seek.addEventListener('change', () => {
      this.dragging = false;
      this.seek(Number(seek.value));
    });
  }

  get presenting() {
    return this.d.conn.joined && this.d.state.joined && this.d.state.role === 'presenter';
  }

  /** The page's role or connection changed: shown only to a presenter on a hub that records. */
  update() {
    if (!this.presenting) this.stopClock();
    else if (this.available === null && !this.asking) this.refresh();
    this.$('#recording-controls').hidden = !(this.presenting && this.available);
    this.render();
  }

  headers() {
    const token = this.d.token();
    return token ? { Authorization: `Bearer ${token}` } : {};
  }

  /**
   * GET /recordings: the parts this page's credential opens. The first time,
   * /map/config.json says whether the hub records (`recordings` is its path or
   * null), so a hub that does not is never asked (no 404 in the console).
   */
  async refresh() {
    this.asking = true;
    try {
      if (this.available === null) {
        const config = await fetch('/map/config.json', { cache: 'no-store' }).then((r) => (r.ok ? r.json() : {}));
        this.available = typeof config.recordings === 'string';
        if (!this.available) return;
      }
      const r = await fetch('/recordings', { headers: this.headers(), cache: 'no-store' });
      if (r.ok) {
        this.list = (await r.json()).recordings ?? [];
        this.status(this.list.length ? '' : 'No recordings yet');
      } else {
        this.status(`Recordings: ${(await r.text()).trim()}`);
      }
    } catch (e) {
      this.status(`Recordings: ${e.message}`);
    } finally {
      this.asking = false;
      this.update();
    }
  }

  /** Fetches, gunzips and parses the selected part; the timeline starts at 0, paused. */
  async openSelected() {
    const choice = this.list[Number(this.$('#recording-list').value)];
    if (!choice) return;
    this.stopClock();
    this.pause();
    const path = `/recordings/${encodeURIComponent(choice.room)}/${encodeURIComponent(choice.file)}`;
    try {
      const r = await fetch(path, { headers: this.headers(), cache: 'no-store' });
      if (!r.ok) throw new Error((await r.text()).trim() || `HTTP ${r.status}`);
      const { text, truncated } = await gunzipText(new Uint8Array(await r.arrayBuffer()));
      const recording = parseRecording(text, { truncated });
      this.open = { room: choice.room, file: choice.file, timeline: new Timeline(recording, { ownViewport: this.d.viewport }) };
      const commands = this.open.timeline.commands.length;
      this.status(`${choice.room} · ${choice.file} · ${commands} command${commands === 1 ? '' : 's'}${truncated ? ' (still being written: up to its last second)' : ''}`);
    } catch (e) {
      this.open = null;
      this.d.toast(`${choice.file}: ${e.message}`, 'error', 6000);
      this.status(`Cannot open ${choice.file}: ${e.message}`);
    }
    this.render();
  }

  play() {
    if (!this.open || !this.presenting) return;
    this.send(this.open.timeline.play(this.d.now()));
    this.startClock();
    this.render();
  }

  pause() {
    if (!this.open) return;
    this.stopClock();
    this.send(this.open.timeline.pause(this.d.now()));
    this.render();
  }

  seek(at) {
    if (!this.open || !this.presenting) return;
    this.send(this.open.timeline.seek(at, this.d.now()));
    this.render();
  }

  send(messages) {
    for (const m of messages) this.d.conn.send(m);
  }

  tick() {
    const t = this.open?.timeline;
    if (!t) return this.stopClock();
    this.send(t.due(this.d.now()));
    if (!t.playing) this.stopClock();
    this.render();
  }

  startClock() {
    if (this.timer === null) this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /** Stops sending (the role was lost, or the clock stopped); the timeline keeps its position. */
  stopClock() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.open?.timeline.playing && !this.presenting) this.open.timeline.pause(this.d.now());
  }

  status(text) {
    this.$('#recording-status').textContent = text;
  }

  showTime(at) {
    const duration = this.open?.timeline.duration ?? 0;
    this.$('#recording-time').textContent = `${formatSeconds(at)} / ${formatSeconds(duration)}`;
  }

  render() {
    const select = this.$('#recording-list');
    const value = select.value;
    const options = this.list.map((p, i) => new Option(`${p.room} · ${p.started.replace('T', ' ').replace('Z', ' UTC')} · part ${p.part} · ${Math.ceil(p.bytes / 1024)} KiB`, String(i)));
    const labels = options.map((o) => o.text).join('\n');
    if (select.dataset.labels !== labels) {
      select.replaceChildren(...options);
      select.dataset.labels = labels;
      if (value && Number(value) < options.length) select.value = value;
    }
    const t = this.open?.timeline;
    const can = this.presenting;
    this.$('#recording-open').disabled = !can || !this.list.length;
    const play = this.$('#recording-play');
    play.disabled = !can || !t;
    play.textContent = t?.playing ? 'Pause' : 'Play';
    play.setAttribute('aria-pressed', String(Boolean(t?.playing)));
    const seek = this.$('#recording-seek');
    seek.disabled = !can || !t;
    seek.min = String(t?.start ?? 0);
    seek.max = String(t?.duration ?? 0);
    if (!this.dragging) {
      const at = t ? t.position(this.d.now()) : 0;
      seek.value = String(at);
      this.showTime(at);
    }
  }
}
