// Follow mode as people see it: a follower's drag, wheel, pinch or arrow keys
// move its own map (motion/explore.js) and tell the hub it explores; a banner
// says so, with "Back to presenter" (key B), which glides the map back to the
// room's camera. A summons from the presenter does the same and says who
// called. A locked room keeps the map on the room's camera and says why.
// A hidden page is `away`. The presenter brings everyone back and locks
// following; presenters and drivers see who follows in the people list.
//
// What the page told the hub is `state.followState`; the map's own camera,
// while it has one, is the explorer's.

import { build } from '../../../clients/js/src/protocol/messages.js';
import { FollowControl } from '../../../clients/js/src/follow/follow_control.js';

const $ = (sel) => document.querySelector(sel);

export class FollowMode {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the role, the follow policy and state, the screen
   * @param {object} parts.conn the page's connection
   * @param {object} parts.explorer the follower's own map (`Explorer`)
   * @param {() => number} parts.now the page clock (ms)
   * @param {(text: string, kind: string, ms: number) => void} parts.toast a notice for a few seconds
   * @param {import('./controls.js').Controls} parts.controls for the follower's "Take control" prompt
   * @param {import('./session.js').Session} parts.session puts the fit mode into the address bar
   */
  constructor({ state, conn, explorer, now, toast, controls, session }) {
    this.state = state;
    this.conn = conn;
    this.explorer = explorer;
    this.toast = toast;
    this.controls = controls;
    this.session = session;
    /** The follow logic (no DOM); this class renders it and wires the page's buttons and keys. */
    this.control = new FollowControl({ state, explorer, now,
      send: (m) => conn.send(m), shown: () => state.screen.rendered,
      roomCamera: () => state.screen.lastSample?.camera ?? null });
    /** Who summoned this page last ({client, name}), or null. */
    this.summonedBy = null;
    /** Called after each update (whether it explores changed, say): the story caption's way back. */
    this.onUpdate = () => {};
    this.banner = $('#explore-banner');
    $('#back-to-presenter').addEventListener('click', () => this.back());
    $('#summon').addEventListener('click', () => this.conn.send(build.summon()));
    $('#lock-follow').addEventListener('click', () => this.conn.send(build.followPolicy(!this.state.followPolicy.explore)));
    $('#take-control').addEventListener('click', () => this.controls.offerTakeover());
    $('#fit-cover').addEventListener('change', (ev) => this.setFit(ev.target.checked ? 'cover' : 'same'));
    document.addEventListener('keydown', (ev) => {
      if (ev.key !== 'b' && ev.key !== 'B') return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey || isFormField(ev.target) || !this.explorer.exploring) return;
      if (this.state.role !== 'follower') return; // a presenter's local look: page/explorer_views.js
      ev.preventDefault();
      this.back();
    });
    document.addEventListener('visibilitychange', () => this.visibility(document.hidden));
  }

  /** True when this page's local input explores (a follower in a room that allows it). */
  get mayExplore() {
    return this.control.mayExplore;
  }

  /** A follower's gesture (the recognizer's output): moves its own map, exploring from the first that moves it. */
  input(g) {
    const outcome = this.control.input(g);
    if (outcome === 'refused') return this.refuse();
    if (outcome === 'explored') this.update();
    return undefined;
  }

  /** Local input in a room whose presenter locked following: the map stays, and the notice says why. */
  refuse() {
    const { state, toast } = this;
    if (!state.joined || state.role !== 'follower') return;
    toast(this.lockText(), 'info', 3000);
  }

  /** Why a follower's map stays on the room's camera while the room is locked. */
  lockText() {
    const { state } = this;
    const who = state.followPolicy.by ? state.nameOf(state.followPolicy.by) : 'The presenter';
    return `${who} keeps everyone on the presenter's view (following is locked)`;
  }

  /** Glides back to the room's camera and follows again. */
  back() {
    this.control.back();
    this.update();
  }

  /** The hub's answer to something follow mode shows (a welcome, a summons, the policy, people). */
  changed(changes) {
    const by = changes.has('summoned') ? changes.summonedBy : null;
    if (by) {
      this.summonedBy = by;
      this.toast(`${by.name ?? by.client} brought everyone back`, 'info', 3000);
    }
    this.control.changed(changes, document.hidden); // a summons glides back
    this.update();
  }

  /** The page was hidden (`away`) or shows again. */
  visibility(hidden) {
    this.control.visibility(hidden);
  }

  /** Shows the room's camera as it is (`same`) or at least the presenter's area (`cover`); the address keeps it. */
  setFit(mode) {
    const { state, conn, session } = this;
    state.params.fit = mode;
    conn.send(build.fit(mode));
    session.showAddress();
    this.update();
  }

  /** The banner, the presenter's buttons and the follower's "Take control". */
  update() {
    const { state, explorer } = this;
    this.banner.hidden = !explorer.exploring || state.role !== 'follower';
    const presenting = state.joined && state.role === 'presenter';
    $('#summon').hidden = !presenting;
    const lock = $('#lock-follow');
    lock.hidden = !presenting;
    lock.setAttribute('aria-pressed', String(!state.followPolicy.explore));
    lock.textContent = state.followPolicy.explore ? 'Lock following' : 'Unlock following';
    const following = state.joined && state.role === 'follower';
    $('#take-control').hidden = !following;
    $('#fit-toggle').hidden = !following;
    $('#share-toggle').hidden = !following;
    $('#fit-cover').checked = state.params.fit === 'cover';
    document.body.classList.toggle('follow-locked', !state.followPolicy.explore);
    const notice = $('#lock-notice');
    notice.hidden = !(following && !state.followPolicy.explore);
    if (!notice.hidden) notice.textContent = this.lockText();
    this.onUpdate();
  }
}

function isFormField(target) {
  const tag = target && target.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || (target && target.isContentEditable);
}
