export class LiveAnimations {
    static key(owner: any, id: any): string;
    /** @type {Map<string, {id: string|null, owner: string|null, kind: string|null, status: string}>} */
    live: Map<string, {
        id: string | null;
        owner: string | null;
        kind: string | null;
        status: string;
    }>;
    /** A `welcome`: its `animations` (running, delayed or waiting) replace what was known. */
    welcome(m: any): void;
    /** An `animation` report; `me` is this page's client id (reports without `owner` are its own). */
    report(m: any, me: any): void;
    /**
     * The live animations for the panel's list, oldest first: `mine` when
     * `me` owns it (the page may cancel it by id; others' only a presenter's
     * "cancel all" ends).
     */
    entries(me: any): {
        mine: boolean;
        id: string | null;
        owner: string | null;
        kind: string | null;
        status: string;
    }[];
    /** "fly f1 (ana), animate look (bob, delayed)" or "none". */
    describe(nameOf: any): string;
}
