export class Emitter {
    /** @param {(error: unknown, name: string) => void} [onHandlerError] */
    constructor(onHandlerError?: (error: unknown, name: string) => void);
    /** @type {Map<string, Set<Function>>} */
    handlers: Map<string, Set<Function>>;
    onHandlerError: (error: unknown, name: string) => void;
    /**
     * Calls `handler` for each `name` event from now on.
     * @param {string} name
     * @param {(...args: any[]) => void} handler
     * @returns {() => void} removes the handler
     */
    on(name: string, handler: (...args: any[]) => void): () => void;
    /** Calls `handler` for the next `name` event only. */
    once(name: any, handler: any): () => void;
    /** Removes a handler added with `on`. */
    off(name: any, handler: any): void;
    /** Calls the handlers of `name` with `args`, in the order they were added. */
    emit(name: any, ...args: any[]): void;
}
