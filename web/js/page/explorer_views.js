// The audience's view, for presenters and drivers: where each exploring
// follower looks (the hub's `viewports` events), drawn on the map as labelled
// outlines (map/explorer_views.js) and listed under the follow counts with
// "Bring back" (a presenter summons that one client) and "Look here" (the
// presenter's camera, which is the room's, eases to show that region).
// Followers never get `viewports`, so they see nothing here.

import { build } from '../../../clients/js/src/protocol/messages.js';
import { cameraShowing, viewsGeoJSON } from '../map/explorer_views.js';

/** Seconds the presenter's camera takes to ease to an explorer's view. */
const LOOK_SECONDS = 1;

export class ExplorerViews {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the room (its `views`, the role)
   * @param {object} parts.conn the page's connection
   * @param {import('../map/map_view.js').MapView} parts.mapView where the outlines are drawn
   */
  constructor({ state, conn, mapView }) {
    this.state = state;
    this.conn = conn;
    this.mapView = mapView;
    this.list = document.querySelector('#explorer-views');
    this.list.addEventListener('click', (ev) => this.clicked(ev));
    /** The outlines drawn last (GeoJSON), for the map's first load and for tests. */
    this.geojson = viewsGeoJSON([]);
    this.summons = 0;
  }

  /** The explorers shown: the room's `viewports` for a presenter or driver, none otherwise. */
  get views() {
    return this.state.canDrive ? this.state.viewports.clients : [];
  }

  /** Draws and lists the newest `viewports` (after a `viewports` event, a welcome or a change of role). */
  update() {
    const views = this.views;
    this.geojson = viewsGeoJSON(views);
    this.mapView.setOverlay('camhub-views', this.geojson);
    const presenting = this.state.role === 'presenter';
    this.list.hidden = views.length === 0;
    this.list.replaceChildren(...views.map((v) => this.item(v, presenting)));
  }

  /** One explorer's line: its name, then its buttons. */
  item(v, presenting) {
    const doc = this.list.ownerDocument;
    const li = doc.createElement('li');
    li.dataset.client = v.client;
    const name = doc.createElement('span');
    name.className = 'explorer-name';
    name.textContent = v.name;
    li.append(name);
    if (presenting) li.append(button(doc, 'back', 'Bring back', `Call ${v.name} back to your view`));
    li.append(button(doc, 'look', 'Look here', `Move your view to where ${v.name} looks`));
    return li;
  }

  clicked(ev) {
    const target = /** @type {HTMLElement} */ (ev.target);
    const action = target.dataset?.action;
    const client = target.closest('li')?.dataset.client;
    const view = this.views.find((v) => v.client === client);
    if (!action || !view) return;
    if (action === 'back') this.conn.send(build.summon(`summon-${++this.summons}`, view.client));
    if (action === 'look') this.conn.send(build.ease(cameraShowing(view.region, this.state.screen.viewport), { duration: LOOK_SECONDS }));
  }
}

function button(doc, action, text, title) {
  const b = doc.createElement('button');
  b.type = 'button';
  b.dataset.action = action;
  b.textContent = text;
  b.title = title;
  return b;
}
