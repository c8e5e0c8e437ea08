import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GroundFollower, GROUND_CHANGE_M, RESEND_AFTER_MS } from '../js/map/ground.js';

const camera = (elevation) => ({ lat: 46.5, lon: 8, zoom: 12, bearing: 0, tilt: 60, ...(elevation === undefined ? {} : { elevation }) });
const follower = (o = {}) => {
  const sent = [];
  return { sent, ground: new GroundFollower({ send: (m) => (sent.push(m), true), ...o }) };
};

test('a driver clamped to the ground sends the ground under the centre as the elevation', () => {
  const { sent, ground } = follower();
  assert.deepEqual(ground.step(0, { canDrive: true, camera: camera(), ground: 1999.5 }), { type: 'set', camera: { elevation: 1999.5 } });
  assert.deepEqual(sent, [{ type: 'set', camera: { elevation: 1999.5 } }]);
});

test('nothing is sent when the room is already on the ground, within GROUND_CHANGE_M', () => {
  const { sent, ground } = follower();
  ground.step(0, { canDrive: true, camera: camera(2000), ground: 2000 + GROUND_CHANGE_M });
  ground.step(0, { canDrive: true, camera: camera(2000), ground: 2000 - GROUND_CHANGE_M });
  assert.deepEqual(sent, []);
  ground.step(0, { canDrive: true, camera: camera(2000), ground: 2000 + GROUND_CHANGE_M + 0.01 });
  assert.equal(sent.length, 1);
});

test('not while free, not for a follower, not while the ground is unknown, not during an animation', () => {
  const { sent, ground } = follower({ clamped: false });
  ground.step(0, { canDrive: true, camera: camera(), ground: 500 });
  ground.clamped = true;
  ground.step(0, { canDrive: false, camera: camera(), ground: 500 });
  ground.step(0, { canDrive: true, camera: camera(), ground: null });
  ground.step(0, { canDrive: true, camera: null, ground: 500 });
  ground.step(0, { canDrive: true, animating: true, camera: camera(), ground: 500 });
  assert.deepEqual(sent, []);
  ground.step(0, { canDrive: true, camera: camera(), ground: 500 });
  assert.equal(sent.length, 1);
});

test('the same height is sent again only after RESEND_AFTER_MS if the room has not taken it; a new one at once', () => {
  const { sent, ground } = follower();
  ground.step(0, { canDrive: true, camera: camera(), ground: 800 });
  ground.step(100, { canDrive: true, camera: camera(), ground: 800.2 });
  assert.equal(sent.length, 1, 'the frame bringing 800 back has not come yet');
  ground.step(200, { canDrive: true, camera: camera(), ground: 810 });
  assert.equal(sent.length, 2, 'the ground moved on');
  ground.step(200 + RESEND_AFTER_MS, { canDrive: true, camera: camera(), ground: 810 });
  assert.equal(sent.length, 3);
});

test('the ground is kept within the elevations the hub takes', () => {
  const { sent, ground } = follower();
  ground.step(0, { canDrive: true, camera: camera(), ground: 9500 });
  assert.deepEqual(sent, [{ type: 'set', camera: { elevation: 9000 } }]);
});
