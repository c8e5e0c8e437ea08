/**
 * Validates a camera object. With `partial`, any subset of the fields is allowed
 * (but at least one). With `wire` (cameras the hub sends), lon must lie in
 * [-180, 180] and bearing in [0, 360]. roll, elevation and fov are optional:
 * roll within [-180, 180]; a partial camera (what a client sends) has them within
 * what the hub takes (elevation -11000…9000 m, fov 1…60 degrees), any other
 * camera an elevation that is finite and a fov within (0, 180). Returns the
 * camera (not copied).
 */
export function validateCamera(camera: any, where?: string, { partial, wire }?: {
    partial?: boolean;
    wire?: boolean;
}): any;
/**
 * A visible region: four [lon, lat] corners (finite; lat within ±90, lon within ±180). Throws naming `where`.
 * @param {unknown} region
 * @param {string} where
 */
export function checkRegion(region: unknown, where: string): void;
/**
 * Parses and validates one hub message (JSON text, a binary frame's bytes, or an already parsed object).
 * Returns the message object; throws ProtocolError with a clear reason
 * (code 'json', 'invalid' or 'unknown-type').
 */
export function parseMessage(input: any): any;
/**
 * Validates and normalizes one gesture (kind, phase, x, y, t and the optional
 * numbers) into a `gesture` message. Instantaneous kinds (tap, doubleTap,
 * twoFingerTap, scroll, longPress) are sent without a phase; continuous kinds
 * (pan, pinch, tilt, rotate) need one.
 */
export function validateGesture(g: any, where?: string): {
    type: string;
    kind: any;
};
/** JSON text for a message object. */
export function encode(message: any): string;
export { ProtocolError };
export const SERVER_MESSAGE_TYPES: string[];
export const ROLES: string[];
/** How frames come (`hello.encoding`): JSON text, or binary (protocol/binary_frame.js). */
export const FRAME_ENCODINGS: string[];
export const GESTURE_KINDS: string[];
/** Kinds that happen at an instant: sent without a phase. */
export const INSTANT_GESTURE_KINDS: string[];
export const GESTURE_PHASES: string[];
export const ANIMATION_STATUSES: string[];
export const EVENT_NAMES: string[];
/** `looking` messages a client sends at most per second (the hub drops what comes faster). */
export const LOOKING_PER_SECOND: 2;
export const ERROR_CODES: string[];
/** A client's follow state: on the room's camera, on its own map, or not looking. */
export const FOLLOW_STATES: string[];
/** How a room's map draws the world (MapLibre GL JS 5 `projection.type`): flat Web Mercator, or a globe. */
export const PROJECTIONS: string[];
export const CURVE_NAMES: string[];
export const TRACKING_MODES: string[];
/** Most points a room's route may have (sent in pieces with `append`). */
export const MAX_ROUTE_POINTS: 10000;
export const ANIMATION_KINDS: string[];
/** How a live animation in `welcome.animations` stands. */
export const LIVE_ANIMATION_STATUSES: string[];
/** Camera property names of animation claims and reports, in the hub's order. */
export const PROPERTY_NAMES: string[];
export const QUERY_KINDS: string[];
/** The centre elevations (m) and fields of view (degrees) the hub takes in a command. */
export const ELEVATION_RANGE: readonly number[];
export const FOV_RANGE: readonly number[];
/** A camera's defaults for the fields it may leave out (absent on the wire means these). */
export const CAMERA_DEFAULTS: Readonly<{
    roll: 0;
    elevation: 0;
    fov: 36.86989764584402;
}>;
/** Longest room name, client name and animation/query id the hub accepts. */
export const MAX_NAME_LENGTH: 64;
export const SUBSCRIPTIONS: string[];
export namespace build {
    /**
     * @param {{room: string, role?: string, name?: string, token?: string, rate?: number,
     *   viewport?: {width: number, height: number}, events?: string[], fit?: string, encoding?: string,
     *   render?: {roll?: boolean, maxTilt?: number, globe?: boolean}}} options `render`: what this client's
     *   map can draw (default everything); the hub then sends the closest camera it can show
     */
    function hello({ room, role, name, token, rate, viewport, events, fit, encoding, render }?: {
        room: string;
        role?: string;
        name?: string;
        token?: string;
        rate?: number;
        viewport?: {
            width: number;
            height: number;
        };
        events?: string[];
        fit?: string;
        encoding?: string;
        render?: {
            roll?: boolean;
            maxTilt?: number;
            globe?: boolean;
        };
    }): {
        type: string;
        room: string;
        role: string;
    };
    /**
     * @param {{room: string, role?: string, name?: string, token?: string, rate?: number,
     *   viewport?: {width: number, height: number}, events?: string[], fit?: string, encoding?: string,
     *   render?: {roll?: boolean, maxTilt?: number, globe?: boolean}}} options `render`: what this client's
     *   map can draw (default everything); the hub then sends the closest camera it can show
     */
    function hello({ room, role, name, token, rate, viewport, events, fit, encoding, render }?: {
        room: string;
        role?: string;
        name?: string;
        token?: string;
        rate?: number;
        viewport?: {
            width: number;
            height: number;
        };
        events?: string[];
        fit?: string;
        encoding?: string;
        render?: {
            roll?: boolean;
            maxTilt?: number;
            globe?: boolean;
        };
    }): {
        type: string;
        room: string;
        role: string;
    };
    /** How this page fits the room's camera to its screen from now on (`same` or `cover`). */
    function fit(mode: any): {
        type: string;
        mode: any;
    };
    /** How this page fits the room's camera to its screen from now on (`same` or `cover`). */
    function fit(mode: any): {
        type: string;
        mode: any;
    };
    function subscribe(events: any): {
        type: string;
        events: any[];
    };
    function subscribe(events: any): {
        type: string;
        events: any[];
    };
    function set(camera: any): {
        type: string;
        camera: {
            anchor: {
                x: any;
                y: any;
            };
            padding: any;
        };
    };
    function set(camera: any): {
        type: string;
        camera: {
            anchor: {
                x: any;
                y: any;
            };
            padding: any;
        };
    };
    /**
     * @param {object} camera
     * @param {{id?: string, duration?: number, curve?: string|number[], around?: {x: number, y: number},
     *   essential?: boolean}} options
     */
    function ease(camera: any, { id, duration, curve, around, essential }?: {
        id?: string;
        duration?: number;
        curve?: string | number[];
        around?: {
            x: number;
            y: number;
        };
        essential?: boolean;
    }): any;
    /**
     * @param {object} camera
     * @param {{id?: string, duration?: number, curve?: string|number[], around?: {x: number, y: number},
     *   essential?: boolean}} options
     */
    function ease(camera: any, { id, duration, curve, around, essential }?: {
        id?: string;
        duration?: number;
        curve?: string | number[];
        around?: {
            x: number;
            y: number;
        };
        essential?: boolean;
    }): any;
    /**
     * @param {object} camera
     * @param {{id?: string, duration?: number, speed?: number, curve?: number, minZoom?: number,
     *   essential?: boolean}} options
     */
    function fly(camera: any, { id, duration, speed, curve, minZoom, essential }?: {
        id?: string;
        duration?: number;
        speed?: number;
        curve?: number;
        minZoom?: number;
        essential?: boolean;
    }): any;
    /**
     * @param {object} camera
     * @param {{id?: string, duration?: number, speed?: number, curve?: number, minZoom?: number,
     *   essential?: boolean}} options
     */
    function fly(camera: any, { id, duration, speed, curve, minZoom, essential }?: {
        id?: string;
        duration?: number;
        speed?: number;
        curve?: number;
        minZoom?: number;
        essential?: boolean;
    }): any;
    /**
     * @param {object} to
     * @param {{id?: string, duration: number, curve?: string|number[], delay?: number, after?: string,
     *   essential?: boolean}} options
     */
    function animate(to: any, { id, duration, curve, delay, after, essential }?: {
        id?: string;
        duration: number;
        curve?: string | number[];
        delay?: number;
        after?: string;
        essential?: boolean;
    }): any;
    /**
     * @param {object} to
     * @param {{id?: string, duration: number, curve?: string|number[], delay?: number, after?: string,
     *   essential?: boolean}} options
     */
    function animate(to: any, { id, duration, curve, delay, after, essential }?: {
        id?: string;
        duration: number;
        curve?: string | number[];
        delay?: number;
        after?: string;
        essential?: boolean;
    }): any;
    /** `cancel()`: this client's animations; `cancel({id})`: one; `cancel({all: true})`: the room's. */
    /** @param {{id?: string, all?: boolean}} options */
    function cancel({ id, all }?: {
        id?: string;
        all?: boolean;
    }): {
        type: string;
        id: any;
        all?: undefined;
    } | {
        type: string;
        all: boolean;
        id?: undefined;
    } | {
        type: string;
        id?: undefined;
        all?: undefined;
    };
    /** `cancel()`: this client's animations; `cancel({id})`: one; `cancel({all: true})`: the room's. */
    /** @param {{id?: string, all?: boolean}} options */
    function cancel({ id, all }?: {
        id?: string;
        all?: boolean;
    }): {
        type: string;
        id: any;
        all?: undefined;
    } | {
        type: string;
        all: boolean;
        id?: undefined;
    } | {
        type: string;
        id?: undefined;
        all?: undefined;
    };
    function gesture(g: any): {
        type: string;
        kind: any;
    };
    function gesture(g: any): {
        type: string;
        kind: any;
    };
    /** Enables/disables default gesture actions for this client (not a batch of gestures). */
    /** @param {{disable?: string[], enable?: string[]}} options */
    function gestures({ disable, enable }?: {
        disable?: string[];
        enable?: string[];
    }): {
        type: string;
    };
    /** Enables/disables default gesture actions for this client (not a batch of gestures). */
    /** @param {{disable?: string[], enable?: string[]}} options */
    function gestures({ disable, enable }?: {
        disable?: string[];
        enable?: string[];
    }): {
        type: string;
    };
    function viewport(width: any, height: any): {
        type: string;
        width: any;
        height: any;
    };
    function viewport(width: any, height: any): {
        type: string;
        width: any;
        height: any;
    };
    function limits(limits: any): any;
    function limits(limits: any): any;
    /** @param {{mode?: string, location?: {lat: number, lon: number, heading?: number}}} options */
    function track({ mode, location }?: {
        mode?: string;
        location?: {
            lat: number;
            lon: number;
            heading?: number;
        };
    }): {
        type: string;
    };
    /** @param {{mode?: string, location?: {lat: number, lon: number, heading?: number}}} options */
    function track({ mode, location }?: {
        mode?: string;
        location?: {
            lat: number;
            lon: number;
            heading?: number;
        };
    }): {
        type: string;
    };
    /** The room's route: `route(points)` replaces it ([] clears it), `route(points, {append: true})` extends it. */
    function route(points: any, { append }?: {
        append?: boolean;
    }): {
        type: string;
        points: any;
    };
    /** The room's route: `route(points)` replaces it ([] clears it), `route(points, {append: true})` extends it. */
    function route(points: any, { append }?: {
        append?: boolean;
    }): {
        type: string;
        points: any;
    };
    /**
     * `query(id, 'project', {points: [{lat, lon}]})`, `'unproject'` {points: [{x, y}]}, `'bounds'`, `'fit'` {bounds, padding?},
     * `'story'` (the room's storyboard whole: presenters, drivers where allowed).
     */
    function query(id: any, what: any, params?: {}): {
        type: string;
        id: any;
        what: any;
    };
    /**
     * `query(id, 'project', {points: [{lat, lon}]})`, `'unproject'` {points: [{x, y}]}, `'bounds'`, `'fit'` {bounds, padding?},
     * `'story'` (the room's storyboard whole: presenters, drivers where allowed).
     */
    function query(id: any, what: any, params?: {}): {
        type: string;
        id: any;
        what: any;
    };
    function ping(t: any): {
        type: string;
        t: any;
    };
    function ping(t: any): {
        type: string;
        t: any;
    };
    /** A new signed token for the session (answered with tokenRefreshed, or error code token). */
    function refresh(token: any): {
        type: string;
        token: any;
    };
    /** A new signed token for the session (answered with tokenRefreshed, or error code token). */
    function refresh(token: any): {
        type: string;
        token: any;
    };
    /** Shows this page's pointer at {lat, lon} (`pointer(null)` hides it). */
    function pointer(lat: any, lon: any): {
        type: string;
        lat: any;
        lon?: undefined;
    } | {
        type: string;
        lat: any;
        lon: any;
    };
    /** Shows this page's pointer at {lat, lon} (`pointer(null)` hides it). */
    function pointer(lat: any, lon: any): {
        type: string;
        lat: any;
        lon?: undefined;
    } | {
        type: string;
        lat: any;
        lon: any;
    };
    /** This page's own follow state. */
    function follow(state: any): {
        type: string;
        state: any;
    };
    /** This page's own follow state. */
    function follow(state: any): {
        type: string;
        state: any;
    };
    /**
     * Presenter: calls back everyone who explores or is away, or only `client` (answered with a `result` of
     * `what` summon).
     * @param {string} [id] echoed in the result
     * @param {string} [client] the one client to call back
     */
    function summon(id?: string, client?: string): {
        type: string;
        id?: undefined;
    } | {
        type: string;
        id: any;
    };
    /**
     * Presenter: calls back everyone who explores or is away, or only `client` (answered with a `result` of
     * `what` summon).
     * @param {string} [id] echoed in the result
     * @param {string} [client] the one client to call back
     */
    function summon(id?: string, client?: string): {
        type: string;
        id?: undefined;
    } | {
        type: string;
        id: any;
    };
    /**
     * An exploring client's visible region (four [lon, lat] corners, see geo/region.js), or null: it stops sharing.
     * @param {number[][]|null} region
     */
    function looking(region: number[][]): {
        type: string;
        region: number[][];
    };
    /**
     * An exploring client's visible region (four [lon, lat] corners, see geo/region.js), or null: it stops sharing.
     * @param {number[][]|null} region
     */
    function looking(region: number[][]): {
        type: string;
        region: number[][];
    };
    /** Presenter: `false` locks following (nobody may explore), `true` unlocks. */
    function followPolicy(explore: any): {
        type: string;
        explore: any;
    };
    /** Presenter: `false` locks following (nobody may explore), `true` unlocks. */
    function followPolicy(explore: any): {
        type: string;
        explore: any;
    };
    /** Drivers, presenters: the room's map as a globe (`'globe'`) or flat (`'mercator'`). */
    function projection(projection: any): {
        type: string;
        projection: any;
    };
    /** Drivers, presenters: the room's map as a globe (`'globe'`) or flat (`'mercator'`). */
    function projection(projection: any): {
        type: string;
        projection: any;
    };
}
import { ProtocolError } from "./protocol_error.js";
