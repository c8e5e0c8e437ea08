/**
 * How long the glide from `from` to `to` takes (ms): longer the further the
 * two views are apart (in zoom levels, in screens between their centres, and
 * in bearing and roll),
 * from BACK_MIN_MS up to BACK_MAX_MS.
 */
export function backDuration(from: any, to: any, viewport: any): number;
/** The longest glide back to the room's camera (ms). */
export const BACK_MAX_MS: 1500;
/** The shortest one (ms): even a small step back is seen as a move, not a jump. */
export const BACK_MIN_MS: 300;
export class Explorer {
    /**
     * @param {object} o
     * @param {{width: number, height: number}} [o.viewport]   the page's viewport (gesture coordinates are in it)
     * @param {object} [o.settings]          the gesture rules' settings (default: the hub's, GESTURE_SETTINGS)
     */
    constructor({ viewport, settings }?: {
        viewport?: {
            width: number;
            height: number;
        };
        settings?: object;
    });
    viewport: {
        width: number;
        height: number;
    };
    settings: any;
    limits: Readonly<{
        minZoom: 0;
        maxZoom: 22;
        minTilt: 0;
        maxTilt: 60;
        maxTiltByZoom: any[];
        bounds: any;
        maxRoll: 180;
    }>;
    /** Glides back started since the page loaded (for tests: a Back glides, it does not jump). */
    glides: number;
    /** Back to following at once (a new session). */
    reset(): void;
    mode: string;
    camera: any;
    gestures: Map<any, any>;
    anim: any;
    pendingZoom: {
        zoom: number;
        until: any;
    };
    glide: {
        startT: any;
        ms: number;
    };
    lastShown: any;
    setViewport(viewport: any): void;
    /** The room's limits bound the explored map too (nil: the defaults). */
    setLimits(limits: any): void;
    /** True while the page shows its own camera (exploring, or gliding back). */
    get active(): boolean;
    get exploring(): boolean;
    /** Starts exploring from `shown` (the camera on screen at `t`); a glide back under way stops where it is. */
    explore(shown: any, t: any): void;
    /** One gesture message (kind, phase, x, y, t, …) applied to the explored camera at local time `t`. */
    gesture(m: any, t: any): void;
    continuous(m: any, t: any): void;
    zoom(m: any, t: any): void;
    /** Folds the animation under way into the camera at `t`. */
    settle(t: any): void;
    animated(t: any): any;
    /** Starts the glide back at `t` from what is on screen to `room` (the room's camera now); returns its length (ms). */
    back(t: any, room: any): number;
    /**
     * The camera to show at `t` given `room`, the room's camera for that moment
     * (the playout buffer's sample; null before any): the explored camera, a
     * point of the glide back, or null once following (show `room`).
     */
    sample(t: any, room: any): any;
}
