// A plain MapLibre map that follows a room of this hub: connect, attach, done.
import { connect, attachMapLibre } from '/clients/js/src/index.js';

const room = new URLSearchParams(location.search).get('room') ?? 'demo';
const map = new maplibregl.Map({
  container: 'map',
  style: {
    version: 8,
    sources: { countries: { type: 'geojson', data: '/data/countries.geojson' } },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#a9cbe0' } },
      { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': '#f2efe6', 'fill-outline-color': '#999' } },
    ],
  },
});
const hub = connect({ url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/hub`, room, role: 'follower' });
const attached = attachMapLibre(map, hub, { mode: 'follow' });
// For the tests, and for anyone curious in the console.
window.embed = { room: hub, attached, map };
