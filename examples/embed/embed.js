// A plain MapLibre map that follows (or, with ?role=driver, drives) a room of this hub.
import { connect, attachMapLibre } from '/clients/js/src/index.js';

const params = new URLSearchParams(location.search);
const room = params.get('room') ?? 'demo';
const role = params.get('role') ?? 'follower'; // a driver or presenter drives the room with this map
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
  maxPitch: 85, // the room's camera may pitch to 85°: MapLibre's default 60 would clamp it
});
const hub = connect({ url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/hub`, room, role });
const attached = attachMapLibre(map, hub, { mode: role === 'follower' ? 'follow' : 'drive' });
// For the tests, and for anyone curious in the console.
window.embed = { room: hub, attached, map };
