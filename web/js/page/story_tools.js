// The storyboard panel's tools: add the view on screen as a step, clear the
// storyboard, and load a file (a Google Earth tour, a storytelling config or
// the hub's steps) as the storyboard. A file that cannot be read is refused
// naming what is wrong (the element, or the line of broken XML), in the panel
// until the next load, and nothing is sent.

import { buildStory, storySet } from '../../../clients/js/src/protocol/story.js';
import { readStoryFile } from '../story/story_file.js';
import { stepFromView } from '../story/caption.js';

const $ = (sel) => document.querySelector(sel);

export class StoryTools {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the screen (the view to add)
   * @param {(message: object) => void} parts.send sends one `story` message (and says when it could not)
   * @param {(text: string, kind: string, ms: number) => void} parts.toast
   */
  constructor({ state, send, toast }) {
    Object.assign(this, { state, send, toast });
    this.error = $('#story-panel-error');
    $('#story-add').addEventListener('click', () => this.addView());
    $('#story-clear').addEventListener('click', () => this.send(buildStory.set([])));
    $('#story-file').addEventListener('change', (ev) => {
      const file = ev.target.files?.[0];
      ev.target.value = '';
      if (file) file.text().then((text) => this.load(text, file.name));
    });
  }

  /** Makes a file's steps the room's storyboard (a set and inserts under the hub's message size). */
  load(text, name) {
    let steps;
    try {
      steps = readStoryFile(text, { parseXML: (t) => new DOMParser().parseFromString(t, 'application/xml') });
      for (const m of storySet(steps)) this.send(m);
    } catch (e) {
      this.showError(`${name}: ${e.message}`);
      return;
    }
    this.showError(null);
    this.toast(`${name}: ${steps.length} step${steps.length === 1 ? '' : 's'}`, 'ok', 3000);
  }

  /** Adds the view on screen as the storyboard's last step (its title and hold from the fields). */
  addView() {
    const camera = this.state.screen.rendered ?? this.state.screen.lastSample?.camera;
    if (!camera) return;
    const title = $('#story-title').value.trim();
    const holdText = $('#story-hold').value.trim();
    const hold = holdText === '' ? undefined : Number(holdText);
    try {
      this.send(buildStory.insert([stepFromView(camera, title, Number.isFinite(hold) ? hold : undefined)]));
      $('#story-title').value = '';
    } catch (e) {
      this.toast(e.message, 'error', 5000);
    }
  }

  /** The panel's error line: `text`, or none. */
  showError(text) {
    this.error.hidden = text === null;
    this.error.textContent = text ?? '';
  }
}
