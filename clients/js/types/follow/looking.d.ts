export class LookingReporter {
    /**
     * @param {object} o
     * @param {(message: object) => boolean} o.send sends a message to the hub (false when not joined)
     * @param {number} [o.intervalMs] least time between two sends (default 1000 / LOOKING_PER_SECOND)
     * @param {boolean} [o.sharing] whether the region is shared at all (default true)
     */
    constructor({ send, intervalMs, sharing }: {
        send: (message: object) => boolean;
        intervalMs?: number;
        sharing?: boolean;
    });
    send: (message: object) => boolean;
    intervalMs: number;
    sharing: boolean;
    /** Forgets what was sent: the next exploring camera goes at once (a new exploration, a new session). */
    reset(): void;
    lastSent: any;
    lastViewport: {
        width: number;
        height: number;
    };
    lastAt: number;
    /**
     * Turns sharing on or off. Off after a region was shared sends `region: null` (the hub forgets it); on again
     * shares the next exploring frame at once.
     * @param {boolean} on
     */
    setSharing(on: boolean): void;
    /**
     * Called once per painted frame: `camera` is the explored camera on screen at local time `t` (ms), or null
     * when the client does not explore (then nothing is sent, and the next exploration starts afresh).
     * Returns true when it sent one.
     * @param {number} t
     * @param {object|null} camera
     * @param {{width: number, height: number}} viewport
     * @param {string} [projection] the room's ('mercator' or 'globe')
     */
    update(t: number, camera: object | null, viewport: {
        width: number;
        height: number;
    }, projection?: string): boolean;
}
