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
    const shrinkHoldMs: number;
    const maxRateChange: number;
    const speedGain: number;
    const deadbandMs: number;
    const speedUpdateMs: number;
    const speedRampMs: number;
    const resyncMs: number;
    const underrunGrowth: number;
    const maxStallMs: number;
    const sleepMs: number;
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
    rate: number;
    resyncs: number;
    /** The re-syncs of the last minutes: {at (display ms), from, to (delay ms), why}, newest last. */
    resyncLog: any[];
    /** Forgets every measurement (keeps the rate and the count of re-syncs). */
    reset(): void;
    raws: any[];
    lateness: any[];
    intervals: any[];
    lead: number;
    total: any;
    goal: any;
    holdUntil: any;
    shrinking: boolean;
    speed: any;
    speedTo: any;
    speedFrom: any;
    speedAt: any;
    decidedAt: any;
    lastAt: any;
    stall: string;
    stalled: boolean;
    wasPast: boolean;
    stallFrom: any;
    freezeTo: any;
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
    /** The delay aimed for (ms behind the hub clock at paint time, beyond the clock offset). */
    get targetDelay(): any;
    /** The delay aimed for now (the target held within its bands; null before the first advance). */
    get goalDelay(): any;
    /** The headroom (ms) above the target when the goal is set. */
    get growBand(): number;
    /** How far the target may fall below goal − headroom (ms) before the goal may follow it. */
    get shrinkBand(): number;
    /** The delay in use now: paint time minus the hub time shown, beyond the clock offset (null before the first frame). */
    get delay(): number;
    /**
     * Sets the goal from the target: to the target plus headroom at once when the target rises past it,
     * down to that once the target plus headroom is shrinkBand below it and the goal has not grown for
     * shrinkHoldMs (after an underrun or a rising target; the first guess, before minSamples samples, is
     * not held).
     */
    updateGoal(at: any): void;
    /**
     * The buffer ran dry (a sample past the newest moving frame): the goal grows at once to cover the
     * lateness that sample saw, by at most `underrunGrowth` intervals; a delay more than the dead band short
     * of it is a re-sync (the render time stands still until it is there), a smaller one is played in from
     * the next advance. (The single largest lateness is never the allowance, but an underrun is not left to
     * the percentile.)
     */
    underrun(): void;
    /** A declared re-sync: the delay changes at once from `from` to `to` (ms). */
    resync(at: any, from: any, to: any, why: any): void;
    /** The speed at display time `at`: ramping linearly from speedFrom to speedTo over speedRampMs after speedAt. */
    speedAtTime(at: any): any;
    /** Chooses the speed toward the goal: at most once per speedUpdateMs, or 1 at once on reaching it. */
    steer(at: any): void;
    /**
     * Moves the playout clock to display time `displayAt` (the display frame's
     * timestamp) for a frame on screen `lead` ms later; returns the hub time to
     * show. `limit` (optional): the latest hub time the frames in hand allow
     * (the newest moving frame plus the extrapolation allowance): the clock
     * holds there (an underrun; the delay grows by the stall, a re-sync).
     */
    advance(displayAt: any, lead?: number, limit?: number): number;
}
/**
 * Predicts when a display frame is on screen. `tick(t)` takes each display
 * frame's timestamp (the animation-frame callback's argument, in the page
 * clock: when the frame began, not when the code runs), `drew()` says the
 * page drew the map in that frame. A frame drawn in the callback of frame k is
 * on screen when frame k + 1 begins (the browser starts the next frame once
 * this one is presented), so the lead is the typical time from a frame the
 * page drew to the next one: the median of the last `window` such intervals.
 * Frames in which nothing was drawn (a map at rest runs at the display's rate)
 * do not count, so the lead in motion is not forgotten during a rest. The
 * duration of the synchronous draw (`drawn(ms)`) is kept for the HUD; it is
 * not the paint time (the GPU presents later).
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
    lastDrew: boolean;
    durations: any[];
    draws: any[];
    cached: any;
    cachedDraw: any;
    /**
     * Records a display frame beginning at `t`. Gaps over maxMs (a hidden tab)
     * are not frame times; a timestamp not after the last is the same frame.
     */
    tick(t: any): void;
    /** The page drew the map in the current frame (optionally: the synchronous draw took `ms`). */
    drew(ms: any): void;
    /** Typical time (ms) from a display frame the page drew in to the next, when it is on screen. */
    get frameMs(): any;
    /** Typical synchronous draw (ms; null before the first). */
    get drawMs(): any;
    /** How long after a display frame begins it is on screen (ms). */
    get lead(): any;
    /** When the display frame beginning at `t` will be on screen. */
    paintTime(t: any): any;
}
