// The side panel's controls for what the hub can do, beyond joining and flying:
// the event log, per-kind gesture switches, the room's animations with their
// cancel buttons, click-to-query, tracking (mode, location, route, a simulated
// drive) and the frame-delay plot. It renders from the page's state
// (`PageState`: the disabled gestures, tracking mode, route and animations,
// the role) and the playout buffer, and sends only through the page's
// connection; it keeps only what is its own (the route being drawn, the drive
// running, the pick mode, the event log, the queries and the plot's samples).

import { GESTURE_KINDS, TRACKING_MODES, build } from '../../../clients/js/src/protocol/messages.js';
import { SimulatedDrive, parseRouteFile, routeMessages } from '../map/drive.js';
import { DelayPlot } from './delay_plot.js';
import { EventLog } from './event_log.js';
import { Queries, formatBounds, formatPoint, quadGeoJSON } from './query.js';

/** The buttons that turn a click on the map into a query instead of a gesture, by purpose. */
const PICK_BUTTONS = { point: '#query-pick', location: '#track-here', route: '#route-draw' };
/** Simulated drive: metres per second, and how often a location is sent (ms). */
const DRIVE_SPEED = 15;
const DRIVE_EVERY_MS = 500;

export class Panel {
  /**
   * deps: {conn, state (PageState), ids, now, toast, container, map() (the MapLibre map or null),
   *        playout() ({latency, delay, fps, resyncs} at a time), onChange() (the page re-checks its controls)}
   */
  constructor(deps) {
    this.d = deps;
    this.$ = (sel) => document.querySelector(sel);
    this.eventLog = new EventLog();
    this.delayPlot = new DelayPlot();
    this.queries = new Queries();
    this.picking = null; // null, 'point', 'location' or 'route'
    this.draft = []; // the route being drawn, {lat, lon}
    this.drive = null; // {sim, timer}
    this.installGestureSwitches();
    this.installQuery();
    this.installTracking();
    this.$('#cancel-all').addEventListener('click', () => this.d.conn.send(build.cancel({ all: true })));
  }

  // -- from the hub ----------------------------------------------------------

  /** A `welcome` was applied: this client's disabled gestures, the room's tracking mode, its animations. */
  welcome() {
    this.showGestures();
    this.showTracking();
    this.renderAnimations();
  }

  /** An `event` or `animation` message was applied: logged; animations and the mode re-rendered. */
  note(m) {
    this.log(m);
    if (m.type === 'animation') this.renderAnimations();
    if (m.event === 'trackingModeChanged') this.showTracking();
  }

  /** The gesture switches, from the kinds the hub last said are off for this page. */
  showGestures() {
    const off = this.d.state.disabledGestures;
    for (const box of document.querySelectorAll('#gesture-kinds input')) box.checked = !off.has(box.value);
  }

  showTracking() {
    this.$('#track-mode').value = this.d.state.tracking;
  }

  /** A `result`: shown, drawn, or used (tracking picks, fit). */
  result(m) {
    const r = this.queries.answer(m);
    if (!r) return;
    const out = this.$('#query-out');
    if (r.what === 'unproject' && r.purpose) return this.picked(r);
    if (r.what === 'unproject') out.textContent = `Point: ${formatPoint(r.point)}`;
    if (r.what === 'bounds') {
      out.textContent = `Visible: ${formatBounds(r.bounds)}`;
      this.d.map()?.getSource('camhub-bounds')?.setData(quadGeoJSON(r.quad));
      this.d.onChange();
    }
    if (r.what === 'fit' && this.d.state.canDrive) {
      this.d.conn.send(build.ease(r.camera, { id: this.d.ids.next('fit', 'Fit the bounds'), duration: 1 }));
    }
  }

  // -- the page's own ticks --------------------------------------------------

  /** Every HUD update: one plot sample (at most every 250 ms) and a redraw. */
  sample(t) {
    this.delayPlot.add(t, this.d.playout(t));
    const canvas = this.$('#delay-plot');
    const ctx = canvas?.getContext?.('2d');
    if (ctx) this.delayPlot.draw(ctx, canvas.width, canvas.height, t);
  }

  /** The page's role or connection changed: what may be pressed now. */
  update(driving) {
    this.$('#query-fit').disabled = !driving || !this.queries.lastBounds;
    if (!driving) this.stopDrive();
    this.renderAnimations();
  }

  /** The visible bounds' quad for the map's layer (empty before any). */
  boundsGeoJSON() {
    return quadGeoJSON(this.queries.lastBounds?.quad);
  }

  // -- event log and gesture switches ----------------------------------------

  log(m) {
    if (!this.eventLog.add(m, (c) => this.d.state.nameOf(c))) return;
    const list = this.$('#event-log');
    if (!list) return;
    const item = document.createElement('li');
    item.textContent = this.eventLog.lines()[0];
    list.prepend(item);
    while (list.children.length > this.eventLog.max) list.lastElementChild.remove();
  }

  installGestureSwitches() {
    const holder = this.$('#gesture-kinds');
    for (const kind of GESTURE_KINDS) {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = kind;
      box.checked = true;
      box.addEventListener('change', () => this.d.conn.send(build.gestures(box.checked ? { enable: [kind] } : { disable: [kind] })));
      label.append(box, kind);
      holder.append(label);
    }
  }

  // -- the room's animations -------------------------------------------------

  renderAnimations() {
    const list = this.$('#animation-list');
    const { state, conn } = this.d;
    const entries = state.animations.entries(state.me);
    list.replaceChildren();
    if (!entries.length) {
      const none = document.createElement('li');
      none.className = 'none';
      none.textContent = 'none';
      list.append(none);
    }
    for (const a of entries) {
      const item = document.createElement('li');
      const label = document.createElement('span');
      const what = [a.kind, a.id].filter(Boolean).join(' ') || 'animation';
      label.textContent = `${what} · ${a.owner ? state.nameOf(a.owner) : 'hub'}${a.status === 'running' ? '' : ` · ${a.status}`}`;
      item.append(label);
      if (a.mine && a.id) {
        const cancel = document.createElement('button');
        cancel.type = 'button';
        cancel.textContent = 'cancel';
        cancel.dataset.cancel = a.id;
        cancel.disabled = !state.canDrive;
        cancel.addEventListener('click', () => conn.send(build.cancel({ id: a.id })));
        item.append(cancel);
      }
      list.append(item);
    }
  }

  // -- click-to-query --------------------------------------------------------

  setPicking(purpose) {
    this.picking = purpose;
    for (const [p, sel] of Object.entries(PICK_BUTTONS)) this.$(sel).setAttribute('aria-pressed', String(p === purpose));
    document.body.classList.toggle('picking', purpose !== null);
  }

  togglePicking(purpose) {
    this.setPicking(this.picking === purpose ? null : purpose);
  }

  installQuery() {
    const { conn, container } = this.d;
    this.$('#query-pick').addEventListener('click', () => this.togglePicking('point'));
    this.$('#query-bounds').addEventListener('click', () => conn.send(this.queries.ask('bounds')));
    this.$('#query-fit').addEventListener('click', () => {
      const fit = this.queries.askFit(20);
      if (fit) conn.send(fit);
    });
    // While picking, a click on the map is a query, not a gesture: caught before the map's input sees it.
    for (const type of ['pointerdown', 'pointerup', 'click']) {
      document.addEventListener(type, (ev) => {
        if (!this.picking || !container.contains(ev.target)) return;
        ev.stopPropagation();
        ev.preventDefault();
        if (type !== 'pointerup') return;
        const box = container.getBoundingClientRect();
        const purpose = this.picking === 'point' ? null : this.picking;
        conn.send(this.queries.ask('unproject', { points: [{ x: ev.clientX - box.left, y: ev.clientY - box.top }] }, purpose));
        if (this.picking !== 'route') this.setPicking(null); // a route takes a click per point until pressed again
      }, { capture: true });
    }
  }

  // -- tracking --------------------------------------------------------------

  installTracking() {
    const { conn, toast } = this.d;
    const mode = this.$('#track-mode');
    for (const m of TRACKING_MODES) mode.append(new Option(m, m));
    mode.addEventListener('change', () => conn.send(build.track({ mode: mode.value })));
    this.$('#track-here').addEventListener('click', () => this.togglePicking('location'));
    this.$('#route-draw').addEventListener('click', () => {
      if (this.picking !== 'route') this.draft.length = 0;
      this.togglePicking('route');
    });
    this.$('#route-send').addEventListener('click', () => this.sendRoute(this.draft));
    this.$('#route-clear').addEventListener('click', () => {
      this.draft.length = 0;
      conn.send(build.route([]));
    });
    this.$('#route-file').addEventListener('change', async (ev) => {
      const file = ev.target.files?.[0];
      if (!file) return;
      try {
        this.sendRoute(parseRouteFile(await file.text()));
      } catch (e) {
        toast(`${file.name}: ${e.message}`, 'error', 6000);
      }
      ev.target.value = '';
    });
    this.$('#drive-start').addEventListener('click', () => this.startDrive());
    this.$('#drive-stop').addEventListener('click', () => this.stopDrive());
  }

  picked(r) {
    const p = r.point;
    if (p.lat === null) return this.d.toast('That point is above the horizon', 'warn');
    if (r.purpose === 'location') this.d.conn.send(build.track({ location: { lat: p.lat, lon: p.lon } }));
    if (r.purpose === 'route') {
      this.draft.push({ lat: p.lat, lon: p.lon });
      const n = this.draft.length;
      this.$('#query-out').textContent = `Route: ${n} point${n === 1 ? '' : 's'} drawn (Send route when done)`;
    }
  }

  sendRoute(points) {
    let messages;
    try {
      messages = routeMessages(points);
    } catch (e) {
      return this.d.toast(`Route: ${e.message}`, 'warn');
    }
    for (const m of messages) this.d.conn.send(m);
    if (this.picking === 'route') this.setPicking(null);
  }

  startDrive() {
    this.stopDrive();
    const { conn, now, state, toast } = this.d;
    let sim;
    try {
      sim = new SimulatedDrive(state.route.points, DRIVE_SPEED);
    } catch (e) {
      return toast(`Drive: ${e.message} (draw or load one)`, 'warn');
    }
    const started = now();
    const feed = () => {
      const at = sim.at((now() - started) / 1000);
      conn.send(build.track({ location: { lat: at.lat, lon: at.lon, heading: at.heading } }));
      if (at.done) this.stopDrive();
    };
    this.drive = { sim, timer: setInterval(feed, DRIVE_EVERY_MS) };
    feed();
  }

  stopDrive() {
    if (this.drive) clearInterval(this.drive.timer);
    this.drive = null;
  }
}
