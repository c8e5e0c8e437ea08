// Drives web/preview.html: shows the basemap style at a camera given in the
// query string and checks projection.js against MapLibre's map.project().
import { buildStyle } from '../map/style.js';
import { project, unproject, nearestLongitude } from '../../../clients/js/src/geo/projection.js';
import { toMapLibreCamera } from '../../../clients/js/src/maplibre/camera.js';

const q = new URLSearchParams(location.search);
const num = (k, d) => (q.has(k) ? Number(q.get(k)) : d);
const camera = {
  lat: num('lat', 48.8566),
  lon: num('lon', 2.3522),
  zoom: num('zoom', 3),
  bearing: num('bearing', 0),
  tilt: num('tilt', 45),
  anchor: { x: num('ax', 0.5), y: num('ay', 0.5) },
};
const base = new URL('./', document.baseURI).href;
const container = document.getElementById('map');
const viewport = { width: container.clientWidth, height: container.clientHeight };

const map = new maplibregl.Map({
  container,
  style: buildStyle({ dataUrl: base + 'data/', glyphsUrl: base + 'fonts/{fontstack}/{range}.pbf' }),
  maxPitch: 85,
  attributionControl: { compact: false },
  interactive: q.get('interactive') !== '0',
  renderWorldCopies: true,
});
// The constructor takes no padding, so set the whole camera with jumpTo.
map.jumpTo(toMapLibreCamera(camera, viewport));
window.map = map;

map.once('idle', () => {
  // Compare projections for a grid of screen points.
  let maxPx = 0;
  let n = 0;
  for (let i = 0; i <= 10; i++) {
    for (let j = 0; j <= 10; j++) {
      const view = { x: (viewport.width * i) / 10, y: (viewport.height * j) / 10 };
      const g = unproject(camera, viewport, view);
      if (!g || Math.abs(g.lat) > 85) continue;
      const ours = project(camera, viewport, g);
      // MapLibre projects the longitude as given; ours uses the copy nearest the camera.
      const theirs = map.project([nearestLongitude(g.lon, camera.lon), g.lat]);
      if (!ours) continue;
      maxPx = Math.max(maxPx, Math.hypot(ours.x - theirs.x, ours.y - theirs.y));
      n++;
    }
  }
  const c = map.getCenter();
  const constrained = Math.abs(map.getZoom() - camera.zoom) > 1e-9 || Math.abs(c.lat - camera.lat) > 1e-9
    ? ` (MapLibre constrained the camera to zoom ${map.getZoom().toFixed(3)}, lat ${c.lat.toFixed(4)})` : '';
  const text = `projection.js vs MapLibre ${maplibregl.getVersion()}: ${n} points, max diff ${maxPx.toExponential(2)} px${constrained}`;
  document.getElementById('check').textContent = text;
  document.title = `ready ${text}`;
  console.log(text);
});
