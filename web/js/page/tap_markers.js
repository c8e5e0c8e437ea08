// Markers for the room's taps and long presses on the map, labelled with who
// made them ("ana tapped here"); each goes after 2.6 s. A long press is one
// marker: shown at `begin` (or a press without phases), moved on `change`.

import { tapLabel } from '../ui/hud.js';

const SHOWN_MS = 2600;

export class TapMarkers {
  /**
   * @param {() => object|null} map the MapLibre map, or null
   * @param {import('../state/page_state.js').PageState} state names people; keeps the labels shown
   */
  constructor(map, state) {
    this.map = map;
    this.state = state;
    /** The marker of each client's long press in progress (by client id). */
    this.pressMarkers = new Map();
  }

  /** A `tap` or `longPress` event: a marker shown or moved. */
  event(m) {
    if (!this.map() || !Number.isFinite(m.lat) || !Number.isFinite(m.lon)) return;
    const held = m.event === 'longPress' && m.phase && m.phase !== 'begin' ? this.pressMarkers.get(m.by) : null;
    if (held) held.setLngLat([m.lon, m.lat]);
    else if (m.event === 'tap' || !m.phase || m.phase === 'begin') this.show(m);
  }

  show(m) {
    const text = tapLabel(m, (c) => this.state.nameOf(c));
    if (!text) return;
    this.state.diagnostics.tap(text);
    const el = document.createElement('div');
    el.className = 'tap-marker';
    const label = document.createElement('span');
    label.textContent = text;
    el.append(label);
    const marker = new maplibregl.Marker({ element: el }).setLngLat([m.lon, m.lat]).addTo(this.map());
    if (m.event === 'longPress') this.pressMarkers.set(m.by, marker);
    setTimeout(() => {
      marker.remove();
      if (this.pressMarkers.get(m.by) === marker) this.pressMarkers.delete(m.by);
    }, SHOWN_MS);
  }
}
