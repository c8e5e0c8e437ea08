// The page's counters and bounded logs for tests and the console
// (window.camhub.stats): frames received, gestures sent, the hub's errors and
// refusals, animation reports, protocol errors and tap labels. Pure: no DOM.

/** How many entries each log keeps (the oldest go first). */
const KEEP = 50;

function pushBounded(list, item) {
  list.push(item);
  if (list.length > KEEP) list.shift();
}

export class Diagnostics {
  constructor() {
    this.framesReceived = 0;
    this.gesturesSent = 0;
    /** The hub's `error` messages. */
    this.errors = [];
    /** The last `animation` reports. */
    this.animations = [];
    /** Messages from the hub that failed validation (their descriptions). */
    this.protocolErrors = [];
    /** Every refusal of our hello: the hub's {code, message, ref} or {close, reason}. */
    this.refusals = [];
    /** Labels of the tap markers shown. */
    this.taps = [];
  }

  frame() {
    this.framesReceived++;
  }

  gestureSent() {
    this.gesturesSent++;
  }

  error(m) {
    this.errors.push(m);
  }

  animation(m) {
    pushBounded(this.animations, m);
  }

  protocolError(message) {
    this.protocolErrors.push(message);
  }

  refused(refusal) {
    this.refusals.push(refusal);
  }

  tap(label) {
    pushBounded(this.taps, label);
  }

  /** The counters and logs as one plain object. */
  snapshot() {
    const { framesReceived, gesturesSent, errors, animations, protocolErrors, refusals, taps } = this;
    return { framesReceived, gesturesSent, errors, animations, protocolErrors, refusals, taps };
  }
}
