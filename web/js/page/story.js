// The room's storyboard on the page: everyone sees the caption of the room's
// step (its progress, title and notes); presenters, and drivers where a
// presenter allowed it, step through it with the caption's buttons or the
// keys a presentation clicker sends (→, ←, Page Down, Page Up) and play and
// pause autoplay; a follower looking around on its own gets "Back to the
// current step". The list of steps is the storyboard panel's (story_panel.js).

import { buildStory } from '../../../clients/js/src/protocol/story.js';
import { storyCaption, mayStep, STEP_KEYS } from '../story/caption.js';

const $ = (sel) => document.querySelector(sel);

export class StoryBar {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the room's story, the role, the screen
   * @param {object} parts.conn the page's connection
   * @param {{exploring: boolean}} parts.explorer the follower's own map (whether it explores)
   * @param {() => void} parts.back glides a follower back to the room's camera
   * @param {(text: string, kind: string, ms: number) => void} parts.toast
   */
  constructor({ state, conn, explorer, back, toast }) {
    Object.assign(this, { state, conn, explorer, toast });
    this.el = $('#story-caption');
    $('#story-previous').addEventListener('click', () => this.step('previous'));
    $('#story-next').addEventListener('click', () => this.step('next'));
    $('#story-play').addEventListener('click', () => this.step(this.state.story?.playing ? 'pause' : 'play'));
    $('#story-back').addEventListener('click', () => back());
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

  /** Sends one storyboard message; says so when the page is not connected. */
  send(message) {
    if (!this.conn.send(message)) this.toast('Not connected: the storyboard did not change', 'warn', 3000);
  }

  /** Shows the caption, the stepper's buttons to those who may step, and a way back to an exploring follower. */
  update() {
    const { state } = this;
    const canStep = state.joined && mayStep(state.role, state.story);
    const caption = storyCaption(state.joined ? state.story : null, canStep);
    this.el.hidden = caption === null;
    if (!caption) return;
    $('#story-progress').textContent = caption.progress;
    $('#story-step-title').textContent = caption.title;
    $('#story-notes').textContent = caption.notes;
    $('#story-notes').hidden = caption.notes === '';
    $('#story-steps').hidden = !canStep;
    $('#story-back').hidden = !(state.role === 'follower' && this.explorer.exploring && state.story?.index != null);
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
