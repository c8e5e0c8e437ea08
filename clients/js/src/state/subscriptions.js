// What a client asks the hub for besides frames, by role (hello.events): the
// defaults of `connect()` and the viewer's.

import { SUBSCRIPTIONS } from '../protocol/messages.js';

/**
 * A follower's default subscriptions (what a map needs to stay in step) plus
 * what this page shows: the roster's arrivals and departures, and taps.
 */
export const FOLLOWER_EVENTS = ['steady', 'trackingModeChanged', 'limitsChanged', 'presenterChanged', 'audience',
  'joined', 'left', 'tap', 'longPress', 'routeChanged', 'roomAnimations', 'summoned', 'followPolicyChanged',
  'viewChanged', 'projectionChanged', 'storyStep', 'storyChanged'];

/** Drivers and presenters: everything but raw gesture reports, and the room's animations for the HUD. */
export const DRIVER_EVENTS = SUBSCRIPTIONS.filter((e) => e !== 'gesture');

/** The events the page subscribes to in `role`. */
export function eventsFor(role) {
  return role === 'follower' ? FOLLOWER_EVENTS : DRIVER_EVENTS;
}
