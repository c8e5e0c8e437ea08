export class LookingReporter {
    /**
     * @param {object} o
     * @param {(message: object) => boolean} o.send sends a message to the hub (false when not joined)
     * @param {number} [o.intervalMs] least time between two sends (default 1000 / LOOKING_PER_SECOND)
     */
    constructor({ send, intervalMs }: {
        send: (message: object) => boolean;
        intervalMs?: number;
    });
    send: (message: object) => boolean;
    intervalMs: number;
    /** Forgets what was sent: the next exploring camera goes at once (a new exploration, a new session). */
    reset(): void;
    lastSent: any;
    lastAt: any;
    /**
     * Called once per painted frame: `camera` is the explored camera on screen at local time `t` (ms), or null
     * when the client does not explore (then nothing is sent, and the next exploration starts afresh).
     * Returns true when it sent one.
     */
    update(t: any, camera: any): boolean;
}
