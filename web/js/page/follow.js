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

const $ = (sel) => document.querySelector(sel);

export class FollowMode {
  /**
   * @param {object} page {state, conn, explorer, now, toast, controls, session}
   */
  constructor(page) {
    this.page = page;
    /** Who summoned this page last ({client, name}), or null. */
    this.summonedBy = null;
    this.banner = $('#explore-banner');
    $('#back-to-presenter').addEventListener('click', () => this.back());
    $('#summon').addEventListener('click', () => this.page.conn.send(build.summon()));
    $('#lock-follow').addEventListener('click', () => this.page.conn.send(build.followPolicy(!this.page.state.followPolicy.explore)));
    $('#take-control').addEventListener('click', () => this.page.controls.offerTakeover());
    $('#fit-cover').addEventListener('change', (ev) => this.setFit(ev.target.checked ? 'cover' : 'same'));
    document.addEventListener('keydown', (ev) => {
      if (ev.key !== 'b' && ev.key !== 'B') return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey || isFormField(ev.target) || !this.page.explorer.exploring) return;
      ev.preventDefault();
      this.back();
    });
    document.addEventListener('visibilitychange', () => this.visibility(document.hidden));
  }

  /** True when this page's local input explores (a follower in a room that allows it). */
  get mayExplore() {
    const { state } = this.page;
    return state.joined && state.role === 'follower' && state.followPolicy.explore;
  }

  /** A follower's gesture (the recognizer's output): moves its own map, exploring from the first that moves it. */
  input(g) {
    const { explorer, state, now } = this.page;
    if (g.kind === 'tap' || g.kind === 'longPress') return undefined; // moves nothing (a click on the map, a pick)
    if (!this.mayExplore) return this.refuse();
    const t = now();
    if (!explorer.exploring) {
      explorer.explore(state.screen.rendered ?? state.hubCamera, t);
      this.tell('exploring');
    }
    explorer.gesture(build.gesture(g), t);
    this.update();
  }

  /** Local input in a room whose presenter locked following: the map stays, and the notice says why. */
  refuse() {
    const { state, toast } = this.page;
    if (!state.joined || state.role !== 'follower') return;
    toast(this.lockText(), 'info', 3000);
  }

  /** Why a follower's map stays on the room's camera while the room is locked. */
  lockText() {
    const { state } = this.page;
    const who = state.followPolicy.by ? state.nameOf(state.followPolicy.by) : 'The presenter';
    return `${who} keeps everyone on the presenter's view (following is locked)`;
  }

  /** Glides back to the room's camera and follows again (`by`: who summoned, for the toast). */
  back(by = null) {
    const { explorer, state, now, toast } = this.page;
    if (by) {
      this.summonedBy = by;
      toast(`${by.name ?? by.client} brought everyone back`, 'info', 3000);
    }
    if (explorer.active) explorer.back(now(), state.screen.lastSample?.camera ?? state.hubCamera);
    if (state.followState !== 'away') this.tell('following');
    this.update();
  }

  /** The hub's answer to something follow mode shows (a welcome, a summons, the policy, people). */
  changed(changes) {
    const { explorer, state } = this.page;
    if (changes.has('session')) {
      explorer.reset();
      explorer.setLimits(state.limits);
      if (document.hidden) this.visibility(true);
    }
    if (changes.has('limits')) explorer.setLimits(state.limits);
    if (changes.has('summoned')) this.back(changes.summonedBy);
    else if (changes.has('followPolicy') && !state.followPolicy.explore && explorer.active) this.back();
    this.update();
  }

  /** The page was hidden (`away`) or shows again. */
  visibility(hidden) {
    const { state } = this.page;
    if (!state.joined) return;
    // Back from away, the state says what the map shows: a page that explored still does.
    this.tell(hidden ? 'away' : this.page.explorer.exploring ? 'exploring' : 'following');
  }

  /** Shows the room's camera as it is (`same`) or at least the presenter's area (`cover`); the address keeps it. */
  setFit(mode) {
    const { state, conn, session } = this.page;
    state.params.fit = mode;
    conn.send(build.fit(mode));
    session.showAddress();
    this.update();
  }

  /** Tells the hub this page's follow state (once per change). */
  tell(followState) {
    const { state, conn } = this.page;
    if (state.followState === followState) return;
    state.followState = followState;
    conn.send(build.follow(followState));
  }

  /** The banner, the presenter's buttons and the follower's "Take control". */
  update() {
    const { state, explorer } = this.page;
    this.banner.hidden = !explorer.exploring;
    const presenting = state.joined && state.role === 'presenter';
    $('#summon').hidden = !presenting;
    const lock = $('#lock-follow');
    lock.hidden = !presenting;
    lock.setAttribute('aria-pressed', String(!state.followPolicy.explore));
    lock.textContent = state.followPolicy.explore ? 'Lock following' : 'Unlock following';
    const following = state.joined && state.role === 'follower';
    $('#take-control').hidden = !following;
    $('#fit-toggle').hidden = !following;
    $('#fit-cover').checked = state.params.fit === 'cover';
    document.body.classList.toggle('follow-locked', !state.followPolicy.explore);
    const notice = $('#lock-notice');
    notice.hidden = !(following && !state.followPolicy.explore);
    if (!notice.hidden) notice.textContent = this.lockText();
  }
}

function isFormField(target) {
  const tag = target && target.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || (target && target.isContentEditable);
}
