// The page's own buttons: fly to places, reset north, the demo tour, stop,
// keep the map to this view or clear the limits, the follower's "take
// control" prompt and the panels' collapse buttons; and `update`, which
// enables what the page's role and connection allow.

import { build } from '../../../clients/js/src/protocol/messages.js';
import { PLACES, flyTo, resetNorth, demoTour } from '../ui/tour.js';
import { keepToView, clearLimits } from '../map/limits.js';

const $ = (sel) => document.querySelector(sel);

export class Controls {
  /**
   * @param {object} page {state, conn, ids, toast, mapView, panel, recordings, session, follow}: the page itself,
   *   because `follow` is made after this (FollowMode uses the controls) and read when `update` runs
   */
  constructor(page) {
    this.page = page;
    this.installDrive();
    this.installTakeover();
    this.installCollapse();
  }

  /** Sends through the connection; a toast when the page is not connected. */
  send(message) {
    if (this.page.conn.send(message)) return true;
    this.page.toast('Not connected to the hub', 'error', 2000);
    return false;
  }

  installDrive() {
    const { ids, toast } = this.page;
    for (const place of PLACES) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = place.label;
      b.dataset.place = place.key;
      b.addEventListener('click', () => this.send(flyTo(place, ids)));
      $('#places').append(b);
    }
    $('#north').addEventListener('click', () => this.send(resetNorth(ids)));
    $('#tour').addEventListener('click', () => {
      for (const m of demoTour(ids)) if (!this.send(m)) break;
      toast('Demo tour started: drag the map to take over', 'info', 3000);
    });
    $('#stop').addEventListener('click', () => this.send(build.cancel()));
    $('#limits-keep').addEventListener('click', () => this.send(build.limits(this.keepToView())));
    $('#limits-clear').addEventListener('click', () => this.send(build.limits(clearLimits())));
  }

  /** Limits that keep the room's camera to the area this page shows of it (the map renders the hub's camera). */
  keepToView() {
    const map = this.page.mapView.map;
    const b = map.getBounds();
    const zoom = this.page.state.hubCamera?.zoom ?? map.getZoom();
    return keepToView({ south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() }, zoom);
  }

  installTakeover() {
    $('#takeover-yes').addEventListener('click', () => this.page.session.rejoin({ role: 'driver' }));
    $('#takeover-no').addEventListener('click', () => this.hideTakeover());
  }

  /** A follower's "Take control" button: the prompt to rejoin as a driver (once joined). */
  offerTakeover() {
    if (this.page.conn.joined) $('#takeover').hidden = false;
  }

  hideTakeover() {
    $('#takeover').hidden = true;
  }

  installCollapse() {
    for (const b of document.querySelectorAll('[data-collapse]')) {
      b.addEventListener('click', () => {
        const collapsed = document.getElementById(b.dataset.collapse).classList.toggle('collapsed');
        b.textContent = collapsed ? '+' : '–';
      });
    }
  }

  /** What may be pressed now, the page's role classes and title. */
  update() {
    const { state, conn, panel } = this.page;
    const driving = conn.joined && state.canDrive;
    document.body.classList.toggle('following', state.role === 'follower');
    document.body.classList.toggle('presenting', state.role === 'presenter');
    for (const b of document.querySelectorAll('#drive button, #drive input, #drive select')) b.disabled = !driving;
    panel.update(driving);
    this.page.recordings.update();
    if (driving) this.hideTakeover();
    this.page.follow?.update();
    document.title = `CameraHub · ${state.room} · ${state.role}`;
  }
}
