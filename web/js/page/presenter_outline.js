// While a follower explores: the presenter's visible area (the room's camera
// in the mover's view) outlined on the page's own map, and an arrow at the
// screen's edge pointing to it when it is off screen. Updated with the HUD,
// ten times a second.

import { presenterArea, edgeArrow } from '../map/presenter_area.js';

const NOTHING = { type: 'FeatureCollection', features: [] };

export class PresenterOutline {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the page state (the room's view size, the screen)
   * @param {object} parts.explorer the follower's own map (`Explorer`): outlined only while it is active
   * @param {import('../map/map_view.js').MapView} parts.mapView where the outline is drawn
   */
  constructor({ state, explorer, mapView }) {
    this.state = state;
    this.explorer = explorer;
    this.mapView = mapView;
    this.arrow = document.querySelector('#presenter-arrow');
    this.shown = false;
    /** The outline last drawn (GeoJSON), for tests. */
    this.area = NOTHING;
  }

  /** `room`: the room's camera now (the playout sample); `own`: the camera on the page's screen. */
  update(room, own) {
    const { state, explorer, mapView } = this;
    if (!explorer.active || !room || !own) {
      if (!this.shown) return;
      this.shown = false;
      this.area = NOTHING;
      mapView.setOverlay('camhub-presenter', NOTHING);
      this.arrow.hidden = true;
      return;
    }
    this.shown = true;
    const view = state.view ? { width: state.view.width, height: state.view.height } : state.screen.viewport;
    this.area = presenterArea(room, view);
    mapView.setOverlay('camhub-presenter', this.area);
    const at = edgeArrow(own, state.screen.viewport, { lat: room.lat, lon: room.lon });
    this.arrow.hidden = at === null;
    if (at) this.arrow.style.transform = `translate(${at.x}px, ${at.y}px) rotate(${at.angle}deg)`;
  }
}
