/**
 * a − b per property: centre in Mercator units, zoom, bearing (shortest turn),
 * tilt; roll (shortest turn), elevation (m) and fov (degrees) when either camera
 * has them.
 */
export function cameraDifference(a: any, b: any): {
    x: number;
    y: number;
    zoom: number;
    bearing: number;
    tilt: number;
};
/** `camera` moved by `d` (a cameraDifference) times `k`. */
export function offsetCamera(camera: any, d: any, k: any): any;
/** How far apart two cameras' centres are on screen, in px at `a`'s zoom. */
export function centreDistancePx(a: any, b: any): number;
/** Whether a continuous gesture's message carries a change (an `end` may, with its last position). */
export function carriesChange(m: any): boolean;
export class Predictor {
    /**
     * @param {object} o
     * @param {{width: number, height: number}} [o.viewport]   the page's viewport (gesture coordinates are in it)
     * @param {boolean} [o.enabled]          show predictions (false: only number gestures and measure)
     * @param {number} [o.blendMs]           how long a correction takes to fade out
     * @param {number} [o.ackTimeoutMs]      give up on a hub that does not acknowledge after this long
     * @param {object} [o.settings]          the gesture rules' settings (default: the hub's, GESTURE_SETTINGS)
     */
    constructor({ viewport, enabled, blendMs, ackTimeoutMs, settings }?: {
        viewport?: {
            width: number;
            height: number;
        };
        enabled?: boolean;
        blendMs?: number;
        ackTimeoutMs?: number;
        settings?: object;
    });
    viewport: {
        width: number;
        height: number;
    };
    enabled: boolean;
    blendMs: number;
    ackTimeoutMs: number;
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
    nextSeq: number;
    sentLog: any[];
    ackLog: any[];
    stats: {
        acks: number;
        errorPx: number;
        maxErrorPx: number;
        correctionPx: number;
        maxCorrectionPx: number;
        dropped: number;
    };
    /** Forgets everything predicted (a new session, a role change). Statistics and numbering go on. */
    reset(): void;
    mode: string;
    base: any;
    gestures: any[];
    unacked: any;
    lost: Set<any>;
    anim: {
        id: any;
        plan: any;
        startT: any;
        seq: any;
        point: any;
    } | {
        id: any;
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
        startT: any;
        seq: any;
        point: any;
    } | {
        id: any;
        plan: {
            kind: string;
            from: any;
            to: any;
            duration: any;
            curve: any;
            held: string[];
        };
        startT: any;
        seq: any;
        point: {
            x: any;
            y: any;
        };
    };
    pendingZoom: {
        zoom: number;
        until: any;
    } | {
        zoom: any;
        until: any;
    };
    correction: {
        d: {
            x: number;
            y: number;
            zoom: number;
            bearing: number;
            tilt: number;
        };
        at: any;
    } | {
        d: {
            x: number;
            y: number;
            zoom: number;
            bearing: number;
            tilt: number;
        };
        at: any;
    };
    predictedFor: Map<any, any>;
    lastSentSeq: number;
    lastAckSeq: any;
    lastSentAt: any;
    releaseHubTime: any;
    setViewport(viewport: any): void;
    setLimits(limits: any): void;
    get predicting(): boolean;
    /**
     * Numbers the gesture message `m` (adds `seq`) and predicts it at local time
     * `t` on top of `shown`, the camera on screen now. Returns the message to send.
     */
    outgoing(m: any, t: any, shown: any): any;
    continuousOut(m: any, seq: any, t: any): void;
    hasChangeFields(m: any): boolean;
    zoomOut(m: any, seq: any, t: any): void;
    /** A `gestureAck` received at local time `t`. */
    ack(m: any, t: any): void;
    /** An `error` answering one of our gestures (`ref` "gesture"): someone else has the camera. */
    rejected(m: any, t: any, bufferCamera: any): void;
    /** The predicted camera at local time t, before corrections. */
    predicted(t: any): any;
    fade(t: any): number;
    /** What the page shows while predicting: the prediction plus the correction still fading out. */
    display(t: any): any;
    /** Starts fading out the difference between `shown` and the new prediction at t. */
    blendFrom(shown: any, t: any): void;
    handOver(t: any, bufferCamera: any): void;
    /** True once every gesture and animation predicted has ended and been acknowledged. */
    settledAt(t: any): boolean;
    /**
     * The camera to show at local time t, or null when the page should show the
     * playout buffer's own sample (`buffered`: {camera, time (hub ms)} or null).
     */
    sample(t: any, buffered: any): any;
    /** The newest of our gestures the hub had applied by hub time `time` (ms): what a buffer frame of that time shows. */
    seqAt(time: any): number;
}
