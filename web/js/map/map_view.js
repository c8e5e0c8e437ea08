// The page's MapLibre map: made with every handler off (it never moves by
// itself), with the room's route and the last queried bounds drawn over the
// style (and, while a follower explores, the presenter's area), and moved only by `show` (map.jumpTo with the camera the page
// computed, then drawn at once). It draws the world in the room's projection (`setProjection`: Web Mercator or
// MapLibre GL JS 5's globe), put on the map once its style has loaded, and, when the hub serves terrain, the
// ground as MapLibre terrain (a raster-dem source, exaggeration 1). The camera's elevation is always the room's
// (centerClampedToGround false); `ground` reads the terrain's height under a point for a driver who follows it.

import { toMapLibreCamera, applyProjection, mapProjection, MAPLIBRE_HANDLERS as HANDLERS } from '../../../clients/js/src/maplibre/camera.js';
import { DEFAULT_FOV_DEGREES } from '../../../clients/js/src/geo/projection.js';
import { FONT_STACK } from './style.js';

/** The id of the hub's terrain source on the map. */
export const TERRAIN_SOURCE = 'camhub-terrain';

const ROUTE_PAINT = { 'line-color': '#d9480f', 'line-width': 4, 'line-opacity': 0.85 };
const BOUNDS_PAINT = { 'line-color': '#2b7bb9', 'line-width': 2, 'line-dasharray': [2, 1] };
const PRESENTER_PAINT = { 'line-color': '#ff9a6b', 'line-width': 3, 'line-opacity': 0.9 };
/** Explorers' areas (`camhub-views`: outlines and, where the style has glyphs, their names), each in its colour. */
const VIEWS_PAINT = { 'line-color': ['get', 'color'], 'line-width': 2.5, 'line-opacity': 0.9 };
/** An invisible wide line over each outline: what a tap on an outline hits (`viewAt`). */
const VIEWS_HIT_PAINT = { 'line-color': '#000000', 'line-width': 14, 'line-opacity': 0 };
const VIEWS_LABEL_PAINT = { 'text-color': ['get', 'color'], 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 };

export class MapView {
  /**
   * @param {object} o {container, style (a MapLibre style), screen (state/screen.js: viewport, mapLoaded),
   *   overlays() ({route, bounds}: GeoJSON to draw once loaded), onFatal(html), terrain (a raster-dem source, or
   *   null: no terrain)}
   */
  constructor({ container, style, screen, overlays, onFatal, terrain = null }) {
    this.screen = screen;
    this.terrain = terrain;
    /** The room's projection, 'mercator' or 'globe' (`setProjection`). */
    this.projection = 'mercator';
    this.map = MapView.create(container, style, onFatal);
    if (!this.map) return;
    // The style has loaded (MapLibre refuses a projection before): the room's projection, if it is not Mercator.
    this.map.on('style.load', () => {
      this.showProjection();
      this.showTerrain();
    });
    // Belt and braces: the map must never move by itself.
    for (const h of HANDLERS) this.map[h]?.disable();
    this.map.on('load', () => {
      screen.mapLoaded = true;
      const { route, bounds, views } = overlays();
      this.addLine('camhub-route', route, ROUTE_PAINT, { 'line-join': 'round', 'line-cap': 'round' });
      this.addLine('camhub-bounds', bounds, BOUNDS_PAINT);
      this.addLine('camhub-presenter', { type: 'FeatureCollection', features: [] }, PRESENTER_PAINT);
      this.addViews(views);
    });
    this.map.on('error', (e) => console.warn('map:', e.error?.message ?? e));
  }

  /** A MapLibre map, or null (and a fatal message) without MapLibre or WebGL. */
  static create(container, style, onFatal) {
    if (typeof maplibregl === 'undefined') {
      onFatal('MapLibre GL JS is missing from <code>web/vendor/maplibre/</code>. '
        + 'Run <code>scripts/install_web_vendor.sh</code> (or <code>make run</code>) and reload this page.');
      return null;
    }
    try {
      return new maplibregl.Map({
        container, style, center: [10, 30], zoom: 1.5, maxPitch: 85, maxZoom: 24, interactive: false,
        // The room's centre elevation as it is: clamped to the ground, MapLibre would reset it to 0 without terrain.
        centerClampedToGround: false,
        ...Object.fromEntries(HANDLERS.map((h) => [h, false])),
        attributionControl: { compact: true }, renderWorldCopies: true, fadeDuration: 0,
      });
    } catch (e) {
      onFatal(`The map could not start (${e.message}). This page needs WebGL.`);
      return null;
    }
  }

  addLine(id, data, paint, layout = {}) {
    this.map.addSource(id, { type: 'geojson', data });
    this.map.addLayer({ id, type: 'line', source: id, layout, paint });
  }

  /** The explorers' outlines (lines of `camhub-views`) and their names (its points, when the style has glyphs). */
  addViews(data) {
    this.map.addSource('camhub-views', { type: 'geojson', data });
    this.map.addLayer({ id: 'camhub-views', type: 'line', source: 'camhub-views', filter: ['==', ['geometry-type'], 'LineString'],
      paint: VIEWS_PAINT });
    this.map.addLayer({ id: 'camhub-views-hit', type: 'line', source: 'camhub-views',
      filter: ['==', ['geometry-type'], 'LineString'], paint: VIEWS_HIT_PAINT });
    if (!this.map.getStyle()?.glyphs) return;
    this.map.addLayer({ id: 'camhub-views-label', type: 'symbol', source: 'camhub-views', filter: ['==', ['geometry-type'], 'Point'],
      layout: { 'text-field': ['get', 'name'], 'text-font': [FONT_STACK], 'text-size': 13, 'text-anchor': 'bottom',
        'text-allow-overlap': true }, paint: VIEWS_LABEL_PAINT });
  }

  /** The client whose outline is under view point (x, y) px, or null. */
  viewAt(x, y) {
    if (!this.map?.getLayer?.('camhub-views-hit')) return null;
    const [hit] = this.map.queryRenderedFeatures([x, y], { layers: ['camhub-views-hit'] });
    return hit?.properties?.client ?? null;
  }

  /** Replaces the GeoJSON of an overlay ('camhub-route', 'camhub-bounds', 'camhub-presenter') once the map has it. */
  setOverlay(id, data) {
    this.map?.getSource(id)?.setData(data);
  }

  /**
   * Puts `camera` (wire form) on the map and draws it now rather than on the
   * map's next animation frame, so it is on screen after this frame, a known
   * draw time after it was computed. Returns {drawn (when the draw ended),
   * ms (how long it took)}, or null when nothing was drawn.
   */
  show(camera, now, hidden) {
    if (!this.map) return null;
    this.place(camera, this.screen.viewport);
    if (!this.screen.mapLoaded || hidden) return null;
    const t0 = now();
    this.map.redraw();
    const drawn = now();
    return { drawn, ms: drawn - t0 };
  }

  /**
   * Puts `camera` (wire form) on the map: its field of view (not a jumpTo option; set only when it
   * changed), then jumpTo with roll and elevation always given, so a camera that leaves them out
   * (at their defaults, 0) levels a map that was rolled or raised (jumpTo keeps what it is not given).
   */
  place(camera, viewport) {
    const fov = camera.fov ?? DEFAULT_FOV_DEGREES;
    if (Math.abs(this.map.getVerticalFieldOfView() - fov) > 1e-9) this.map.setVerticalFieldOfView(fov);
    this.map.jumpTo({ roll: 0, elevation: 0, ...toMapLibreCamera(camera, viewport) });
  }

  /**
   * Draws the world in the room's `projection` ('mercator' or 'globe'): `map.setProjection` when the map draws in
   * another one; before the style has loaded, once it has.
   */
  setProjection(projection) {
    this.projection = projection;
    if (this.map) this.showProjection();
  }

  /**
   * The room's projection on the map, and the rendered camera put back on it: MapLibre moves its camera to a
   * transform of the new projection, which may constrain it otherwise; the page shows the room's camera as it is.
   */
  showProjection() {
    if (mapProjection(this.map) === this.projection || !applyProjection(this.map, this.projection)) return;
    if (this.screen.rendered) this.place(this.screen.rendered, this.screen.viewport);
  }

  /** The hub's terrain on the map (once its style has loaded; a new style drops it, so it comes back with each). */
  showTerrain() {
    if (!this.terrain || this.map.getSource(TERRAIN_SOURCE)) return;
    this.map.addSource(TERRAIN_SOURCE, this.terrain);
    this.map.setTerrain({ source: TERRAIN_SOURCE, exaggeration: 1 });
  }

  /**
   * The terrain's height (m) under `lat`, `lon` as MapLibre draws it (`queryTerrainElevation`), or null without
   * terrain or while its elevation tiles for the view are still loading (MapLibre reads 0 there).
   */
  ground(lat, lon) {
    if (!this.map?.getTerrain() || !this.map.isSourceLoaded(TERRAIN_SOURCE)) return null;
    return this.map.queryTerrainElevation([lon, lat]);
  }

  /** The element changed size: the map follows (an anchored camera's centre depends on the size). */
  resize() {
    if (!this.map) return;
    this.map.resize();
    if (this.screen.rendered) this.place(this.screen.rendered, this.screen.viewport);
  }

  /** MapLibre's own view of the camera: centre, zoom, bearing, pitch, roll, centre elevation and field of view. */
  camera() {
    if (!this.map) return null;
    const c = this.map.getCenter();
    return {
      lat: c.lat, lon: c.lng, zoom: this.map.getZoom(), bearing: this.map.getBearing(), tilt: this.map.getPitch(),
      roll: this.map.getRoll(), elevation: this.map.getCenterElevation(), fov: this.map.getVerticalFieldOfView(),
    };
  }

  /** Names of MapLibre handlers that are enabled (should be none). */
  handlersEnabled() {
    return this.map ? HANDLERS.filter((h) => this.map[h] && this.map[h].isEnabled()) : [];
  }

  /**
   * Sets `camera` on the map, returns map.project() of each {lat, lon} (the
   * longitude copy nearest the map's centre unless nearestCopy is false) and
   * MapLibre's resulting camera, then puts the rendered camera back.
   */
  project(camera, points, { nearestCopy = true } = {}) {
    if (!this.map) return null;
    const { viewport, rendered } = this.screen;
    this.place(camera, viewport);
    const centerLon = this.map.getCenter().lng;
    const projected = points.map((p) => {
      // like projection.js: the copy of the longitude nearest the camera's
      const lon = nearestCopy ? centerLon + ((((p.lon - centerLon + 180) % 360) + 360) % 360) - 180 : p.lon;
      const v = this.map.project([lon, p.lat]);
      return { x: v.x, y: v.y };
    });
    const result = { points: projected, camera: this.camera(), viewport: { ...viewport } };
    if (rendered) this.place(rendered, viewport);
    return result;
  }
}
