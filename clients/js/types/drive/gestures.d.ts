export class GestureRecognizer {
    constructor(options?: {});
    o: {
        width: number;
        height: number;
        slop: number;
        tapMaxMs: number;
        doubleTapMs: number;
        doubleTapSlop: number;
        twoFingerTapMs: number;
        longPressMs: number;
        degreesPerPixel: number;
        tiltVerticality: number;
        tiltWait: number;
        lineHeight: number;
        panStep: number;
        keyRotation: number;
    };
    pointers: Map<any, any>;
    ignored: Set<any>;
    mode: string;
    heldTap: any;
    /** True while a tap waits to see whether a second one makes a double tap (call tick()). */
    get waiting(): boolean;
    setViewport(width: any, height: any): void;
    get centre(): {
        x: number;
        y: number;
    };
    /** Translates one input event; returns the gestures it completes (maybe none). */
    handle(ev: any): any[];
    /** Reports a long press once the pointer has been held still long enough, and a tap once no double tap can follow. */
    tick(now: any): any[];
    longPressed: boolean;
    pressAt: {
        x: any;
        y: any;
    } | {
        x: any;
        y: any;
    };
    /** Cancels whatever is in progress (e.g. the window lost focus). */
    cancelAll(t: any): any[];
    g(kind: any, phase: any, x: any, y: any, t: any, extra: any): any;
    single(): any;
    pair(): any[];
    cancelActive(t: any, out: any): void;
    down(ev: any, t: any, out: any): void;
    tapEligible: boolean;
    startTwo(t: any, tapCandidate: any): void;
    twoTap: {
        start: any;
        firstUp: any;
        x: number;
        y: number;
    };
    startDist: number;
    lastAngle: number;
    rotationSum: number;
    midpoint(): {
        x: number;
        y: number;
    };
    twoGesture(kind: any, phase: any, m: any, t: any): any;
    updateTwo(): void;
    scale: number;
    dy: any;
    move(ev: any, t: any, out: any): void;
    rotation: any;
    rotateChange(p: any, t: any, out: any): void;
    resumeSingle(p: any): void;
    up(ev: any, t: any, out: any, cancelled: any): void;
    wheel(ev: any, t: any, out: any): void;
    key(ev: any, t: any, out: any): void;
}
