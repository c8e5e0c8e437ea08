// The audience's view, for presenters and drivers: where each exploring
// follower looks (the hub's `viewports` events), drawn on the map as
// outlines in each explorer's colour with its name (map/explorer_views.js),
// an arrow at the screen's edge for one off screen, and listed under the
// follow counts (at most 50, then "+N more") with "Bring back" (a presenter
// summons that one client) and "Look here". Look here, a click on an outline
// or on an arrow shows the presenter's OWN map there (a local look through
// the page's Explorer: the room's camera stays, nothing goes to the hub);
// the look banner's button or key B glides back to the room's camera.
// Followers never get `viewports`, so they see nothing here.

import { build } from '../../../clients/js/src/protocol/messages.js';
import { cameraShowing, colourOf, edgeArrow, regionCentre, viewsGeoJSON } from '../map/explorer_views.js';

export class ExplorerViews {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the room (its `viewports`, the role, the screen)
   * @param {object} parts.conn the page's connection
   * @param {import('../map/map_view.js').MapView} parts.mapView where the outlines are drawn
   * @param {object} parts.explorer the page's own camera (`Explorer`): the local look
   * @param {() => number} parts.now the page clock (ms)
   */
  constructor({ state, conn, mapView, explorer, now }) {
    Object.assign(this, { state, conn, mapView, explorer, now });
    this.list = document.querySelector('#explorer-views');
    this.list.addEventListener('click', (ev) => this.clicked(ev));
    this.arrows = document.querySelector('#explorer-arrows');
    this.arrows.addEventListener('click', (ev) => this.clicked(ev));
    this.banner = document.querySelector('#look-banner');
    document.querySelector('#back-to-room').addEventListener('click', () => this.backToRoom());
    document.addEventListener('keydown', (ev) => {
      if ((ev.key !== 'b' && ev.key !== 'B') || ev.ctrlKey || ev.metaKey || ev.altKey || !this.looking) return;
      if (/** @type {HTMLElement} */ (ev.target).closest?.('input, textarea, select')) return;
      ev.preventDefault();
      this.backToRoom();
    });
    /** The outlines drawn last (GeoJSON), for the map's first load and for tests. */
    this.geojson = viewsGeoJSON([]);
    this.summons = 0;
    /** Whose region the presenter's own map shows now ({client, name}), or null. */
    this.lookingAt = null;
  }

  /** The explorers shown: the room's `viewports` for a presenter or driver, none otherwise. */
  get views() {
    return this.state.canDrive ? this.state.viewports.clients : [];
  }

  /** How many more explorers share a region than are listed. */
  get others() {
    return this.state.canDrive ? this.state.viewports.others : 0;
  }

  /** True while the presenter's own map shows a local look. */
  get looking() {
    return this.lookingAt !== null && this.explorer.exploring;
  }

  /** Draws and lists the newest `viewports` (after a `viewports` event, a welcome or a change of role). */
  update() {
    const views = this.views;
    this.geojson = viewsGeoJSON(views);
    this.mapView.setOverlay('camhub-views', this.geojson);
    const presenting = this.state.role === 'presenter';
    const items = views.map((v) => this.item(v, presenting));
    if (this.others > 0) items.push(moreItem(this.list.ownerDocument, this.others));
    this.list.hidden = items.length === 0;
    this.list.replaceChildren(...items);
    this.drawArrows();
    this.showBanner();
  }

  /** One explorer's line: its colour, its name, then its buttons. */
  item(v, presenting) {
    const doc = this.list.ownerDocument;
    const li = doc.createElement('li');
    li.dataset.client = v.client;
    const name = doc.createElement('button');
    name.type = 'button';
    name.className = 'explorer-name';
    name.dataset.action = 'look';
    name.style.color = colourOf(v.client);
    name.textContent = v.name;
    name.title = `Show where ${v.name} looks on your own map (the room stays)`;
    li.append(name);
    if (presenting) li.append(button(doc, 'back', 'Bring this person back', `Call ${v.name} back to the room's view`));
    li.append(button(doc, 'look', 'Look here', `Show where ${v.name} looks on your own map (the room stays)`));
    return li;
  }

  clicked(ev) {
    const target = /** @type {HTMLElement} */ (ev.target);
    const action = target.closest('[data-action]')?.dataset.action;
    const client = target.closest('[data-client]')?.dataset.client;
    if (!action || !client) return;
    if (action === 'back') this.conn.send(build.summon(`summon-${++this.summons}`, client));
    if (action === 'look') this.lookAt(client);
  }

  /** Shows `client`'s region on the presenter's own map (nothing is sent: the room's camera stays). */
  lookAt(client) {
    const view = this.views.find((v) => v.client === client);
    if (!view) return;
    const camera = cameraShowing(view.region, this.state.screen.viewport);
    if (this.explorer.active) this.explorer.reset();
    this.explorer.explore(camera, this.now());
    this.lookingAt = { client: view.client, name: view.name };
    this.showBanner();
  }

  /** Glides the presenter's map back to the room's camera. */
  backToRoom() {
    this.explorer.back(this.now(), this.state.screen.lastSample?.camera ?? this.state.hubCamera);
    this.lookingAt = null;
    this.showBanner();
  }

  showBanner() {
    if (this.lookingAt && !this.explorer.exploring) this.lookingAt = null;
    this.banner.hidden = !this.lookingAt;
    if (this.lookingAt) this.banner.querySelector('#look-name').textContent = this.lookingAt.name;
  }

  /** Puts an arrow at the screen's edge for each region whose middle is off screen (after each map move). */
  drawArrows() {
    const map = this.mapView.map;
    const doc = this.arrows.ownerDocument;
    const size = this.state.screen.viewport;
    const arrows = [];
    for (const v of map ? this.views : []) {
      const [lon, lat] = regionCentre(v.region);
      const p = map.project([lon, lat]);
      const at = edgeArrow(Number.isFinite(p?.x) && Number.isFinite(p?.y) ? p : null, size);
      if (at) arrows.push(arrowButton(doc, v, at));
    }
    this.arrows.replaceChildren(...arrows);
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

function moreItem(doc, others) {
  const li = doc.createElement('li');
  li.className = 'explorer-more';
  li.textContent = `+${others} more exploring`;
  return li;
}

function arrowButton(doc, v, at) {
  const b = button(doc, 'look', '➤', `${v.name} looks over there: show it on your own map`);
  b.className = 'explorer-arrow';
  b.dataset.client = v.client;
  b.style.left = `${at.x}px`;
  b.style.top = `${at.y}px`;
  b.style.color = colourOf(v.client);
  b.style.transform = `translate(-50%, -50%) rotate(${at.angle}deg)`;
  return b;
}
