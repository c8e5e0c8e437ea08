export class LatencyEstimator {
    constructor({ window, frameWindow }?: {
        window?: number;
        frameWindow?: number;
    });
    window: number;
    frameWindow: number;
    reset(): void;
    samples: any[];
    upper: any[];
    lastRtt: number;
    /** Records a timestamped hub message (frame, welcome) received at local `receivedAt`. */
    frame(time: any, receivedAt: any): void;
    /** Records a pong ({t, time}) received at local time `receivedAt`. Returns the sample or null. */
    pong(message: any, receivedAt: any): {
        rtt: number;
        offset: number;
        at: any;
        hub: any;
    };
    get ready(): boolean;
    best(): any;
    /** Local clock minus hub clock in ms (null before the first pong). */
    get offset(): any;
    /** Smallest recent round trip in ms (null before the first pong). */
    get minRtt(): any;
    /** Hub time at local time `now` (null before the first pong). */
    hubTime(now: any): number;
    /** How long a frame stamped `frameTime` (hub ms) took to arrive at local `receivedAt`. */
    frameLatency(frameTime: any, receivedAt: any): number;
}
/** Counts events in a sliding window: `rate(now)` = events per second over the last `windowMs`. */
export class RateMeter {
    constructor({ windowMs }?: {
        windowMs?: number;
    });
    windowMs: number;
    times: any[];
    reset(): void;
    add(now: any): void;
    trim(now: any): void;
    rate(now: any): number;
}
/** Exponential moving average; `add(v)` returns the new mean. */
export class Smoother {
    constructor(weight?: number);
    weight: number;
    value: any;
    add(v: any): any;
    reset(): void;
}
