// What the page does with each message from the hub: the page state applies
// it (state/page_state.js) and says what changed; this module passes the
// change on to the parts that render it (map overlays, the map's projection,
// panel, controls, toasts) and to the motion machinery (playout buffer,
// prediction, meters).

/**
 * The parts of the page a hub message reaches (built in app.js):
 * {state, params, conn, buffer, prediction, reducedMotion, fps, frameLatency, mapView, pointer, panel, tapMarkers,
 *  ids, session, controls, follow, view, story, storyPanel, toast}
 * @typedef {object} Page
 */

/** Handles one validated hub message received at local time `receivedAt`, which the room's state took as `changes`. */
export function receive(page, m, receivedAt, changes) {
  switch (m.type) {
    case 'welcome':
      return welcomed(page, m, receivedAt, changes);
    case 'frame':
      return framed(page, m, receivedAt);
    case 'animation':
      page.reducedMotion.report(m, page.state.me);
      animationReported(page, m);
      return page.panel.note(m);
    case 'event':
      eventReceived(page, m, changes);
      return page.panel.note(m);
    case 'gestures':
      return page.panel.showGestures();
    case 'result':
      return page.panel.result(m);
    case 'gestureAck':
      return page.prediction.ack(m, receivedAt);
    case 'tokenExpiring':
      return tokenExpiring(page, m);
    case 'tokenRefreshed':
      return undefined; // the room keeps the new token
    case 'error':
      if (m.ref === 'gesture') page.prediction.rejected(m, receivedAt, page.state.screen.lastSample?.camera ?? null);
      if (m.code === 'unavailable') {
        return page.toast(`Not done: the room has no reachable hub right now (a failover?). Your ${m.ref ?? 'command'} did not run; try again in a moment.`, 'error', 5000);
      }
      return page.toast(`${m.code}: ${m.message}`, 'error', 5000);
    default:
      return undefined; // pong (handled by the connection)
  }
}

/** The token expires within a minute: with ?tokenUrl the room gets a new one and refreshes; else the page says so. */
function tokenExpiring(page, m) {
  if (page.params.tokenUrl) return undefined;
  const at = new Date(m.exp * 1000).toLocaleTimeString();
  return page.toast(`Your token expires at ${at}: the hub will close this connection then.`, 'warn', 10000);
}

/** A welcome: a new session's playout, prediction and meters; the page shows what was joined. */
function welcomed(page, m, receivedAt, changes) {
  const { state, buffer, prediction, params } = page;
  buffer.reset();
  // the hub's default rate is min(30, tick); the welcome says which rate was granted
  buffer.setRate(state.rate ?? params.rate ?? 30);
  buffer.setTick(m.tick);
  buffer.push({ seq: m.seq, time: m.time, camera: m.camera, moving: false, by: null }, receivedAt);
  prediction.reset();
  prediction.setLimits(state.limits);
  page.fps.reset();
  page.frameLatency.reset();
  page.conn.latency.frame(m.time, receivedAt);
  page.mapView.setOverlay('camhub-route', state.route.geojson());
  projectionChanged(page);
  page.panel.welcome();
  if (changes.roleWas) page.toast(`Joined as ${state.role} (asked for ${changes.roleWas})`, 'warn');
  else page.toast(`Joined room ${state.room} as ${state.role}`, 'ok', 2000);
  page.session.joined(m.rate);
  page.pointer.reset();
  page.reducedMotion.reset();
  page.follow.changed(changes);
  page.explorerViews.update();
  page.story.update();
  page.storyPanel.welcome();
  page.controls.update();
}

function framed(page, m, receivedAt) {
  page.buffer.push(m, receivedAt);
  page.pointer.frame(m, receivedAt);
  page.fps.add(receivedAt);
  page.conn.latency.frame(m.time, receivedAt);
  const latency = page.conn.latency.frameLatency(m.time, receivedAt);
  if (latency !== null) page.frameLatency.add(latency);
}

/** Toasts for the end of this page's own animations (others' come with roomAnimations and are only listed). */
function animationReported(page, m) {
  const { state, ids, toast } = page;
  if ((m.owner && m.owner !== state.me) || !ids.owns(m.id)) return;
  const label = ids.label(m.id);
  if (m.status === 'finished') toast(`${label}: done`, 'ok', 2500);
  else if (m.status === 'cancelled' || m.status === 'superseded') {
    const who = m.by && m.by !== state.me ? ` by ${state.nameOf(m.by)}` : '';
    toast(`${label}: ${m.status}${who}${m.reason ? ` (${m.reason})` : ''}`, 'warn');
  }
  if (m.clamped && m.clamped.length && m.status === 'started') toast(`${label}: limited (${m.clamped.join(', ')})`, 'warn');
}

/** The room's map draws the world in another projection (or a welcome said which): the map and the switch follow. */
function projectionChanged(page) {
  page.mapView.setProjection(page.state.projection);
  page.view.update();
}

function eventReceived(page, m, changes) {
  const { state, toast } = page;
  if (changes.has('route')) page.mapView.setOverlay('camhub-route', state.route.geojson());
  if (changes.has('projection')) projectionChanged(page);
  if (changes.has('story')) {
    page.story.update();
    page.storyPanel.changed(m);
  }
  if (changes.has('viewports') || changes.has('role')) page.explorerViews.update();
  if (changes.has('limits')) page.prediction.setLimits(state.limits);
  if (changes.note && (m.event === 'joined' || m.event === 'left' || m.event === 'presenterChanged')) toast(changes.note, 'info', 2500);
  if (changes.has('role')) {
    if (changes.roleWas === 'presenter' && state.role === 'driver') toast('Another presenter took over: you are a driver now', 'warn', 5000);
    if (!state.canDrive) page.prediction.reset();
    page.session.showAddress(); // a demoted presenter rejoins as a driver
    page.story.update();
    page.storyPanel.update();
    page.controls.update();
  }
  if (m.event === 'tap' || m.event === 'longPress') page.tapMarkers.event(m);
  if (changes.has('summoned') || changes.has('followPolicy') || changes.has('limits')) page.follow.changed(changes);
}
