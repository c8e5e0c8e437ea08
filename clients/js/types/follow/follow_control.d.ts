export class FollowControl {
    /**
     * @param {object} o
     * @param {import('../state/room_state.js').RoomState} o.state the room as this client knows it
     * @param {import('./explore.js').Explorer} o.explorer this client's own camera while it explores
     * @param {(message: object) => boolean} o.send sends a message to the hub (false when not joined)
     * @param {() => number} o.now local clock, ms
     * @param {() => object|null} o.shown the camera on screen now (wire form), or null
     * @param {() => object|null} o.roomCamera the room's camera as played out now (where `back` glides to)
     */
    constructor({ state, explorer, send, now, shown, roomCamera }: {
        state: import('../state/room_state.js').RoomState;
        explorer: import('./explore.js').Explorer;
        send: (message: object) => boolean;
        now: () => number;
        shown: () => object | null;
        roomCamera: () => object | null;
    });
    state: import("../state/room_state.js").RoomState;
    explorer: import("./explore.js").Explorer;
    send: (message: object) => boolean;
    now: () => number;
    shown: () => object | null;
    roomCamera: () => object | null;
    /** Tells the hub where the explored map looks (`looking`), at most 2 times a second. */
    looking: LookingReporter;
    /**
     * Once per painted frame: `camera` is what the page shows at local time `t` (ms) in `viewport` (px). While
     * this client explores (and told the hub so) its visible region becomes `looking`, throttled; otherwise
     * nothing is sent.
     * @param {number} t
     * @param {object|null} camera
     * @param {{width: number, height: number}} viewport
     */
    /**
     * Turns sharing the visible region on or off (off after sharing tells the hub `region: null`).
     * @param {boolean} on
     */
    setSharing(on: boolean): void;
    looked(t: any, camera: any, viewport: any): boolean;
    /** True when local input explores (a follower in a room whose presenter allows it). */
    get mayExplore(): any;
    /**
     * A follower's gesture (the recognizer's output): moves its own camera, exploring from the first that
     * moves it. Returns 'explored', 'ignored' (taps and long presses move nothing) or 'refused' (not allowed).
     */
    input(g: any): "refused" | "ignored" | "explored";
    /** Glides back to the room's camera and follows again (a hidden client stays `away`). */
    back(): void;
    /** The hub's answer to something follow mode depends on (`Changes` of a welcome, a summons, the policy, limits). */
    changed(changes: any, hidden?: boolean): void;
    /** The screen was hidden (`away`) or shows again (a client that explored still does). */
    visibility(hidden: any): void;
    /** Tells the hub this client's follow state (once per change). */
    tell(followState: any): void;
}
import { LookingReporter } from "./looking.js";
