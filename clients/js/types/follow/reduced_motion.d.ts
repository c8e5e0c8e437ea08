export class ReducedMotion {
    /** @param {boolean} enabled whether the client prefers reduced motion */
    constructor(enabled?: boolean);
    enabled: boolean;
    /** Animations shown as a jump so far (for tests). */
    jumps: number;
    reset(): void;
    /** {owner, id, to, releaseAt (hub ms, once it ended)} of the animation shown as a jump, or null. */
    hold: {
        owner: any;
        id: any;
        to: any;
        releaseAt: any;
    };
    /** An `animation` report (with roomAnimations: everyone's); `me` is this client's id. */
    report(m: any, me: any): void;
    /**
     * The camera to show instead of the room's frames for a frame of hub time
     * `sampleTime` (ms; null before any), or null: the jumped-to end of the
     * animation until the frames reach the moment it ended.
     */
    camera(sampleTime: any): any;
}
