// @ts-check
// A typed user of the package: checked with `tsc --checkJs --noEmit` against
// the generated declarations (types/), so a declaration that no longer fits
// how the package is meant to be used fails the tests. Never run.
import { connect, attachMapLibre, CamHubError, tokenFromUrl, toMapLibreCamera, fromMapLibreCamera, applyProjection } from 'camhub-client';

/** @param {any} map a MapLibre map */
export async function presenterTour(map) {
  const room = connect({ url: 'ws://127.0.0.1:8080/hub', room: 'demo', role: 'presenter', name: 'Ana',
    getToken: tokenFromUrl('/token') });
  /** @type {{client: string}} */
  const welcome = await room.ready;
  const report = await room.fly({ lat: 48.85, lon: 2.35, zoom: 12 }, { duration: 3, essential: true });
  /** @type {string} */
  const status = report.status;
  room.set({ zoom: 4 });
  room.set({ roll: -10, elevation: 250, fov: 45, tilt: 85 });
  const own = fromMapLibreCamera(map);
  /** @type {number | undefined} */
  const roll = own.roll;
  /** @type {number | undefined} */
  const elevation = toMapLibreCamera({ ...own, elevation: 100 }, { width: 800, height: 600 }).elevation;
  room.track({ mode: 'none' });
  room.route([{ lat: 0, lon: 0 }, { lat: 1, lon: 1 }]);
  room.follow('exploring');
  room.pointer(48.85, 2.35);
  room.setProjection('globe');
  /** @type {'mercator'|'globe'} */
  const projection = room.projection;
  /** @type {boolean} */
  const drawn = applyProjection(map, room.projection);
  const result = await room.query('bounds');
  const off = room.on('followChanged', (m) => console.log(m.client, m.state));
  off();
  const attached = attachMapLibre(map, room, { mode: 'drive', fit: 'cover' });
  attached.back();
  /** @type {boolean} */
  const exploring = attached.exploring;
  try {
    await room.summon();
  } catch (e) {
    if (e instanceof CamHubError) console.log(e.code);
  }
  room.close();
  return { welcome, status, result, exploring, roster: room.roster, camera: room.camera, roll, elevation, projection, drawn };
}
