// The viewer page's state: the room as the client library keeps it
// (`RoomState`: session, people, limits, route, animations, the hub's camera),
// plus what only the page has: what is on its screen and the counters for
// tests. The page's session is its `params` (ui/params.js: room, role, name,
// token, rate, lag, predict, problems), which the hub's answers change.
// Pure: no DOM.

import { RoomState, Changes } from '../../../clients/js/src/state/room_state.js';
import { Screen } from './screen.js';
import { Diagnostics } from './diagnostics.js';

export { Changes };

export class PageState extends RoomState {
  /**
   * @param {object} params what the page joins as (ui/params.js); kept, and changed by the hub's answers
   * @param {{width: number, height: number}} viewport the map element's size
   */
  constructor(params, viewport) {
    super(params);
    this.screen = new Screen(viewport);
    this.diagnostics = new Diagnostics();
  }

  /** The page's parameters: the session `RoomState` keeps, under the name the page's modules use. */
  get params() {
    return this.session;
  }

  /** Applies a hub message, counting what the tests read (frames, animations, errors). */
  apply(m) {
    if (m.type === 'frame') this.diagnostics.frame();
    else if (m.type === 'animation') this.diagnostics.animation(m);
    else if (m.type === 'error') this.diagnostics.error(m);
    return super.apply(m);
  }
}
