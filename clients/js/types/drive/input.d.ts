export const HANDLED_KEYS: string[];
export class InputCapture {
    static timeOf(ev: any): any;
    /**
     * @param {HTMLElement} el            the map container
     * @param {object} o
     * @param {() => boolean} o.canDrive  true when local input should become gestures
     * @param {(g: object) => void} o.onGesture   each gesture, in order
     * @param {(what: string) => void} o.onAttempt   local input while not driving
     * @param {object} [o.recognizerOptions]   the GestureRecognizer's options
     */
    constructor(el: HTMLElement, o: {
        canDrive: () => boolean;
        onGesture: (g: object) => void;
        onAttempt: (what: string) => void;
        recognizerOptions?: object;
    });
    el: HTMLElement;
    o: {
        canDrive: () => boolean;
        onGesture: (g: object) => void;
        onAttempt: (what: string) => void;
        recognizerOptions?: object;
    };
    recognizer: GestureRecognizer;
    listeners: any[];
    active: boolean;
    sentCount: number;
    setViewport(width: any, height: any): void;
    emit(gestures: any): void;
    point(ev: any): {
        x: number;
        y: number;
    };
    on(target: any, type: any, fn: any, options: any): void;
    attach(): void;
    /** Ends whatever gesture is in progress (focus lost, role changed). */
    cancel(): void;
    /** Call every animation frame: reports long presses while a pointer is held, and taps once no double tap can follow. */
    tick(now: any): void;
    detach(): void;
}
import { GestureRecognizer } from "./gestures.js";
