// Whether this page, while it explores, tells the presenter where it looks
// (`looking`): on unless the person turned it off, with `?share=0` or the
// panel's switch. Off is remembered in localStorage (and on again too), and
// shown: the switch, and a line in the explore banner. Turning it off while
// shared sends `region: null` (FollowControl.setSharing).

/** localStorage key of the person's last choice ('0' or '1'). */
export const SHARE_KEY = 'camhub.share';

/**
 * What the page starts with: the address's `share` when given, else the stored choice, else on.
 * @param {boolean|undefined} asked `?share=` (undefined: not given)
 * @param {string|null} stored localStorage's SHARE_KEY
 */
export function initialSharing(asked, stored) {
  if (asked !== undefined) return asked;
  return stored !== '0';
}

export class Sharing {
  /**
   * @param {object} parts
   * @param {{share?: boolean}} parts.params the page's address
   * @param {{setSharing: (on: boolean) => void}} parts.control the follow control (its `looking` reporter)
   * @param {Storage|null} [parts.storage] where the choice is remembered (null: nowhere)
   */
  constructor({ params, control, storage = safeStorage() }) {
    this.control = control;
    this.storage = storage;
    this.box = /** @type {HTMLInputElement} */ (document.querySelector('#share-view'));
    this.note = document.querySelector('#share-note');
    this.on = initialSharing(params.share, storage?.getItem(SHARE_KEY) ?? null);
    if (params.share !== undefined) this.remember();
    this.box.addEventListener('change', () => this.set(this.box.checked));
    this.control.setSharing(this.on);
    this.show();
  }

  /** Turns sharing on or off, remembers it and shows it. */
  set(on) {
    this.on = on;
    this.control.setSharing(on);
    this.remember();
    this.show();
  }

  remember() {
    try {
      this.storage?.setItem(SHARE_KEY, this.on ? '1' : '0');
    } catch {
      // A browser that keeps nothing (private mode): the choice lasts for this page.
    }
  }

  show() {
    this.box.checked = this.on;
    this.note.textContent = this.on ? 'The presenter sees where you look.' : 'You do not share where you look.';
  }
}

function safeStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
