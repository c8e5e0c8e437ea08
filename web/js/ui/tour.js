// Places for the fly buttons and the demo tour, as hub messages. Pure.
// The basemap is Natural Earth 1:110m (countries, borders, capitals), so the
// cameras stay at zoom 3.5–6, where that detail reads well. Tilts stay within
// the hub's default tilt limit (60°).

import { build } from '../../../clients/js/src/protocol/messages.js';

export const PLACES = [
  { key: 'alps', label: 'Alps', camera: { lat: 46.3, lon: 8.6, zoom: 5.6, bearing: 20, tilt: 55 } },
  { key: 'bosporus', label: 'Bosporus', camera: { lat: 41.1, lon: 29.0, zoom: 5.5, bearing: 330, tilt: 50 } },
  { key: 'paris', label: 'Paris', camera: { lat: 48.8566, lon: 2.3522, zoom: 5.5, bearing: 0, tilt: 30 } },
  { key: 'newyork', label: 'New York', camera: { lat: 40.7128, lon: -74.006, zoom: 5, bearing: 0, tilt: 30 } },
  { key: 'rio', label: 'Rio', camera: { lat: -22.9068, lon: -43.1729, zoom: 5, bearing: 0, tilt: 30 } },
  { key: 'tokyo', label: 'Tokyo', camera: { lat: 35.6762, lon: 139.6503, zoom: 5, bearing: 0, tilt: 30 } },
  { key: 'sydney', label: 'Sydney', camera: { lat: -33.8688, lon: 151.2093, zoom: 5, bearing: 0, tilt: 30 } },
];

/** Makes unique ids for this page's animations ("<prefix>-<kind>-<n>"). */
export class IdMaker {
  constructor(prefix = Math.random().toString(36).slice(2, 7)) {
    this.prefix = prefix;
    this.n = 0;
    this.labels = new Map(); // id -> label for people
  }

  next(kind, label) {
    const id = `${this.prefix}-${kind}-${++this.n}`;
    if (label) this.labels.set(id, label);
    return id;
  }

  owns(id) {
    return typeof id === 'string' && id.startsWith(`${this.prefix}-`);
  }

  label(id) {
    return this.labels.get(id) ?? id;
  }
}

/** A `fly` to a place (the hub picks the duration from its speed). */
export function flyTo(place, ids) {
  return build.fly(place.camera, { id: ids.next('fly', `Fly to ${place.label}`), speed: 1.2, curve: 1.42 });
}

/** Ease back to north up and no tilt. */
export function resetNorth(ids) {
  return build.ease({ bearing: 0, tilt: 0 }, { id: ids.next('north', 'Reset north'), duration: 1, curve: 'easeInOut' });
}

/**
 * The demo tour: a flight to the Alps, then a chain of `animate`s, each started
 * by the hub when the previous one finishes (`after`): tilt up, pan along the
 * Alps, swing round, glide to the Bosporus, look down the strait, and settle.
 * Grabbing the map (or any newer command on the same properties) supersedes
 * the running step, and the hub then cancels the rest of the chain.
 * Returns the messages in the order they must be sent.
 */
export function demoTour(ids) {
  const steps = [];
  const first = ids.next('tour', 'Tour: flight to the Alps');
  steps.push(build.fly({ lat: 45.9, lon: 6.9, zoom: 5.2, bearing: 0, tilt: 0 }, { id: first, duration: 5 }));
  let prev = first;
  const chain = (to, duration, label, curve = 'easeInOut', delay) => {
    const id = ids.next('tour', `Tour: ${label}`);
    steps.push(build.animate(to, { id, duration, curve, after: prev, ...(delay ? { delay } : {}) }));
    prev = id;
  };
  chain({ tilt: 55, bearing: 40 }, 2.5, 'tilt up over Mont Blanc');
  chain({ lat: 46.6, lon: 10.5, bearing: 80 }, 5, 'along the Alps', 'linear');
  chain({ bearing: 140, zoom: 5.6 }, 3, 'swing round', 'easeInOut', 0.5);
  chain({ lat: 41.1, lon: 29.0, zoom: 4.6, tilt: 35, bearing: 100 }, 6, 'glide to the Bosporus');
  chain({ zoom: 5.6, tilt: 55, bearing: 330 }, 3.5, 'down the Bosporus');
  chain({ tilt: 0, bearing: 0, zoom: 4.5 }, 3, 'settle', 'easeInOut', 1);
  return steps;
}
