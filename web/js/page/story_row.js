// One step of the storyboard panel's list: its thumbnail (a drag handle too),
// number, title and notes edited in place, and its buttons (go there, move up,
// move down, remove). The row knows nothing of the hub: what the presenter does
// goes to `actions` with the row's index at that moment.

/**
 * What a row's controls ask of the panel.
 * @typedef {object} RowActions
 * @property {(index: number) => void} go steps the room to this step
 * @property {(index: number, delta: number) => void} shift moves the step up (-1) or down (+1)
 * @property {(index: number) => void} remove takes the step out
 * @property {(index: number, field: 'title'|'notes', text: string) => void} edit the title or notes as typed
 */

/**
 * A new row for `step` (its index is set by `placeRow`).
 * @param {object} step the step as the hub has it
 * @param {RowActions} actions
 * @returns {HTMLLIElement}
 */
export function makeRow(step, actions) {
  const li = document.createElement('li');
  li.className = 'story-step';
  const index = () => Number(li.dataset.index);
  const thumb = element('img', { className: 'story-thumb', alt: '', draggable: true, title: 'Drag to reorder' });
  const number = element('span', { className: 'story-number' });
  const title = element('input', { type: 'text', className: 'story-step-title', maxLength: 120, value: step.title ?? '',
    placeholder: 'Untitled step', spellcheck: false });
  const notes = element('textarea', { className: 'story-step-notes', maxLength: 2000, value: step.notes ?? '', rows: 2,
    placeholder: 'Notes for the audience' });
  title.addEventListener('change', () => actions.edit(index(), 'title', title.value));
  title.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') title.blur(); });
  notes.addEventListener('change', () => actions.edit(index(), 'notes', notes.value));
  const buttons = element('span', { className: 'story-step-buttons' });
  buttons.append(
    button('go', '▶', 'Go to this step', () => actions.go(index())),
    button('up', '↑', 'Move this step up', () => actions.shift(index(), -1)),
    button('down', '↓', 'Move this step down', () => actions.shift(index(), 1)),
    button('remove', '✕', 'Remove this step', () => actions.remove(index())),
  );
  const text = element('div', { className: 'story-step-text' });
  text.append(title, notes);
  li.append(thumb, number, text, buttons);
  return li;
}

/**
 * Puts the row's index, number, labels and whether it is the room's step.
 * @param {HTMLLIElement} li
 * @param {number} index
 * @param {number} count how many steps
 * @param {boolean} current whether the room is on this step
 */
export function placeRow(li, index, count, current) {
  li.dataset.index = String(index);
  li.querySelector('.story-number').textContent = String(index + 1);
  li.classList.toggle('current', current);
  if (current) li.setAttribute('aria-current', 'step');
  else li.removeAttribute('aria-current');
  li.querySelector('.story-step-title').setAttribute('aria-label', `Title of step ${index + 1}`);
  li.querySelector('.story-step-notes').setAttribute('aria-label', `Notes of step ${index + 1}`);
  li.querySelector('[data-action=up]').disabled = index === 0;
  li.querySelector('[data-action=down]').disabled = index === count - 1;
  li.querySelector('[data-action=go]').setAttribute('aria-label', `Go to step ${index + 1}`);
}

function button(action, label, title, onClick) {
  const b = element('button', { type: 'button', textContent: label, title });
  b.dataset.action = action;
  b.setAttribute('aria-label', title);
  b.addEventListener('click', onClick);
  return b;
}

function element(tag, props) {
  return Object.assign(document.createElement(tag), props);
}
