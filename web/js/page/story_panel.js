// The storyboard panel of presenters (and of drivers where a presenter allowed
// them): the room's steps as a list, each with a thumbnail of its camera, its
// title and notes edited in place (`story` `update`), reordered by dragging or
// with ↑ ↓ (`move`), removed (`remove`), gone to (`step` N); the room's step is
// highlighted. The steps come from the hub (`query` `story`) when the panel
// opens and after every edit anyone makes (`storyChanged`); the list keeps the
// rows of steps that did not change (story/step_list.js). On a narrow screen
// the panel is a sheet at the bottom, folded until opened.

import { buildStory } from '../../../clients/js/src/protocol/story.js';
import { mayStep } from '../story/caption.js';
import { cameraKey, diffSteps, dropMove, shiftMove, editedStep } from '../story/step_list.js';
import { ThumbnailQueue } from '../story/thumbnail_queue.js';
import { ThumbnailMap } from '../map/thumbnail_map.js';
import { makeRow, placeRow } from './story_row.js';

const $ = (sel) => document.querySelector(sel);
/** Below this width the panel is a bottom sheet, folded at first (as in css/app.css). */
const NARROW = '(max-width: 640px)';

export class StoryPanel {
  /**
   * @param {object} parts
   * @param {import('../state/page_state.js').PageState} parts.state the role and the room's story
   * @param {object} parts.room the page's room (`query`)
   * @param {object} parts.conn the page's connection (`send`)
   * @param {object|string} parts.mapStyle the style thumbnails are drawn with
   * @param {(text: string, kind: string, ms: number) => void} parts.toast
   */
  constructor({ state, room, conn, mapStyle, toast }) {
    Object.assign(this, { state, room, conn, toast });
    this.el = $('#story-panel');
    this.list = $('#story-list');
    /** The steps the rows show, as the hub last answered them, and the rows (same order). */
    this.steps = [];
    this.rows = [];
    /** Answers to `query` `story` are applied in the order asked: a late answer to an older one is dropped. */
    this.asked = 0;
    this.applied = 0;
    this.wasEditing = false;
    this.dragFrom = null;
    const thumbnails = new ThumbnailMap(mapStyle);
    this.thumbnails = new ThumbnailQueue({ render: (camera) => thumbnails.render(camera) });
    this.actions = {
      go: (i) => this.send(buildStory.step(i)),
      shift: (i, delta) => this.move(shiftMove(i, delta, this.steps.length)),
      remove: (i) => this.send(buildStory.remove(i)),
      edit: (i, field, text) => this.edit(i, field, text),
    };
    $('#story-panel-play').addEventListener('click', () => this.send(buildStory.step(this.state.story?.playing ? 'pause' : 'play')));
    this.listenForDrags();
    if (matchMedia(NARROW).matches) this.fold(true);
  }

  /** Whether this page edits the storyboard now. */
  get editing() {
    return this.state.joined && mayStep(this.state.role, this.state.story);
  }

  /** A new session: the steps are asked for again. */
  welcome() {
    this.wasEditing = false;
    this.update();
  }

  /** A hub event that changed the room's story: an edit (anyone's) means new steps. */
  changed(m) {
    if (m.event === 'storyChanged' && this.editing) this.refresh();
    this.update();
  }

  /** Shows the panel to those who edit (asking for the steps when it opens), the room's step and autoplay. */
  update() {
    const editing = this.editing;
    this.el.hidden = !editing;
    document.body.classList.toggle('story-editing', editing);
    if (editing && !this.wasEditing) this.refresh();
    this.wasEditing = editing;
    if (!editing) return;
    const story = this.state.story;
    const count = story?.count ?? 0;
    $('#story-panel-progress').textContent = story?.index == null ? `${count} step${count === 1 ? '' : 's'}`
      : `step ${story.index + 1} of ${count}`;
    const play = $('#story-panel-play');
    play.textContent = story?.playing ? 'Pause' : 'Play';
    play.setAttribute('aria-pressed', String(Boolean(story?.playing)));
    play.disabled = count === 0;
    this.rows.forEach((li, i) => placeRow(li, i, this.rows.length, story?.index === i));
  }

  /** Asks the hub for the steps. */
  refresh() {
    const asked = ++this.asked;
    this.room.query('story').then((r) => {
      if (asked < this.applied) return;
      this.applied = asked;
      this.show(r.steps);
    }, () => {}); // refused (no longer allowed) or disconnected: the panel closes or the welcome asks again
  }

  /** Renders `steps`: rows of unchanged steps stay (with their thumbnails and focus), the rest are made anew. */
  show(steps) {
    const { rows, removed } = diffSteps(this.steps, steps);
    for (const i of removed) this.rows[i].remove();
    const next = steps.map((step, i) => (rows[i] === null ? this.makeRow(step) : this.rows[rows[i]]));
    next.forEach((li, i) => {
      if (this.list.children[i] !== li) this.list.insertBefore(li, this.list.children[i] ?? null);
    });
    this.steps = steps;
    this.rows = next;
    this.thumbnails.retain(new Set(steps.map((s) => cameraKey(s.camera))));
    $('#story-empty').hidden = steps.length > 0;
    $('#story-count').textContent = String(steps.length);
    this.update();
  }

  makeRow(step) {
    const li = makeRow(step, this.actions);
    const img = li.querySelector('.story-thumb');
    this.thumbnails.request(cameraKey(step.camera), step.camera, (url) => { img.src = url; });
    return li;
  }

  edit(index, field, text) {
    const step = this.steps[index];
    const edited = step && editedStep(step, field, text);
    if (!edited) return;
    try {
      this.send(buildStory.update(index, edited));
    } catch (e) {
      this.toast(e.message, 'error', 5000);
    }
  }

  move(move) {
    if (move) this.send(buildStory.move(move.from, move.to));
  }

  send(message) {
    if (!this.conn.send(message)) this.toast('Not connected: the storyboard did not change', 'warn', 3000);
  }

  /** Folds the panel to its header (a sheet on a phone) or opens it. */
  fold(folded) {
    this.el.classList.toggle('collapsed', folded);
    this.el.querySelector('[data-collapse]').textContent = folded ? '+' : '–';
  }

  /** Dragging a row's thumbnail onto another row moves the step before or after it (which half it is dropped on). */
  listenForDrags() {
    const rowOf = (ev) => ev.target.closest?.('.story-step');
    this.list.addEventListener('dragstart', (ev) => {
      const li = rowOf(ev);
      if (!li) return;
      this.dragFrom = Number(li.dataset.index);
      ev.dataTransfer.effectAllowed = 'move';
      ev.dataTransfer.setData('text/plain', li.dataset.index);
      li.classList.add('dragging');
    });
    this.list.addEventListener('dragover', (ev) => {
      if (this.dragFrom === null || !rowOf(ev)) return;
      ev.preventDefault();
      ev.dataTransfer.dropEffect = 'move';
    });
    this.list.addEventListener('drop', (ev) => {
      const li = rowOf(ev);
      if (this.dragFrom === null || !li) return;
      ev.preventDefault();
      const box = li.getBoundingClientRect();
      const drop = Number(li.dataset.index) + (ev.clientY > box.top + box.height / 2 ? 1 : 0);
      this.move(dropMove(this.dragFrom, drop, this.steps.length));
    });
    this.list.addEventListener('dragend', () => {
      this.dragFrom = null;
      for (const li of this.rows) li.classList.remove('dragging');
    });
  }
}
