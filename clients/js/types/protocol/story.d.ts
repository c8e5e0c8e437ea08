/**
 * One step, checked and copied with only the fields the hub reads (those at their defaults left out).
 * @param {object} step
 * @param {string} [where]
 * @returns {object}
 */
export function validateStep(step: object, where?: string): object;
/**
 * A whole storyboard as the messages that send it: one `set` when it fits in one message, else a `set` of the
 * first steps and `insert`s of the rest, each under the hub's message size.
 * @param {object[]} list
 * @param {{drivers?: boolean}} [options]
 * @returns {object[]}
 */
export function storySet(list: object[], options?: {
    drivers?: boolean;
}): object[];
/** The bounds the hub keeps a storyboard within. */
export const STORY_LIMITS: Readonly<{
    steps: 100;
    titleLength: 120;
    notesLength: 2000;
    duration: 60;
    speed: 100;
    hold: 3600;
}>;
/** How a step takes the room's camera to its own. */
export const STORY_VIAS: string[];
/** What `step` may go to besides an index. */
export const STEP_TARGETS: string[];
/** The hub's largest client message (bytes); `storySet` splits a storyboard to fit. */
export const MAX_MESSAGE_BYTES: number;
export namespace buildStory {
    /** Replaces every step; `{drivers}` (presenters) lets drivers edit and step it. */
    function set(list: any, options?: {}): any;
    /** Replaces every step; `{drivers}` (presenters) lets drivers edit and step it. */
    function set(list: any, options?: {}): any;
    /** Puts `list` before step `at` (undefined: at the end). */
    function insert(list: any, at: any): {
        type: string;
        op: string;
        steps: any;
    };
    /** Puts `list` before step `at` (undefined: at the end). */
    function insert(list: any, at: any): {
        type: string;
        op: string;
        steps: any;
    };
    function update(at: any, step: any): {
        type: string;
        op: string;
        index: any;
        step: any;
    };
    function update(at: any, step: any): {
        type: string;
        op: string;
        index: any;
        step: any;
    };
    function move(from: any, to: any): {
        type: string;
        op: string;
        from: any;
        to: any;
    };
    function move(from: any, to: any): {
        type: string;
        op: string;
        from: any;
        to: any;
    };
    function remove(at: any): {
        type: string;
        op: string;
        index: any;
    };
    function remove(at: any): {
        type: string;
        op: string;
        index: any;
    };
    /** Presenters: whether drivers may edit and step the storyboard. */
    function drivers(allow: any): any;
    /** Presenters: whether drivers may edit and step the storyboard. */
    function drivers(allow: any): any;
    /** `to`: 'next', 'previous', 'play', 'pause' or a step's index; `id`: the step's move's animation id. */
    function step(to: any, id: any): {
        type: string;
    };
    /** `to`: 'next', 'previous', 'play', 'pause' or a step's index; `id`: the step's move's animation id. */
    function step(to: any, id: any): {
        type: string;
    };
}
declare function drivers(m: any, value: any): any;
export {};
