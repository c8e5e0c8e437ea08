/**
 * Makes `map` follow or drive `room`.
 * @param {object} map a MapLibre GL JS map
 * @param {import('../room.js').Room} room a room from `connect()` (attach before or after its welcome)
 * @param {{mode?: 'follow'|'drive', fit?: 'same'|'cover', reducedMotion?: boolean}} [options] `fit`: how a
 *   follower shows the room's camera on a screen of another size; `reducedMotion`: show others' non-essential
 *   animations as jumps (default: the browser's prefers-reduced-motion)
 * @returns {MapLibreAttachment}
 */
export function attachMapLibre(map: object, room: import('../room.js').Room, options?: {
    mode?: 'follow' | 'drive';
    fit?: 'same' | 'cover';
    reducedMotion?: boolean;
}): MapLibreAttachment;
export class MapLibreAttachment {
    /**
     * @param {any} map a MapLibre map
     * @param {import('../room.js').Room} room
     * @param {{mode?: 'follow'|'drive', fit?: 'same'|'cover', reducedMotion?: boolean}} options
     */
    constructor(map: any, room: import('../room.js').Room, { mode, fit, reducedMotion }?: {
        mode?: 'follow' | 'drive';
        fit?: 'same' | 'cover';
        reducedMotion?: boolean;
    });
    map: any;
    room: import("../room.js").Room;
    mode: "follow" | "drive";
    now: () => number;
    container: any;
    viewport: {
        width: number;
        height: number;
    };
    buffer: SnapshotBuffer;
    pacer: FramePacer;
    explorer: Explorer;
    prediction: Predictor;
    reducedMotion: ReducedMotion;
    /** The camera on the map now (wire form), and the newest played-out frame. */
    rendered: any;
    /** What the map was given besides the flat camera: roll and elevation once given (then always), its fov (degrees). */
    given: {
        roll: boolean;
        elevation: boolean;
        fov: any;
    };
    lastSample: any;
    follow: FollowControl;
    offs: any[];
    /** The pending `viewport` message of a resize, or null. */
    viewportTimer: number;
    /** True while the map shows its own camera (the person explores, or it glides back). */
    get exploring(): boolean;
    /** Glides the map back to the room's camera and follows again. */
    back(): void;
    /** How a follower fits the room's camera to this map: 'same' or 'cover'. */
    setFit(mode: any): void;
    start(): MapLibreAttachment;
    handlers: string[];
    input: InputCapture;
    raf: number;
    /** Gives the map back as it was (its handlers on again); the room stays joined. */
    detach(): void;
    detached: boolean;
    /** True when local input drives the room (drive mode, in a role that may). */
    get drives(): boolean;
    gesture(g: any): void;
    receive(m: any, receivedAt: any, changes: any): boolean | void;
    welcomed(m: any, receivedAt: any): void;
    /** One display frame beginning at local time `at`, on screen `lead` ms later. */
    step(at: any, lead: any): void;
    /**
     * Puts `camera` on the map: its field of view first when it changed
     * (setVerticalFieldOfView), then jumpTo. Once the map has been given a roll or
     * an elevation, a camera without one gives it 0 (jumpTo keeps what it is not given).
     */
    jump(camera: any): void;
    /**
     * Puts the room's projection on the map when the map draws in another (`applyProjection`); a map whose style
     * is still loading gets it on `style.load`.
     */
    showProjection(): void;
    /** The room's projection on the map now, and again after each style the map loads (a style brings its own). */
    watchProjection(): void;
    size(): {
        width: number;
        height: number;
    };
    /** The container's size: the input, prediction and explorer follow at once, the hub once it settles. */
    watchSize(): void;
}
import { SnapshotBuffer } from "../follow/interpolation.js";
import { FramePacer } from "../follow/playout.js";
import { Explorer } from "../follow/explore.js";
import { Predictor } from "../drive/prediction.js";
import { ReducedMotion } from "../follow/reduced_motion.js";
import { FollowControl } from "../follow/follow_control.js";
import { InputCapture } from "../drive/input.js";
