// The room's storyboard on the page: everyone sees the caption of the room's
// step (its progress, title and notes); presenters, and drivers where a
// presenter allowed it, step through it with the caption's buttons or the
// keys a presentation clicker sends (→, ←, Page Down, Page Up), play and
// pause autoplay, and add the view on screen as a step.

import { buildStory, storySet } from '../../../clients/js/src/protocol/story.js';
import { readStoryFile } from '../story/story_file.js';
import { storyCaption, mayStep, stepFromView, STEP_KEYS } from '../story/caption.js';

const $ = (sel) => document.querySelector(sel);

export class StoryBar {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the room's story, the role, the screen
   * @param {object} parts.conn the page's connection
   * @param {(text: string, kind: string, ms: number) => void} parts.toast
   */
  constructor({ state, conn, toast }) {
    this.state = state;
    this.conn = conn;
    this.toast = toast;
    this.el = $('#story-caption');
    $('#story-previous').addEventListener('click', () => this.step('previous'));
    $('#story-next').addEventListener('click', () => this.step('next'));
    $('#story-play').addEventListener('click', () => this.step(this.state.story?.playing ? 'pause' : 'play'));
    $('#story-add').addEventListener('click', () => this.addView());
    $('#story-clear').addEventListener('click', () => this.send(buildStory.set([])));
    $('#story-file').addEventListener('change', (ev) => {
      const file = ev.target.files?.[0];
      ev.target.value = '';
      if (file) file.text().then((text) => this.load(text, file.name));
    });
    // In the capture phase, before the map's own keys (arrows pan): while there is a storyboard to step, → and ←
    // step it (the page's InputCapture leaves a key whose default was prevented).
    document.addEventListener('keydown', (ev) => {
      const to = STEP_KEYS[ev.key];
      if (!to || ev.ctrlKey || ev.metaKey || ev.altKey || ev.shiftKey || isFormField(ev.target) || !this.canStep()) return;
      ev.preventDefault();
      this.step(to);
    }, true);
  }

  canStep() {
    const { state } = this;
    return state.joined && (state.story?.count ?? 0) > 0 && mayStep(state.role, state.story);
  }

  step(to) {
    this.send(buildStory.step(to));
  }

  send(message) {
    if (!this.conn.send(message)) this.toast('Not connected: the storyboard did not change', 'warn', 3000);
  }

  /** Makes a file's steps the room's storyboard (a set and inserts under the hub's message size). */
  load(text, name) {
    try {
      const steps = readStoryFile(text, { parseXML: (t) => new DOMParser().parseFromString(t, 'application/xml') });
      for (const m of storySet(steps)) this.send(m);
      this.toast(`${name}: ${steps.length} step${steps.length === 1 ? '' : 's'}`, 'ok', 3000);
    } catch (e) {
      this.toast(`${name}: ${e.message}`, 'error', 8000);
    }
  }

  /** Adds the view on screen as the storyboard's last step (its title asked for). */
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

  /** Shows the caption, and the stepper's buttons to those who may step. */
  update() {
    const { state } = this;
    const canStep = state.joined && mayStep(state.role, state.story);
    const caption = storyCaption(state.joined ? state.story : null, canStep);
    this.el.hidden = caption === null;
    $('#story-tools').hidden = !canStep;
    $('#story-count').textContent = String(state.story?.count ?? 0);
    if (!caption) return;
    $('#story-progress').textContent = caption.progress;
    $('#story-step-title').textContent = caption.title;
    $('#story-notes').textContent = caption.notes;
    $('#story-notes').hidden = caption.notes === '';
    $('#story-steps').hidden = !canStep;
    $('#story-previous').disabled = !caption.previous;
    $('#story-next').disabled = !caption.next;
    const play = $('#story-play');
    play.textContent = caption.playing ? 'Pause' : 'Play';
    play.setAttribute('aria-pressed', String(caption.playing));
  }
}

function isFormField(target) {
  const tag = target && target.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || (target && target.isContentEditable);
}
