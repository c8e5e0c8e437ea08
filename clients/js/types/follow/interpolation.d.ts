/**
 * The change from camera a to camera b, component-wise: dx, dy in Mercator
 * world units (x the short way), dz zoom, db bearing (shortest turn), dt tilt,
 * dr roll (shortest turn), de elevation (m), df fov (degrees), dax, day anchor,
 * dpt, dpl, dpb, dpr padding; and which optional fields either camera has.
 */
export function cameraDelta(a: any, b: any): {
    dx: number;
    dy: number;
    dz: number;
    db: number;
    dt: number;
    dr: number;
    de: number;
    df: number;
    dax: number;
    day: number;
    dpt: number;
    dpl: number;
    dpb: number;
    dpr: number;
    roll: boolean;
    elevation: boolean;
    fov: boolean;
    anchor: boolean;
    padding: boolean;
};
/** Camera `c` moved by `f` times delta `d` (centre in Mercator). */
export function applyDelta(c: any, d: any, f: any): {
    lat: any;
    lon: any;
    zoom: any;
    bearing: any;
    tilt: any;
};
/**
 * How far apart two cameras look, in px: the centre's distance in world px at
 * a's zoom (its elevation difference counted as a distance too), and the zoom,
 * bearing, tilt, roll and fov differences as the displacement they cause
 * `radiusPx` from the centre.
 */
export function cameraDistancePx(a: any, b: any, radiusPx?: number): number;
/**
 * Between moving frames a and b (fraction t), a monotone cubic per component
 * (centre in Web Mercator, zoom, bearing, tilt, anchor) through the previous
 * frame p, a and b: the tangent at a is PCHIP's (weighted harmonic mean of
 * the secants), the tangent at b the parabola through p, a, b, kept within
 * 0…3 × the secant a→b. It follows a curved path (an eased zoom, a flight)
 * more closely than a straight line, never overshoots the frames, and needs
 * no frame after b, so the curve does not change when the next one arrives.
 */
export function hermiteCamera(p: any, a: any, b: any, t: any): {
    lat: any;
    lon: any;
    zoom: any;
    bearing: any;
    tilt: any;
};
/**
 * Between moving frames a and b that carry the hub's `velocity` (fraction t):
 * a cubic Hermite curve per component with the hub's own slope at both ends,
 * which follows an eased or flying path closely at any frame rate.
 */
export function hermiteVelocityCamera(a: any, b: any, t: any): {
    lat: any;
    lon: any;
    zoom: any;
    bearing: any;
    tilt: any;
};
/**
 * Interpolates two cameras at fraction t in [0, 1] (no extrapolation): the
 * centre linear in Web Mercator, zoom linear, bearing and roll the short way,
 * tilt, elevation and fov linear.
 */
export function interpolateCamera(a: any, b: any, t: any): {
    lat: any;
    lon: any;
    zoom: any;
    bearing: any;
    tilt: any;
};
export class SnapshotBuffer {
    constructor(options?: {});
    options: {
        gapFactor: number;
        minGapMs: number;
        maxExtrapolationIntervals: number;
        cubic: boolean;
        correctionMs: number;
        maxFrames: number;
        keepMs: number;
        errorRadiusPx: number;
        errorWindow: number;
        rate: number;
        percentile: number;
        latenessWindow: number;
        offsetWindow: number;
        initialJitterMs: number;
        minSamples: number;
        intervalWindow: number;
        minIntervalMs: number;
        maxIntervalMs: number;
        marginMs: number;
        growBandMs: number;
        growBand: number;
        shrinkBandMs: number;
        shrinkBand: number;
        shrinkHoldMs: number;
        maxRateChange: number;
        speedGain: number;
        deadbandMs: number;
        speedUpdateMs: number;
        speedRampMs: number;
        resyncMs: number;
        underrunGrowth: number;
        maxStallMs: number;
        sleepMs: number;
    };
    clock: PlayoutClock;
    tick: any;
    /** Forgets all frames and clock estimates (e.g. after a reconnect or a new welcome). Keeps the rate. */
    reset(): void;
    frames: any[];
    lastSeq: any;
    last: {
        rt: number;
        raw: {
            lat: any;
            lon: any;
            zoom: any;
            bearing: any;
            tilt: any;
        };
        shown: {
            lat: any;
            lon: any;
            zoom: any;
            bearing: any;
            tilt: any;
        };
        dry: boolean;
        rest: boolean;
        seq: any;
    };
    correction: any;
    changed: boolean;
    underruns: number;
    underrunPending: boolean;
    lastDisplayAt: any;
    drySamples: number;
    samples: number;
    pendingErrors: any[];
    errors: any[];
    /** The frame rate asked for or granted (frames/s): the first interval guess. */
    setRate(rate: any): void;
    /** The hub's room tick (Hz, `welcome.tick`): a motion started by a command begins within the tick before its `corner` frame. */
    setTick(tick: any): void;
    get rate(): number;
    /** Expected hub time between moving frames (ms). */
    get interval(): number;
    /** Playout delay in use (ms behind the hub clock beyond the clock offset; null before a frame). */
    get delay(): number;
    get targetDelay(): any;
    /** Local time minus hub time of the least-delayed recent frame. */
    get clockOffset(): number;
    /** Frames further apart than this (hub time) are not one motion. */
    get gapThreshold(): number;
    /** RMS of the recent error estimates in px (null before any). */
    get errorPx(): number;
    /** Playout figures for the HUD and tests. */
    get stats(): {
        delay: number;
        targetDelay: any;
        interval: number;
        jitter: any;
        lead: number;
        underruns: number;
        resyncs: number;
        speed: any;
        drySamples: number;
        samples: number;
        errorPx: number;
    };
    /**
     * Adds a frame received at local time `receivedAt`. Returns false (and
     * ignores it) for a frame whose seq or time is not after the newest one.
     */
    push(frame: any, receivedAt: any): boolean;
    /** Index of the last frame at or before hub time rt (-1 if none). */
    indexAt(rt: any): number;
    /**
     * When the motion from frame a to the next frame b began (hub ms): at a, but after a rest or a gap
     * within the one interval before b, or the one hub tick before b when b is a `corner` (a command
     * started it: the hub sends the frame of the next tick). Drawing and extrapolating use the same start,
     * so the first frames of a motion are not drawn at one speed and extrapolated at another.
     */
    motionStart(a: any, b: any): any;
    /**
     * The camera the frames give for hub time rt, without correction:
     * {camera, moving, seq, by, dry, rest}. rest: the final resting frame is
     * shown exactly. dry: rt is past a newest frame that is still moving.
     */
    evaluate(rt: any): {
        camera: {
            lat: any;
            lon: any;
            zoom: any;
            bearing: any;
            tilt: any;
        };
        moving: any;
        seq: any;
        by: any;
        dry: boolean;
        rest: boolean;
    };
    /**
     * Past the newest (moving) frame i: along its velocity (the hub's `velocity`
     * when the frame has one, else the last frames' secant) for one interval,
     * then slowing to a stop. A component that the last three frames show
     * decelerating is extrapolated with that deceleration and stops where it
     * would (so the end of an ease is not overshot).
     */
    extrapolate(i: any, rt: any): {
        camera: {
            lat: any;
            lon: any;
            zoom: any;
            bearing: any;
            tilt: any;
        };
    };
    /**
     * The camera to paint for the display frame that begins at local
     * `displayAt` (the animation-frame callback's timestamp) and is on screen
     * `lead` ms later (FramePacer). Frames pushed until now count. Returns
     * `{camera, moving, seq, by, time, dry}` (`time` = hub render time), or null
     * before the first frame.
     */
    sample(displayAt: any, lead?: number): {
        camera: {
            lat: any;
            lon: any;
            zoom: any;
            bearing: any;
            tilt: any;
        };
        moving: any;
        seq: any;
        by: any;
        time: number;
        dry: boolean;
    };
    /** The correction delta in effect at hub time rt (null once it has faded out). */
    correctionAt(rt: any): any;
    trackError(rt: any, shown: any): void;
    /** Scores shown cameras whose hub time the frames now cover. */
    resolveErrors(): void;
    /** Drops frames that can no longer matter. */
    prune(rt: any): void;
}
import { PlayoutClock } from "./playout.js";
