// Pictures of cameras for the storyboard panel: a small MapLibre map kept out
// of sight (made on the first picture asked for, so pages without a panel never
// make it), put on each camera, drawn once its tiles are in, read back as a
// JPEG data URL. One picture at a time: story/thumbnail_queue.js calls it.

import { toMapLibreCamera } from '../../../clients/js/src/maplibre/camera.js';

/** The picture's size (CSS px at pixel ratio 1): a 16:9 ninth of the hub's reference viewport (1280 × 720). */
export const THUMBNAIL_SIZE = Object.freeze({ width: 160, height: 90 });
/** Zoom levels between the reference viewport and the picture: the picture shows the area the step shows there. */
const ZOOM_OFFSET = Math.log2(720 / THUMBNAIL_SIZE.height);
/** A picture whose tiles do not all come within this time is drawn with those that did (ms). */
const IDLE_WITHIN_MS = 4000;
/** The map's style must have loaded within this time (ms), or no picture is drawn. */
const LOAD_WITHIN_MS = 20000;
const DEFAULT_FOV = 36.86989764584402;

export class ThumbnailMap {
  /** @param {object|string} style the page's map style (the same the room's map draws) */
  constructor(style) {
    this.style = style;
    this.map = null;
    this.loaded = null;
  }

  /** The picture of `camera` (wire form) as a data URL; rejects without MapLibre or WebGL. */
  async render(camera) {
    const map = await this.ready();
    const fov = camera.fov ?? DEFAULT_FOV;
    if (Math.abs(map.getVerticalFieldOfView() - fov) > 1e-9) map.setVerticalFieldOfView(fov);
    const shown = toMapLibreCamera({ ...camera, zoom: Math.max(0, camera.zoom - ZOOM_OFFSET) }, THUMBNAIL_SIZE);
    map.jumpTo({ roll: 0, elevation: 0, ...shown });
    await idle(map);
    map.redraw();
    return map.getCanvas().toDataURL('image/jpeg', 0.8);
  }

  /** The map, made and loaded on first use (rejects when it is not loaded within `LOAD_WITHIN_MS`). */
  ready() {
    this.loaded ??= new Promise((resolve, reject) => {
      if (typeof maplibregl === 'undefined') throw new Error('MapLibre GL JS is missing');
      const container = document.createElement('div');
      container.className = 'thumbnail-map';
      container.setAttribute('aria-hidden', 'true');
      Object.assign(container.style, { width: `${THUMBNAIL_SIZE.width}px`, height: `${THUMBNAIL_SIZE.height}px` });
      document.body.append(container);
      this.map = new maplibregl.Map({
        container, style: this.style, interactive: false, attributionControl: false, pixelRatio: 1, fadeDuration: 0,
        maxPitch: 85, centerClampedToGround: false, renderWorldCopies: true,
        canvasContextAttributes: { preserveDrawingBuffer: true },
      });
      // What the style lacks (a source layer, a tile) is the room's map's problem too, and said there: not again here.
      this.map.on('error', () => {});
      const timer = setTimeout(() => reject(new Error('the thumbnail map did not load')), LOAD_WITHIN_MS);
      this.map.once('load', () => {
        clearTimeout(timer);
        resolve(this.map);
      });
    });
    return this.loaded;
  }
}

/** Resolves once `map` has drawn with every tile it wants, or after `IDLE_WITHIN_MS`. */
function idle(map) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, IDLE_WITHIN_MS);
    function done() {
      clearTimeout(timer);
      map.off('idle', done);
      resolve();
    }
    map.on('idle', done);
    map.triggerRepaint();
  });
}
