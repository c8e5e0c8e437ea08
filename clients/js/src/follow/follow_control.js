// Follow mode for one client, without the DOM: a follower's own gestures move
// its own camera (`Explorer`) and tell the hub it explores; `back()` glides to
// the room's camera and follows again; a summons or a lock brings it back; a
// hidden screen is `away`. What the client told the hub is
// `state.followState`. The viewer's follow mode and the MapLibre adapter both
// steer it and render what it says.

import { build } from '../protocol/messages.js';
import { LookingReporter } from './looking.js';

export class FollowControl {
  /**
   * @param {object} o
   * @param {import('../state/room_state.js').RoomState} o.state the room as this client knows it
   * @param {import('./explore.js').Explorer} o.explorer this client's own camera while it explores
   * @param {(message: object) => boolean} o.send sends a message to the hub (false when not joined)
   * @param {() => number} o.now local clock, ms
   * @param {() => object|null} o.shown the camera on screen now (wire form), or null
   * @param {() => object|null} o.roomCamera the room's camera as played out now (where `back` glides to)
   */
  constructor({ state, explorer, send, now, shown, roomCamera }) {
    this.state = state;
    this.explorer = explorer;
    this.send = send;
    this.now = now;
    this.shown = shown;
    this.roomCamera = roomCamera;
    /** Tells the hub where the explored map looks (`looking`), at most 2 times a second. */
    this.looking = new LookingReporter({ send });
  }

  /**
   * Once per painted frame: `camera` is what the page shows at local time `t` (ms) in `viewport` (px). While
   * this client explores (and told the hub so) its visible region becomes `looking`, throttled; otherwise
   * nothing is sent.
   * @param {number} t
   * @param {object|null} camera
   * @param {{width: number, height: number}} viewport
   */
  /**
   * Turns sharing the visible region on or off (off after sharing tells the hub `region: null`).
   * @param {boolean} on
   */
  setSharing(on) {
    this.looking.setSharing(on);
  }

  looked(t, camera, viewport) {
    const exploring = this.explorer.exploring && this.state.followState === 'exploring';
    return this.looking.update(t, exploring ? camera : null, viewport, this.state.projection);
  }

  /** True when local input explores (a follower in a room whose presenter allows it). */
  get mayExplore() {
    const { state } = this;
    return state.joined && state.role === 'follower' && state.followPolicy.explore;
  }

  /**
   * A follower's gesture (the recognizer's output): moves its own camera, exploring from the first that
   * moves it. Returns 'explored', 'ignored' (taps and long presses move nothing) or 'refused' (not allowed).
   */
  input(g) {
    const { explorer, state } = this;
    if (g.kind === 'tap' || g.kind === 'longPress') return 'ignored';
    if (!this.mayExplore) return 'refused';
    const t = this.now();
    if (!explorer.exploring) {
      explorer.explore(this.shown() ?? state.hubCamera, t);
      this.tell('exploring');
    }
    explorer.gesture(build.gesture(g), t);
    return 'explored';
  }

  /** Glides back to the room's camera and follows again (a hidden client stays `away`). */
  back() {
    const { explorer, state } = this;
    if (explorer.active) explorer.back(this.now(), this.roomCamera() ?? state.hubCamera);
    if (state.followState !== 'away') this.tell('following');
  }

  /** The hub's answer to something follow mode depends on (`Changes` of a welcome, a summons, the policy, limits). */
  changed(changes, hidden = false) {
    const { explorer, state } = this;
    if (changes.has('session')) {
      explorer.reset();
      this.looking.reset();
      explorer.setLimits(state.limits);
      if (hidden) this.visibility(true);
    }
    if (changes.has('limits')) explorer.setLimits(state.limits);
    if (changes.has('summoned')) this.back();
    else if (changes.has('followPolicy') && !state.followPolicy.explore && explorer.active) this.back();
  }

  /** The screen was hidden (`away`) or shows again (a client that explored still does). */
  visibility(hidden) {
    if (!this.state.joined) return;
    this.tell(hidden ? 'away' : this.explorer.exploring ? 'exploring' : 'following');
  }

  /** Tells the hub this client's follow state (once per change). */
  tell(followState) {
    const { state } = this;
    if (state.followState === followState) return;
    state.followState = followState;
    this.send(build.follow(followState));
  }
}
