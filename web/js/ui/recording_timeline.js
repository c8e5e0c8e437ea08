// A recording of `camhub serve --record` (docs/RECORDING.md) played into the
// page's room as `camhub replay` plays it: each recorded command at its time
// `t`, with the recorded sender's viewport declared first whenever it changes;
// a seek to T first sends what brings the room to the recording at T (the last
// `limits` before T, a `set` to the last camera an animation ended with before
// T); a resume after a pause first sends the ease/fly the pause cut, with
// the time they had left. Pure: parsing, the prelude of a seek and the play/pause clock; the
// caller sends what it returns and owns the timer. Times are the page's clock
// in ms; positions are seconds into the recording.

import { build } from '../../../clients/js/src/protocol/messages.js';

export class RecordingFormatError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RecordingFormatError';
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The entries of a recording's JSON lines: {room, started, part, entries,
 * start, duration} (seconds since the room's first entry: a part after the
 * first starts at its first entry's `t`).
 * entries: {t, kind: 'command', viewport: {width, height} | null, message (the
 * message as an object)} or {t, kind: 'animationEnded', camera}, in file order.
 * `truncated` (the file was cut: still being written, or the hub was killed):
 * a last line that does not parse is dropped instead of being an error.
 */
export function parseRecording(text, { truncated = false } = {}) {
  const lines = text.split('\n');
  let room = null;
  let started = null;
  let part = null;
  const entries = [];
  lines.forEach((line, i) => {
    if (line === '') return;
    const fail = (what) => {
      throw new RecordingFormatError(`line ${i + 1}: ${what}`);
    };
    let o;
    try {
      o = JSON.parse(line);
    } catch (e) {
      if (truncated && i === lines.length - 1) return; // a line cut by the end of the data
      fail(`not JSON (${e.message})`);
    }
    if (!isObject(o) || typeof o.type !== 'string') fail('not an object with a type');
    if (o.type === 'recording') {
      if (o.version !== 1) fail(`recording version ${JSON.stringify(o.version)} is not 1`);
      if (typeof o.room !== 'string') fail('the header has no room');
      room ??= o.room;
      started ??= Number.isFinite(o.started) ? o.started : null;
      part ??= Number.isInteger(o.part) ? o.part : 1;
      return;
    }
    if (room === null) fail('an entry before the recording header');
    if (!Number.isFinite(o.t) || o.t < 0) fail('"t" must be seconds ≥ 0');
    if (o.type === 'command') {
      if (typeof o.message !== 'string') fail('"message" must be a string');
      let message;
      try {
        message = JSON.parse(o.message);
      } catch {
        fail('"message" is not JSON');
      }
      if (!isObject(message) || typeof message.type !== 'string') fail('"message" is not a message with a type');
      const v = o.viewport;
      const viewport = isObject(v) && Number.isFinite(v.width) && Number.isFinite(v.height) ? { width: v.width, height: v.height } : null;
      entries.push({ t: o.t, kind: 'command', client: o.client ?? null, viewport, message });
    } else if (o.type === 'animationEnded') {
      if (!isObject(o.camera)) fail('"camera" must be an object');
      entries.push({ t: o.t, kind: 'animationEnded', id: o.id ?? null, owner: o.owner ?? null, camera: o.camera });
    } else {
      fail(`unknown entry type ${JSON.stringify(o.type)}`);
    }
  });
  if (room === null) throw new RecordingFormatError('no recording header (is this a camhub recording?)');
  const duration = entries.reduce((max, e) => Math.max(max, e.t), 0);
  // `t` counts from the room's first entry in every part: a later part begins where it was cut.
  const start = part > 1 && entries.length ? entries.reduce((min, e) => Math.min(min, e.t), Infinity) : 0;
  return { room, started, part, entries, start, duration };
}

/** A recorded camera as `set` takes it (its padding is not part of `set`'s camera, as in `camhub replay`). */
function settable(camera) {
  const { padding, ...rest } = camera;
  return rest;
}

/**
 * What brings a room to where the recording was at `at` seconds (`camhub
 * replay --from`): the last `limits` command before it, then a `set` to the
 * camera of the animation that ended last before it (by `t`: an end may be
 * written just after a command handled a few ms later). Empty at 0.
 */
export function preludeAt(entries, at) {
  let limits = null;
  let ended = null;
  for (const e of entries) {
    if (e.t >= at) continue;
    if (e.kind === 'command' && e.message.type === 'limits') limits = e.message;
    if (e.kind === 'animationEnded' && (ended === null || e.t >= ended.t)) ended = e;
  }
  const out = [];
  if (limits) out.push(limits);
  if (ended) out.push(build.set(settable(ended.camera)));
  return out;
}

/**
 * The `ease` and `fly` commands sent before `at` whose animation was still
 * running at `at` (its recorded end comes later), each again with the
 * duration it had left: sent when play resumes after a pause, so the camera
 * goes on to where the recording went and arrives when it did (by another
 * path: from where the pause stopped it). Animations without an id, and
 * `animate` (delays, chains), are not resumed.
 */
export function inFlightAt(entries, at) {
  const out = [];
  entries.forEach((c, i) => {
    if (c.kind !== 'command' || c.t >= at || typeof c.message.id !== 'string') return;
    if (c.message.type !== 'ease' && c.message.type !== 'fly') return;
    const end = entries.slice(i + 1).find((e) => e.kind === 'animationEnded' && e.id === c.message.id && e.owner === c.client);
    if (!end || end.t <= at) return;
    const { speed, ...message } = c.message;
    out.push({ ...c, message: { ...message, duration: end.t - at } });
  });
  return out;
}

/** A recorded command as the page sends it: a gesture's `seq` is left out (its ack would be for a gesture this page never made). */
function outgoing(message) {
  if (message.type !== 'gesture' || message.seq === undefined) return message;
  const { seq, ...rest } = message;
  return rest;
}

const sameViewport = (a, b) => a !== null && b !== null && a.width === b.width && a.height === b.height;

/**
 * The play/pause/seek clock over a parsed recording. Every method returns the
 * messages to send now, in order. `ownViewport()` is the page's viewport: it
 * is declared again when the player stops (pause, end) after declaring a
 * recorded one, so the page's own gestures mean what they show.
 */
export class Timeline {
  constructor(recording, { ownViewport = () => null } = {}) {
    this.recording = recording;
    this.commands = recording.entries.filter((e) => e.kind === 'command');
    this.ownViewport = ownViewport;
    this.base = recording.start ?? 0; // position (s) at `anchor`, or where it stands while paused
    this.anchor = null; // page time (ms) when play started or resumed; null while paused
    this.next = 0; // index of the next command to send
    this.declared = null; // the recorded viewport last sent
    this.ended = false;
    this.cut = null; // where a pause stopped the clock (its running animations are resumed on play)
  }

  /** Where the recording (this part) begins and ends, in seconds since the room's first entry. */
  get start() {
    return this.recording.start ?? 0;
  }

  get duration() {
    return this.recording.duration;
  }

  get playing() {
    return this.anchor !== null;
  }

  /** Seconds into the recording at page time `now`. */
  position(now) {
    if (this.anchor === null) return this.base;
    return Math.min(this.duration, this.base + (now - this.anchor) / 1000);
  }

  /**
   * Starts or resumes at the current position (from the start again once
   * ended): after a pause, first the `ease`/`fly` the pause cut, with the
   * time they had left (`inFlightAt`); then `due` sends.
   */
  play(now) {
    if (this.playing) return [];
    const out = [];
    if (this.ended) out.push(...this.seek(this.start, now));
    if (this.cut !== null) {
      for (const c of inFlightAt(this.recording.entries, this.cut)) this.emit(out, c);
      this.cut = null;
    }
    this.anchor = now;
    return [...out, ...this.due(now)];
  }

  /**
   * Stops the clock where it is and the camera with it: `cancel` (this
   * client's own animations: what the player started). Play goes on from
   * here.
   */
  pause(now) {
    if (!this.playing) return [];
    this.base = this.position(now);
    this.anchor = null;
    this.cut = this.base;
    return [build.cancel(), ...this.release()];
  }

  /**
   * Moves to `at` seconds (clamped to this part): cancels the player's
   * animations, sends `preludeAt(at)`; playing goes on from there.
   */
  seek(at, now) {
    const to = Math.max(this.start, Math.min(this.duration, at));
    this.base = to;
    if (this.anchor !== null) this.anchor = now;
    this.ended = false;
    this.cut = null;
    this.next = this.commands.findIndex((c) => c.t >= to);
    if (this.next < 0) this.next = this.commands.length;
    return [build.cancel(), ...preludeAt(this.recording.entries, to)];
  }

  /** The commands due by `now`, each after its sender's viewport when that changed; at the end the clock stops. */
  due(now) {
    if (!this.playing) return [];
    const at = this.position(now);
    const out = [];
    while (this.next < this.commands.length && this.commands[this.next].t <= at) this.emit(out, this.commands[this.next++]);
    if (this.next >= this.commands.length && at >= this.duration) {
      this.base = this.duration;
      this.anchor = null;
      this.ended = true;
      out.push(...this.release());
    }
    return out;
  }

  /** Appends command `c` to `out`, after its sender's viewport when that differs from the one declared last. */
  emit(out, c) {
    if (c.viewport && !sameViewport(c.viewport, this.declared)) {
      out.push(build.viewport(c.viewport.width, c.viewport.height));
      this.declared = c.viewport;
    }
    out.push(outgoing(c.message));
  }

  /** The page's own viewport again, when a recorded one was declared. */
  release() {
    const own = this.ownViewport();
    if (!this.declared || !own) return [];
    const out = sameViewport(own, this.declared) ? [] : [build.viewport(own.width, own.height)];
    this.declared = own;
    return out;
  }
}
