// camhub-client: join a CameraHub room from a browser or node.
//
//   import { connect } from 'camhub-client';
//   const room = connect({ url: 'ws://localhost:8080/hub', room: 'demo', role: 'presenter' });
//   await room.ready;
//   const report = await room.fly({ lat: 48.85, lon: 2.35, zoom: 12 }, { duration: 3 });
//
// The pieces below it are exported too: the protocol (`build`, `parseMessage`),
// the connection, the room's state, the follower pipeline (jitter buffer,
// Hermite interpolation, paint-time prediction), the driver pipeline (gesture
// recognition, prediction and reconciliation), the camera math, and the
// MapLibre adapter.

export { connect, Room, CamHubError, ENDED_STATUSES } from './room.js';
export { Emitter } from './events.js';
export { build, encode, parseMessage, validateCamera, validateGesture, ProtocolError, ROLES, FOLLOW_STATES, FRAME_ENCODINGS,
  EVENT_NAMES, ERROR_CODES, ANIMATION_STATUSES, SUBSCRIPTIONS, CAMERA_DEFAULTS, PROPERTY_NAMES, PROJECTIONS } from './protocol/messages.js';
export { buildStory, storySet, validateStep, STORY_LIMITS, STORY_VIAS, STEP_TARGETS } from './protocol/story.js';
export { decodeBinaryFrame, BINARY_FRAME_KIND, BINARY_FRAME_3D_KIND } from './protocol/binary_frame.js';
export { Connection, SUBPROTOCOL, FINAL_CLOSE_CODES, DRAIN_CLOSE_CODES } from './net/connection.js';
export { tokenFromUrl } from './net/token_refresh.js';
export { LatencyEstimator } from './net/clock.js';
export { RoomState, Changes } from './state/room_state.js';
export { eventsFor, FOLLOWER_EVENTS, DRIVER_EVENTS } from './state/subscriptions.js';
export { SnapshotBuffer, hermiteCamera, interpolateCamera } from './follow/interpolation.js';
export { PlayoutClock, FramePacer } from './follow/playout.js';
export { Explorer } from './follow/explore.js';
export { GestureRecognizer } from './drive/gestures.js';
export { Predictor } from './drive/prediction.js';
export { InputCapture } from './drive/input.js';
export { fitCamera, FIT_MODES } from './geo/fit.js';
export { project, unproject, visibleBounds, wrapLongitude, centerPoint, DEFAULT_FOV_DEGREES } from './geo/projection.js';
export { globeProject, globeUnproject, isGlobe, GLOBE_FLAT_FROM_ZOOM } from './geo/globe.js';
export { visibleRegion, continuousRegion } from './geo/region.js';
export { toMapLibreCamera, fromMapLibreCamera, applyProjection, mapProjection, MAPLIBRE_HANDLERS } from './maplibre/camera.js';
export { attachMapLibre, MapLibreAttachment } from './maplibre/attach.js';
export { FollowControl } from './follow/follow_control.js';
export { cameraToShow } from './follow/show.js';
export { ReducedMotion } from './follow/reduced_motion.js';
