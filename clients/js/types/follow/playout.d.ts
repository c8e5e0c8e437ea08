/**
 * The q-quantile (0..1) of `values` (nearest rank on a sorted copy); 0 for
 * none. `skipLargest`: at most the (skipLargest+1)-th largest (while there are
 * more values than that), so that one outlier is never the answer.
 */
export function percentile(values: any, q: any, skipLargest?: number): any;
export namespace PLAYOUT_DEFAULTS {
    const rate: number;
    const percentile: number;
    const latenessWindow: number;
    const offsetWindow: number;
    const initialJitterMs: number;
    const minSamples: number;
    const intervalWindow: number;
    const minIntervalMs: number;
    const maxIntervalMs: number;
    const marginMs: number;
    const growBandMs: number;
    const growBand: number;
    const shrinkBandMs: number;
    const shrinkBand: number;
    const maxSpeedup: number;
    const maxSlowdown: number;
    const stretchTauMs: number;
    const minStretch: number;
    const leadSmoothing: number;
}
export class PlayoutClock {
    constructor(options?: {});
    options: {
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
        maxSpeedup: number;
        maxSlowdown: number;
        stretchTauMs: number;
        minStretch: number;
        leadSmoothing: number;
    };
    rate: number;
    /** Forgets every measurement (keeps the rate). */
    reset(): void;
    raws: any[];
    lateness: any[];
    intervals: any[];
    lead: any;
    total: any;
    goal: any;
    lastNow: any;
    cachedTarget: any;
    /** The rate (frames/s) asked for or granted; it replaces the interval measurements. */
    setRate(rate: any): void;
    /** Records a hub message stamped `time` received at local `receivedAt` (for the clock offset). */
    observe(time: any, receivedAt: any): void;
    /**
     * Records what a sample for a frame painted at local `paintAt` saw while the
     * camera moves: `newest` is the hub time of the newest frame in hand (a
     * moving one, so another is due one interval later). Ranked: how late that
     * frame is by the paint time, 0 if it is not due by then. (The sample is
     * dry when this exceeds delay - interval.)
     */
    observeSample(paintAt: any, newest: any): void;
    /** Records the hub time between two consecutive moving frames. */
    observeInterval(dt: any): void;
    /** Expected hub ms between moving frames. */
    get interval(): number;
    /** Local clock minus hub clock as the least-delayed recent frame shows it (null before any). */
    get clockOffset(): number;
    /**
     * The lateness allowance: a high percentile of the lateness recent samples
     * saw by their paint times (ms), never their single largest; until
     * minSamples samples, at least initialJitterMs plus the paint lead.
     */
    get jitter(): any;
    /** The delay aimed for (ms behind the hub clock, beyond the clock offset). */
    get targetDelay(): any;
    /** The delay aimed for now (the target held within its bands; null before the first advance). */
    get goalDelay(): number;
    /** The headroom (ms) above the target when the goal is set. */
    get growBand(): number;
    /** How far the target may fall below goal − headroom (ms) before the goal follows it. */
    get shrinkBand(): number;
    /** The delay in use now (ms behind the hub clock, beyond the clock offset; null before the first frame). */
    get delay(): number;
    /**
     * Moves the playout clock to local time `now` for a frame painted at
     * `paintAt`; returns the hub time to show. `restingAt` (optional) is the hub
     * time of a final resting frame the picture may rest on: while the render
     * time is past it, the delay may change at once (up to staying past it).
     */
    advance(now: any, paintAt?: any, restingAt?: any): number;
}
/**
 * Predicts when a camera handed to the map now will be on screen. When the
 * page draws the map synchronously right after setting the camera it reports
 * each draw's duration (`drawn`), and the paint time is now + the median of
 * the last few draws. Otherwise the map draws on the next animation frame, and
 * the paint time is now + the median of the last three frame intervals (it
 * follows a page that turns slow while tiles load within two frames, and
 * ignores a single long frame). Frame-to-frame noise it cannot predict.
 */
export class FramePacer {
    constructor({ window, drawWindow, defaultMs, minMs, maxMs }?: {
        window?: number;
        drawWindow?: number;
        defaultMs?: number;
        minMs?: number;
        maxMs?: number;
    });
    window: number;
    drawWindow: number;
    defaultMs: number;
    minMs: number;
    maxMs: number;
    reset(): void;
    last: any;
    durations: any[];
    draws: any[];
    cached: any;
    cachedDraw: any;
    /** Records an animation frame at local time `t`. Gaps over maxMs (a hidden tab) are not frame times. */
    tick(t: any): void;
    /** Records how long a synchronous draw of the map took (ms). */
    drawn(ms: any): void;
    /** Typical time between animation frames (ms). */
    get frameMs(): any;
    /** Typical synchronous draw (ms; null before the first). */
    get drawMs(): any;
    /** When a camera set at local `now` will be on screen. */
    paintTime(now: any): any;
}
