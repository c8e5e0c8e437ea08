// window.camhub: the page's state for tests (Tests/browser/) and the console.
// Read-only views of the page's parts; `send` is the only way in.

/**
 * @param {object} page {state, conn, buffer, pacer, prediction, input, mapView, panel, mapStyle, now, explorer,
 *   outline, reducedMotion, follow, recordings}: the whole page, whose parts this shows to tests
 */
export function testHook(page) {
  const { state, conn, buffer, pacer, prediction, input, mapView, panel, mapStyle, now } = page;
  const screen = state.screen;
  return {
    map: mapView.map,
    /** Where the map's style came from ('page' | 'hub' | 'tiles' | 'builtin') and its URL. */
    mapStyle: { from: mapStyle.from, url: mapStyle.url, name: mapStyle.style.name },
    /** The hub's terrain as the map's raster-dem source, null when it serves none. */
    terrain: mapStyle.terrain,
    /** With the hub's terrain: whether this page's camera follows the ground (GroundFollower), else null. */
    get groundClamped() {
      return page.ground ? page.ground.clamped : null;
    },
    /** What the page joins or joined: room, role, name, token, rate (asked), lag, predict, problems. */
    params: state.params,
    /** The page state: room, role, me, presenter, rate, tick, limits, roster(), nameOf(), … */
    room: state,
    buffer,
    connection: conn,
    get state() {
      return conn.state;
    },
    get client() {
      return state.me;
    },
    get role() {
      return state.joined ? state.role : null;
    },
    /** The camera last given to map.jumpTo (exactly the hub's once it rests). */
    get rendered() {
      return screen.rendered;
    },
    /** True when the rendered camera is a resting frame's and nothing newer is pending. */
    get settled() {
      return screen.settled(state.lastFrame);
    },
    get hubCamera() {
      return state.hubCamera;
    },
    /** Why the hub refused the last hello ({code, message, ref} or {close, reason}), null once joined. */
    get refusal() {
      return conn.refusal;
    },
    /**
     * Rendered cameras since local time `since` (ms, the page clock: performance.timeOrigin + performance.now()):
     * {t, camera, rt (the hub time it shows), paintAt (when it was expected on screen), seq (the newest of this
     * page's gestures it shows), drawn (when the synchronous draw ended, null when not drawn)}.
     */
    renders: (since = 0) => screen.renders(since),
    now,
    /** Click-to-query: the last picked point {x, y, lat, lon} and visible bounds {bounds, quad}. */
    get query() {
      return { point: panel.queries.lastPoint, bounds: panel.queries.lastBounds };
    },
    /** Tracking from the panel: the route being drawn and whether a simulated drive runs. */
    get tracking() {
      return { draft: [...panel.draft], driving: panel.drive !== null };
    },
    /** The event log's lines, newest first. */
    get eventLog() {
      return panel.eventLog.lines();
    },
    /** Gesture kinds switched off for this page, as the hub last said. */
    get disabledGestures() {
      return [...state.disabledGestures];
    },
    /** The frame-delay plot's samples {t, latency, delay, fps} of the last minute. */
    get delayPlot() {
      return panel.delayPlot.points;
    },
    /** The jitter buffer: delay, targetDelay, interval, jitter, lead, underruns, drySamples, samples, errorPx; frameMs. */
    get playout() {
      return { ...buffer.stats, frameMs: pacer.frameMs, drawMs: pacer.drawMs };
    },
    get viewport() {
      return screen.viewport;
    },
    /** The driver's prediction: mode, stats {acks, errorPx, maxErrorPx, correctionPx, maxCorrectionPx, dropped}, sentLog. */
    prediction,
    /**
     * Follow mode: what the page told the hub (state), its own map (mode: following | exploring | returning), the
     * room's follow counts and policy, whether the presenter's area is outlined (1) and the edge arrow shown, the
     * glides back started and the animations shown as jumps (reduced motion).
     */
    get follow() {
      return {
        state: state.followState, mode: page.explorer.mode, counts: state.followCounts, policy: state.followPolicy,
        outline: page.outline.area.features.length, arrow: !page.outline.arrow.hidden,
        glides: page.explorer.glides, jumps: page.reducedMotion.jumps, summonedBy: page.follow.summonedBy,
      };
    },
    /**
     * The audience's view (presenters and drivers): the explorers the page shows ({client, name, region}), the
     * outlines its map's `camhub-views` source holds (LineStrings of its GeoJSON, read back from MapLibre: their
     * rings and colours), the names listed under the follow counts, the "+N more" line, the edge arrows (client
     * ids) and whose region the page's own map shows (a local look; null when it shows the room's camera).
     */
    get explorerViews() {
      const source = page.mapView.map?.getSource('camhub-views');
      const drawn = (source?.serialize?.().data?.features ?? []).filter((f) => f.geometry.type === 'LineString');
      return {
        views: page.explorerViews.views.map((v) => ({ client: v.client, name: v.name, region: v.region })),
        outlines: drawn.length,
        rings: drawn.map((f) => ({ client: f.properties.client, color: f.properties.color, ring: f.geometry.coordinates })),
        listed: [...document.querySelectorAll('#explorer-views li .explorer-name')].map((e) => e.textContent),
        more: document.querySelector('#explorer-views .explorer-more')?.textContent ?? null,
        arrows: [...document.querySelectorAll('#explorer-arrows .explorer-arrow')].map((e) => e.dataset.client),
        lookingAt: page.explorerViews.looking ? page.explorerViews.lookingAt.client : null,
      };
    },
    /** Whether this page shares where it looks while it explores (?share=0, the panel's switch). */
    /** The storyboard panel: shown, folded, its rows (title, notes, current, picture drawn) and its pictures' work. */
    get storyPanel() {
      const p = page.storyPanel;
      return {
        shown: !p.el.hidden,
        folded: p.el.classList.contains('collapsed'),
        steps: p.steps,
        rows: p.rows.map((li) => ({
          title: li.querySelector('.story-step-title').value, notes: li.querySelector('.story-step-notes').value,
          current: li.classList.contains('current'), picture: li.querySelector('.story-thumb').src.startsWith('data:image/'),
        })),
        error: p.el.querySelector('#story-panel-error').hidden ? null : p.el.querySelector('#story-panel-error').textContent,
        renders: p.thumbnails.renders, failures: p.thumbnails.failures, pending: p.thumbnails.pending,
      };
    },
    get sharing() {
      return page.sharing.on;
    },
    /** Counters and logs (framesReceived, gesturesSent, errors, refusals, taps, …), the screen's, and the wire's. */
    get stats() {
      const { renderedMoving, renderedSeq, renderCount, viewport, mapLoaded } = screen;
      return {
        renderedMoving, renderedSeq, renderCount, viewport, mapLoaded, ...state.diagnostics.snapshot(),
        seq: state.lastFrame ? state.lastFrame.seq : null, sent: conn.sent, received: conn.received,
        gesturesCaptured: input.sentCount,
      };
    },
    /** MapLibre's own view of the camera. */
    mapCamera: () => mapView.camera(),
    /** Names of MapLibre handlers that are enabled (should be none). */
    handlersEnabled: () => mapView.handlersEnabled(),
    /**
     * Sets `camera` on the page's map, returns map.project() of each {lat, lon}
     * (the longitude copy nearest the map's centre unless nearestCopy is false)
     * and MapLibre's resulting camera, then puts the rendered camera back.
     */
    projectWithMapLibre: (camera, points, options) => mapView.project(camera, points, options),
    send: (message) => conn.send(message),
    /** The Recordings section: the hub's list, the open recording and its timeline. */
    recordings: page.recordings,
  };
}
