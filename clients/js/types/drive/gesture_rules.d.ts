/** The properties each kind claims on the hub (GestureKind.claims). */
export function claimsOf(kind: any, aroundPoint?: boolean): string[];
/** `camera` clamped to `limits` as the hub clamps it (zoom, tilt for that zoom, bearing, roll within ±maxRoll, anchor, target). */
export function clampCamera(camera: any, limits?: Readonly<{
    minZoom: 0;
    maxZoom: 22;
    minTilt: 0;
    maxTilt: 60;
    maxTiltByZoom: any[];
    bounds: any;
    maxRoll: 180;
}>): any;
/** Progress at elapsed fraction u of a CSS cubic Bézier [x1, y1, x2, y2] (TimingCurve.progress). */
export function curveProgress([x1, y1, x2, y2]: [any, any, any, any], u: any): number;
/** An ease of the centre from `from` to `to` (zoom unchanged: a straight line in Mercator). */
export function easePlan(from: any, to: any, duration: any, curve: any): {
    kind: string;
    from: any;
    to: any;
    duration: any;
    curve: any;
    held: string[];
};
/**
 * The zoom a double tap, two-finger tap or scroll starts from `camera`, as the
 * hub plans it: {id, plan, zoom (its target)}. `baseZoom` is the target of the
 * client's zoom still under way (successive zooms add up), else camera.zoom.
 */
export function zoomGesture(input: any, camera: any, baseZoom: any, viewport: any, limits?: Readonly<{
    minZoom: 0;
    maxZoom: 22;
    minTilt: 0;
    maxTilt: 60;
    maxTiltByZoom: any[];
    bounds: any;
    maxRoll: 180;
}>, settings?: Readonly<{
    velocityWindow: 0.1;
    momentumMaxPause: 0.05;
    momentumLinearity: 0.3;
    momentumDeceleration: 2500;
    momentumMaxSpeed: 1400;
    momentumCurve: number[];
    momentumHorizonFraction: 0.85;
    momentumMaxWorldFraction: 0.45;
    pinchRotationThreshold: 4;
    tiltDegreesPerPixel: 0.5;
    tapZoomStep: 1;
    tapZoomDuration: 0.3;
    tapZoomCurve: number[];
    scrollZoomRate: number;
    scrollMaxZoomPerEvent: 1;
    scrollZoomDuration: 0.2;
    scrollZoomCurve: number[];
}>): {
    id: any;
    zoom: number;
    plan: {
        kind: string;
        from: any;
        to: any;
        duration: any;
        curve: any;
        held: string[];
        geo?: undefined;
        point?: undefined;
        viewport?: undefined;
    } | {
        kind: string;
        from: any;
        to: any;
        geo: {
            lat: number;
            lon: number;
        };
        point: any;
        viewport: any;
        duration: any;
        curve: any;
        held: string[];
    };
};
/** A zoom around `point` from `from` to `target`'s zoom (the hub's `.around` plan). */
export function aroundPlan(from: any, target: any, point: any, viewport: any, duration: any, curve: any, limits?: Readonly<{
    minZoom: 0;
    maxZoom: 22;
    minTilt: 0;
    maxTilt: 60;
    maxTiltByZoom: any[];
    bounds: any;
    maxRoll: 180;
}>): {
    kind: string;
    from: any;
    to: any;
    duration: any;
    curve: any;
    held: string[];
    geo?: undefined;
    point?: undefined;
    viewport?: undefined;
} | {
    kind: string;
    from: any;
    to: any;
    geo: {
        lat: number;
        lon: number;
    };
    point: any;
    viewport: any;
    duration: any;
    curve: any;
    held: string[];
};
/** The hub's plan for an acknowledged animation: from its camera to `to` (zoom kinds around `point`). */
export function planFromAck(id: any, from: any, to: any, duration: any, point: any, viewport: any, settings?: Readonly<{
    velocityWindow: 0.1;
    momentumMaxPause: 0.05;
    momentumLinearity: 0.3;
    momentumDeceleration: 2500;
    momentumMaxSpeed: 1400;
    momentumCurve: number[];
    momentumHorizonFraction: 0.85;
    momentumMaxWorldFraction: 0.45;
    pinchRotationThreshold: 4;
    tiltDegreesPerPixel: 0.5;
    tapZoomStep: 1;
    tapZoomDuration: 0.3;
    tapZoomCurve: number[];
    scrollZoomRate: number;
    scrollMaxZoomPerEvent: 1;
    scrollZoomDuration: 0.2;
    scrollZoomCurve: number[];
}>): {
    kind: string;
    from: any;
    to: any;
    duration: any;
    curve: any;
    held: string[];
};
/**
 * `current` with the plan's properties at elapsed seconds `elapsed`
 * (MotionPlan.write after the timing curve; exactly `to` at the end).
 */
export function evaluatePlan(plan: any, elapsed: any, current?: any, limits?: Readonly<{
    minZoom: 0;
    maxZoom: 22;
    minTilt: 0;
    maxTilt: 60;
    maxTiltByZoom: any[];
    bounds: any;
    maxRoll: 180;
}>): any;
/** The engine's tuning (GestureSettings' defaults, MapLibre's where it has one). */
export const GESTURE_SETTINGS: Readonly<{
    velocityWindow: 0.1;
    momentumMaxPause: 0.05;
    momentumLinearity: 0.3;
    momentumDeceleration: 2500;
    momentumMaxSpeed: 1400;
    momentumCurve: number[];
    momentumHorizonFraction: 0.85;
    momentumMaxWorldFraction: 0.45;
    pinchRotationThreshold: 4;
    tiltDegreesPerPixel: 0.5;
    tapZoomStep: 1;
    tapZoomDuration: 0.3;
    tapZoomCurve: number[];
    scrollZoomRate: number;
    scrollMaxZoomPerEvent: 1;
    scrollZoomDuration: 0.2;
    scrollZoomCurve: number[];
}>;
/** The room limits when the hub has said nothing else (CameraLimits' defaults). */
export const DEFAULT_LIMITS: Readonly<{
    minZoom: 0;
    maxZoom: 22;
    minTilt: 0;
    maxTilt: 60;
    maxTiltByZoom: any[];
    bounds: any;
    maxRoll: 180;
}>;
export const CONTINUOUS_KINDS: string[];
export const ZOOM_KINDS: string[];
export class PointerTrack {
    samples: any[];
    lastMoveTime: any;
    /** A sample at client time t (ms), keeping what a window of `keep` ms needs. */
    add(t: any, x: any, y: any, keep: any): void;
    get last(): {
        x: any;
        y: any;
    };
    position(time: any): {
        x: any;
        y: any;
    };
    /** px/s over the last `window` ms, or null when no time has passed. */
    velocity(window: any): {
        x: number;
        y: number;
    };
}
/**
 * One continuous gesture (pan, pinch, tilt, rotate) from its `begin`, as the
 * hub's engine keeps it: every change is computed from the camera at begin and
 * the cumulative input, the grabbed point placed under the finger.
 */
export class ContinuousGesture {
    /**
     * @param {object} begin      the `begin` gesture message
     * @param {object} start      the camera the gesture starts from
     * @param {{width, height}} viewport
     */
    constructor(begin: object, start: object, viewport: {
        width;
        height;
    }, settings?: Readonly<{
        velocityWindow: 0.1;
        momentumMaxPause: 0.05;
        momentumLinearity: 0.3;
        momentumDeceleration: 2500;
        momentumMaxSpeed: 1400;
        momentumCurve: number[];
        momentumHorizonFraction: 0.85;
        momentumMaxWorldFraction: 0.45;
        pinchRotationThreshold: 4;
        tiltDegreesPerPixel: 0.5;
        tapZoomStep: 1;
        tapZoomDuration: 0.3;
        tapZoomCurve: number[];
        scrollZoomRate: number;
        scrollMaxZoomPerEvent: 1;
        scrollZoomDuration: 0.2;
        scrollZoomCurve: number[];
    }>);
    kind: any;
    settings: Readonly<{
        velocityWindow: 0.1;
        momentumMaxPause: 0.05;
        momentumLinearity: 0.3;
        momentumDeceleration: 2500;
        momentumMaxSpeed: 1400;
        momentumCurve: number[];
        momentumHorizonFraction: 0.85;
        momentumMaxWorldFraction: 0.45;
        pinchRotationThreshold: 4;
        tiltDegreesPerPixel: 0.5;
        tapZoomStep: 1;
        tapZoomDuration: 0.3;
        tapZoomCurve: number[];
        scrollZoomRate: number;
        scrollMaxZoomPerEvent: 1;
        scrollZoomDuration: 0.2;
        scrollZoomCurve: number[];
    }>;
    viewport: {
        width: any;
        height: any;
    };
    start: any;
    pivot: {
        x: any;
        y: any;
    };
    claims: string[];
    grabbed: {
        lat: number;
        lon: number;
    };
    beginPoint: {
        x: any;
        y: any;
    };
    rotationOffset: number;
    track: PointerTrack;
    lastInput: any;
    /**
     * Restarts the gesture from `start`, the camera the hub says it began from
     * (its acknowledgement of the `begin`): the grabbed point is taken again in
     * it. The pointer track and the pinch's rotation threshold are input only
     * and stay.
     */
    rebase(start: any): void;
    /** Records a change's pointer position for the release velocity (pan). */
    record(input: any): void;
    /**
     * The camera after the change `input` (its cumulative values since begin),
     * applied to `current` (the room's camera: what the gesture does not claim
     * comes from it). Pure but for the grabbed point, taken at the first change
     * that has ground under it when the begin had none (as the hub does).
     */
    step(input: any, current: any, limits?: Readonly<{
        minZoom: 0;
        maxZoom: 22;
        minTilt: 0;
        maxTilt: 60;
        maxTiltByZoom: any[];
        bounds: any;
        maxRoll: 180;
    }>): any;
    /** record(input), then step(input, current). */
    apply(input: any, current: any, limits?: Readonly<{
        minZoom: 0;
        maxZoom: 22;
        minTilt: 0;
        maxTilt: 60;
        maxTiltByZoom: any[];
        bounds: any;
        maxRoll: 180;
    }>): any;
    /**
     * A pan's momentum after an `end` at client time `endT` (ms) from `camera`:
     * {to, duration (s), curve} or null when the finger was not moving at release.
     */
    momentum(endT: any, camera: any, limits?: Readonly<{
        minZoom: 0;
        maxZoom: 22;
        minTilt: 0;
        maxTilt: 60;
        maxTiltByZoom: any[];
        bounds: any;
        maxRoll: 180;
    }>): {
        id: string;
        plan: {
            kind: string;
            from: any;
            to: any;
            duration: any;
            curve: any;
            held: string[];
        };
    };
}
