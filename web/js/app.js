// The viewer page (web/index.html): shows the room's camera from the hub on a
// MapLibre map, and lets drivers and presenters move it with gestures.
//
// The map never moves on its own authority: every MapLibre handler is off and
// the only camera change is map.jumpTo() with a camera sampled from the
// interpolation buffer of hub frames, or, while a driver's own gesture is under
// way, the page's prediction of it (prediction.js: the hub's gesture rules,
// reconciled with the hub's gestureAck), or, while a follower explores, its
// own camera (explore.js), so nothing the hub sends is ever echoed back. The buffer plays the frames out behind an adaptive delay, for
// the time the camera will be painted (FramePacer), and the map is drawn right
// away. Local input becomes `gesture` messages (drivers, presenters) or, for
// a follower, moves its own map (page/follow.js: exploring, then Back to the
// room's camera).
//
// This file only puts the page together. The page's state has one owner,
// `PageState` (state/page_state.js), which applies the hub's messages; the
// other parts read it and render (map/map_view.js, ui/hud.js, ui/panel.js,
// page/*) or send through the one connection (net/connection.js).
// Tests read window.camhub (page/test_hook.js).

import { chooseStyle, fetchJson } from './map/map_style.js';
import { build } from '../../clients/js/src/protocol/messages.js';
import { SnapshotBuffer } from '../../clients/js/src/follow/interpolation.js';
import { FramePacer } from '../../clients/js/src/follow/playout.js';
import { Room } from '../../clients/js/src/room.js';
import { tokenFromUrl } from '../../clients/js/src/net/token_refresh.js';
import { RateMeter, Smoother } from '../../clients/js/src/net/clock.js';
import { laggedWebSocket } from './net/lag.js';
import { Hud } from './ui/hud.js';
import { InputCapture } from '../../clients/js/src/drive/input.js';
import { parseParams, hubUrl } from './ui/params.js';
import { IdMaker } from './ui/tour.js';
import { Predictor } from '../../clients/js/src/drive/prediction.js';
import { Explorer } from '../../clients/js/src/follow/explore.js';
import { ExplorerViews } from './page/explorer_views.js';
import { Sharing } from './page/sharing.js';
import { ReducedMotion } from '../../clients/js/src/follow/reduced_motion.js';
import { Panel } from './ui/panel.js';
import { Recordings } from './ui/recordings.js';
import { PageState } from './state/page_state.js';
import { MapView } from './map/map_view.js';
import { GroundFollower } from './map/ground.js';
import { toast, showFatal, Notices } from './page/notices.js';
import { Session } from './page/session.js';
import { Controls } from './page/controls.js';
import { ViewControls } from './page/view_controls.js';
import { FollowMode } from './page/follow.js';
import { Pointer } from './page/pointer.js';
import { PresenterOutline } from './page/presenter_outline.js';
import { StoryBar } from './page/story.js';
import { StoryPanel } from './page/story_panel.js';
import { StoryTools } from './page/story_tools.js';
import { TapMarkers } from './page/tap_markers.js';
import { RenderLoop } from './page/render_loop.js';
import { receive } from './page/receive.js';
import { testHook } from './page/test_hook.js';

const now = () => performance.timeOrigin + performance.now();
const container = document.querySelector('#map');
const elementSize = () => ({ width: Math.max(1, container.clientWidth), height: Math.max(1, container.clientHeight) });

const params = parseParams(location.search);
const state = new PageState(params, elementSize());
/** The style to start with (?style=, the hub's --style, its tiles, or the built-in one; see map_style.js). */
const mapStyle = await chooseStyle({ search: location.search, base: new URL('./', document.baseURI).href, fetchJson });
params.problems.push(...mapStyle.problems);

/** Everything the page is made of; each part reads the state and renders or sends. */
const page = {
  state, params, now, toast, mapStyle,
  // the hub's default rate is min(30, tick); the welcome says which rate was granted
  buffer: new SnapshotBuffer({ rate: params.rate ?? 30 }),
  pacer: new FramePacer(),
  fps: new RateMeter(),
  frameLatency: new Smoother(0.1),
  ids: new IdMaker(),
  hud: new Hud(document.querySelector('#hud')),
  /** The driver's own gestures, predicted at once and reconciled with the hub (?predict=0: numbered and measured only). */
  prediction: new Predictor({ viewport: state.screen.viewport, enabled: params.predict, ackTimeoutMs: 1500 + 2 * params.lag }),
  /** A follower's own map while it explores, and the glide back to the room's camera. */
  explorer: new Explorer({ viewport: state.screen.viewport }),
  /** Other clients' non-essential animations as jumps, for a page that prefers reduced motion (or ?motion=reduced). */
  reducedMotion: new ReducedMotion(params.motion === 'reduced'
    || (params.motion !== 'full' && matchMedia('(prefers-reduced-motion: reduce)').matches)),
};

/** The page's room (the client library's): its state is the page state; `conn` its connection. */
page.room = new Room({
  url: hubUrl(location),
  state,
  WebSocket: laggedWebSocket(globalThis.WebSocket, params.lag),
  viewport: () => state.screen.viewport,
  now,
  // ?tokenUrl=/path: a new token from the page's backend when the hub says the token expires soon.
  getToken: params.tokenUrl ? tokenFromUrl(params.tokenUrl) : undefined,
});
page.conn = page.room.conn;
page.room.on('message', (m, receivedAt, changes) => receive(page, m, receivedAt, changes));
page.room.on('connection', (s, detail) => {
  if (s === 'closed' && detail) console.info(`hub: ${detail}`);
  if (s === 'refused') page.session.refused(page.conn.refusal);
  page.controls.update();
});
page.room.on('protocolError', (e) => {
  state.diagnostics.protocolError(e.message);
  console.error(`hub sent an invalid message: ${e.message}`);
});
page.room.on('tokenRefreshFailed', (e) => toast(`Could not refresh the token (${e.message}).`, 'error', 10000));

/** The side panel's hub controls (event log, gesture switches, animations, query, tracking, plot). */
page.panel = new Panel({
  conn: page.conn, state, ids: page.ids, now, toast, container,
  map: () => page.mapView.map,
  playout: (t) => ({ latency: page.frameLatency.value, delay: page.buffer.delay, fps: page.fps.rate(t), resyncs: page.buffer.clock.resyncs }),
  onChange: () => page.controls.update(),
});
/** The panel's Recordings section (a presenter on a hub that records plays one into the room). */
page.recordings = new Recordings({ conn: page.conn, state, now, toast, token: () => params.token, viewport: () => state.screen.viewport });
page.mapView = new MapView({
  container, style: mapStyle.style, screen: state.screen, onFatal: showFatal, terrain: mapStyle.terrain,
  overlays: () => ({ route: state.route.geojson(), bounds: page.panel.boundsGeoJSON(), views: page.explorerViews.geojson }),
});
page.tapMarkers = new TapMarkers(() => page.mapView.map, state);
page.session = new Session(page);
page.notices = new Notices(params, (next) => page.session.rejoin(next));
page.controls = new Controls(page);
/** The projection switch, the roll slider and the Ctrl+Shift-drag roll (drivers and presenters). */
page.view = new ViewControls({ state, conn: page.conn, now, container, toast });
/** With the hub's terrain: a driver's camera clamped to the ground sends the ground's height as its elevation. */
page.ground = mapStyle.terrain ? new GroundFollower({ send: (m) => page.conn.send(m) }) : null;
page.view.showGround(page.ground);
page.follow = new FollowMode({
  state, conn: page.conn, explorer: page.explorer, now, toast, controls: page.controls, session: page.session,
});
page.pointer = new Pointer({ state, conn: page.conn, now, container });
/** Presenters and drivers: where each explorer looks, outlined on the map and listed with Bring back and Look here. */
page.explorerViews = new ExplorerViews({ state, conn: page.conn, mapView: page.mapView, explorer: page.explorer, now });
page.mapView.map?.on?.('move', () => page.explorerViews.drawArrows());
/** Whether an exploring follower tells the presenter where it looks (?share=0, the panel's switch; remembered). */
page.sharing = new Sharing({ params: state.params, control: page.follow.control });
page.outline = new PresenterOutline({ state, explorer: page.explorer, mapView: page.mapView });
/** The room's storyboard: the step's caption for everyone, stepping for presenters (and drivers where allowed). */
page.story = new StoryBar({ state, conn: page.conn, explorer: page.explorer, back: () => page.follow.back(), toast });
/** Presenters (drivers where allowed): the storyboard's steps as a list with pictures, edited in place, and its tools. */
page.storyPanel = new StoryPanel({ state, room: page.room, conn: page.conn, mapStyle: mapStyle.style, toast });
page.storyTools = new StoryTools({ state, send: (m) => page.storyPanel.send(m), toast });
page.follow.onUpdate = () => page.story.update(); // "Back to the current step" while a follower explores
page.input = captureInput(page);

/** Local input: gestures for the hub (predicted when ours may move the camera), else a follower's own map. */
function captureInput({ conn, prediction, follow }) {
  const input = new InputCapture(container, {
    canDrive: () => conn.joined && !page.pointer.touchMode && (state.canDrive || follow.mayExplore),
    onGesture: (g) => {
      if (!state.canDrive) return follow.input(g);
      if (lookedLocally(g)) return undefined;
      const m = build.gesture(g);
      // A kind switched off moves nothing on the hub: nothing to predict either.
      const predict = state.canDrive && !state.disabledGestures.has(m.kind);
      if (conn.send(predict ? prediction.outgoing(m, now(), state.screen.rendered) : m)) state.diagnostics.gestureSent();
    },
    onAttempt: () => follow.refuse(),
  });
  input.setViewport(state.screen.viewport.width, state.screen.viewport.height);
  input.attach();
  return input;
}

/**
 * A presenter's or driver's gesture that stays on its own map: a tap on an explorer's outline looks there, and
 * while it looks locally its gestures move its own map (the room's camera stays).
 */
function lookedLocally(g) {
  const views = page.explorerViews;
  if (g.kind === 'tap' && g.phase !== 'begin') {
    const client = page.mapView.viewAt(g.x, g.y);
    if (client) {
      views.lookAt(client);
      return true;
    }
  }
  if (!views.looking) return false;
  page.explorer.gesture(build.gesture(g), now());
  return true;
}

/** The map element's size: the input, prediction and map follow at once, the hub 150 ms after the last change. */
let viewportTimer = null;
new ResizeObserver(() => {
  const { width, height } = elementSize();
  if (!state.screen.resize(width, height)) return;
  page.input.setViewport(width, height);
  page.prediction.setViewport(state.screen.viewport);
  page.explorer.setViewport(state.screen.viewport);
  page.mapView.resize();
  clearTimeout(viewportTimer);
  viewportTimer = setTimeout(() => page.conn.send(build.viewport(state.screen.viewport.width, state.screen.viewport.height)), 150);
}).observe(container);

page.session.show();
page.notices.renderProblems();
new RenderLoop(page).start();
page.room.start();
page.controls.update();

window.camhub = testHook(page);
