/** The events the page subscribes to in `role`. */
export function eventsFor(role: any): string[];
/**
 * A follower's default subscriptions (what a map needs to stay in step) plus
 * what this page shows: the roster's arrivals and departures, and taps.
 */
export const FOLLOWER_EVENTS: string[];
/** Drivers and presenters: everything but raw gesture reports, and the room's animations for the HUD. */
export const DRIVER_EVENTS: string[];
