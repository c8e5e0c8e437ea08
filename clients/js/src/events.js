// A small event emitter: `on(name, handler)` returns the function that removes
// the handler. A handler that throws does not stop the others; the error goes
// to `onHandlerError` (default: console.error).

export class Emitter {
  /** @param {(error: unknown, name: string) => void} [onHandlerError] */
  constructor(onHandlerError = (error) => console.error(error)) {
    /** @type {Map<string, Set<Function>>} */
    this.handlers = new Map();
    this.onHandlerError = onHandlerError;
  }

  /**
   * Calls `handler` for each `name` event from now on.
   * @param {string} name
   * @param {(...args: any[]) => void} handler
   * @returns {() => void} removes the handler
   */
  on(name, handler) {
    if (typeof handler !== 'function') throw new TypeError(`on(${JSON.stringify(name)}): the handler must be a function`);
    let set = this.handlers.get(name);
    if (!set) this.handlers.set(name, (set = new Set()));
    set.add(handler);
    return () => this.off(name, handler);
  }

  /** Calls `handler` for the next `name` event only. */
  once(name, handler) {
    const off = this.on(name, (...args) => {
      off();
      handler(...args);
    });
    return off;
  }

  /** Removes a handler added with `on`. */
  off(name, handler) {
    this.handlers.get(name)?.delete(handler);
  }

  /** Calls the handlers of `name` with `args`, in the order they were added. */
  emit(name, ...args) {
    const set = this.handlers.get(name);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        handler(...args);
      } catch (error) {
        this.onHandlerError(error, name);
      }
    }
  }
}
