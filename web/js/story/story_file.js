// A storyboard file the presenter loads in the page: a Google Earth tour
// (.kml), the hub's steps (JSON: an array or {steps}) or a Mapbox
// storytelling config as JSON ({chapters}), read into steps as the hub's own
// reader does (docs/PROTOCOL.md, "Storyboards from files"; the command line
// and the server API also take KMZ and config.js). The XML is parsed by the
// page's DOMParser (passed in: pure otherwise).

/** MapLibre's default vertical field of view (degrees) and the Earth's radius (m) it scales altitudes with. */
const DEFAULT_FOV = 36.86989764584402;
const EARTH_RADIUS = 6371008.8;
/** The viewport height tours are converted for: the hub's default viewport (1280 × 720). */
const REFERENCE_HEIGHT = 720;
const MAX_TILT = 85;

/**
 * The zoom at which MapLibre's eye is `metres` from the point it looks at over `latitude`, at the reference viewport.
 * @param {number} metres
 * @param {number} latitude degrees
 */
export function zoomForDistance(metres, latitude) {
  const pixels = REFERENCE_HEIGHT / 2 / Math.tan((DEFAULT_FOV * Math.PI) / 360);
  const circumference = 2 * Math.PI * EARTH_RADIUS * Math.cos((latitude * Math.PI) / 180);
  return Math.log2((pixels * circumference) / (512 * metres));
}

/** The point `metres` along the great circle leaving (lat, lon) at `heading` degrees. */
function destination(lat, lon, heading, metres) {
  const d = metres / EARTH_RADIUS;
  const h = (heading * Math.PI) / 180;
  const lat1 = (lat * Math.PI) / 180;
  const lon1 = (lon * Math.PI) / 180;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(h));
  const lon2 = lon1 + Math.atan2(Math.sin(h) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: (lat2 * 180) / Math.PI, lon: (lon2 * 180) / Math.PI };
}

/** Plain text from a balloon or chapter description that may hold HTML. */
export function plainText(html) {
  const text = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>/gi, '\n').replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
  const lines = text.split('\n').map((l) => l.split(' ').filter((w) => w !== '').join(' '));
  const out = [];
  for (const line of lines) if (!(line === '' && (out.length === 0 || out[out.length - 1] === ''))) out.push(line);
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

const local = (el) => el.localName;
const children = (el, name) => [...el.children].filter((c) => local(c) === name);
const child = (el, name) => children(el, name)[0] ?? null;
const value = (el, name) => child(el, name)?.textContent.trim() ?? null;

function number(el, name, fallback) {
  const text = value(el, name);
  if (text === null || text === '') return fallback;
  const v = Number(text);
  if (!Number.isFinite(v)) throw new Error(`${local(el)}: ${name} '${text}' is not a number`);
  return v;
}

function position(v) {
  const lon = number(v, 'longitude', null);
  const lat = number(v, 'latitude', null);
  if (lon === null) throw new Error(`${local(v)}: longitude missing`);
  if (lat === null) throw new Error(`${local(v)}: latitude missing`);
  return { lat, lon };
}

/** A KML view (LookAt or Camera) as the room's camera. */
function viewCamera(v) {
  const { lat, lon } = position(v);
  const heading = number(v, 'heading', 0);
  const tilt = Math.min(number(v, 'tilt', 0), MAX_TILT);
  if (local(v) === 'LookAt') {
    const range = number(v, 'range', null);
    if (!(range > 0)) throw new Error('LookAt: range missing or not above 0');
    const mode = value(v, 'altitudeMode');
    const elevation = mode === null || mode === 'clampToGround' ? 0 : number(v, 'altitude', 0);
    const camera = { lat, lon, zoom: zoomForDistance(range, lat), bearing: heading, tilt };
    if (elevation !== 0) camera.elevation = elevation;
    return camera;
  }
  const altitude = value(v, 'altitudeMode') === 'clampToGround' ? 0 : number(v, 'altitude', 0);
  if (!(altitude > 0)) throw new Error('Camera: altitude must be above the ground');
  const t = (tilt * Math.PI) / 180;
  const ground = destination(lat, lon, heading, altitude * Math.tan(t));
  const camera = { lat: ground.lat, lon: ground.lon, zoom: zoomForDistance(altitude / Math.cos(t), ground.lat), bearing: heading, tilt };
  const roll = number(v, 'roll', 0);
  if (roll !== 0) camera.roll = roll;
  return camera;
}

/**
 * What a browser's XML parser said about a file that is not well-formed, as the hub says it: `line 4: not
 * well-formed XML (…)` when the parser named the line (Chromium: "error on line 4 at column 12: …"), else its first line.
 * @param {string} report the text of the parser's `parsererror` element
 */
export function xmlProblem(report) {
  const at = /line (\d+)(?: at column \d+)?: ([^\n]*)/.exec(report);
  if (at) return `line ${at[1]}: not well-formed XML (${at[2].trim()})`;
  return `not well-formed XML (${report.split('\n')[0].trim()})`;
}

/**
 * The steps of a KML tour's first gx:Tour (`doc`: a parsed XML document).
 * @param {Document} doc
 */
export function tourSteps(doc) {
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(xmlProblem(error.textContent));
  const tour = [...doc.getElementsByTagNameNS('*', 'Tour')][0];
  if (!tour) throw new Error('kml: no gx:Tour');
  const playlist = child(tour, 'Playlist');
  if (!playlist) throw new Error('gx:Tour: no gx:Playlist');
  const placemarks = new Map([...doc.getElementsByTagNameNS('*', 'Placemark')].filter((p) => p.id).map((p) => [p.id, p]));
  const steps = [];
  for (const item of playlist.children) {
    const last = steps[steps.length - 1];
    switch (local(item)) {
      case 'FlyTo': {
        const view = child(item, 'LookAt') ?? child(item, 'Camera');
        if (!view) throw new Error('gx:FlyTo: no LookAt or Camera');
        const duration = number(item, 'duration', 0);
        const mode = value(item, 'flyToMode') ?? 'bounce';
        if (mode !== 'bounce' && mode !== 'smooth') throw new Error(`gx:FlyTo: gx:flyToMode must be bounce or smooth (got '${mode}')`);
        const step = { camera: viewCamera(view), hold: 0 };
        if (duration === 0) step.via = 'jump';
        else {
          if (mode === 'smooth') step.via = 'ease';
          step.duration = duration;
        }
        steps.push(step);
        break;
      }
      case 'Wait':
        if (last && last.hold !== undefined) last.hold = Math.min(last.hold + number(item, 'duration', 0), 3600);
        break;
      case 'TourControl':
        if (last) delete last.hold;
        break;
      case 'AnimatedUpdate':
        if (!last) break;
        for (const change of item.getElementsByTagNameNS('*', 'Placemark')) {
          if (value(change, 'balloonVisibility') !== '1') continue;
          const placemark = placemarks.get(change.getAttribute('targetId'));
          if (!placemark) continue;
          const name = plainText(value(placemark, 'name') ?? '').replace(/\n/g, ' ');
          const notes = plainText(value(placemark, 'description') ?? '');
          if (name) last.title = name;
          if (notes) last.notes = notes;
        }
        break;
      default:
        break;
    }
  }
  if (steps.length === 0) throw new Error('gx:Playlist: no gx:FlyTo');
  return steps;
}

/** A storytelling config's chapters (JSON) as steps. */
export function chapterSteps(config) {
  if (!Array.isArray(config.chapters) || config.chapters.length === 0) throw new Error('config: no chapters');
  return config.chapters.map((chapter, i) => {
    const where = `chapters[${i}]`;
    const loc = chapter.location;
    if (!loc || !Array.isArray(loc.center) || loc.center.length !== 2) throw new Error(`${where}: location.center must be [longitude, latitude]`);
    const camera = { lat: loc.center[1], lon: loc.center[0], zoom: loc.zoom, bearing: loc.bearing ?? 0, tilt: Math.min(Math.max(loc.pitch ?? 0, 0), MAX_TILT) };
    const via = { flyTo: 'fly', easeTo: 'ease', jumpTo: 'jump' }[chapter.mapAnimation ?? 'flyTo'];
    if (!via) throw new Error(`${where}: mapAnimation must be flyTo, easeTo or jumpTo`);
    const step = { camera };
    if (via !== 'fly') step.via = via;
    const title = plainText(chapter.title ?? '').replace(/\n/g, ' ');
    const notes = plainText(chapter.description ?? '');
    if (title) step.title = title;
    if (notes) step.notes = notes;
    return step;
  });
}

/**
 * The steps of a file the presenter chose: a KML tour, the hub's steps or a storytelling config (JSON).
 * @param {string} text the file's text
 * @param {{parseXML: (text: string) => Document}} parts
 */
export function readStoryFile(text, { parseXML }) {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return tourSteps(parseXML(text));
  let json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`neither KML nor JSON (${e.message}); config.js and KMZ: camhub story import`);
  }
  if (Array.isArray(json)) return json;
  if (Array.isArray(json.steps)) return json.steps;
  if (json.chapters) return chapterSteps(json);
  throw new Error('json: neither steps nor a storytelling config (chapters)');
}
