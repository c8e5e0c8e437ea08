// What the page tells people outside the HUD: toasts (short-lived), the fatal
// box (the page cannot run), and notices that stay until dismissed: each
// parameter the page could not use as given, and why the hub refused a hello,
// with buttons for the ways in.

import { describeProblem } from '../ui/params.js';
import { explainRefusal } from '../ui/refusal.js';

const $ = (sel) => document.querySelector(sel);

/** A short message at the bottom of the page ('info' | 'ok' | 'warn' | 'error'); the newest four stay. */
export function toast(text, kind = 'info', ms = 3500) {
  const box = $('#toasts');
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.textContent = text;
  box.append(el);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => el.classList.add('fade'), ms);
  setTimeout(() => el.remove(), ms + 450);
}

/** The page cannot run: says why over everything (trusted HTML from this page only). */
export function showFatal(html) {
  $('#fatal-text').innerHTML = html;
  $('#fatal').hidden = false;
}

function makeNotice(kind, name) {
  const el = document.createElement('div');
  el.className = `notice ${kind}`;
  el.dataset.notice = name;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  return el;
}

function dismissButton(onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'dismiss';
  b.setAttribute('aria-label', 'Dismiss');
  b.textContent = '×';
  b.addEventListener('click', onClick);
  return b;
}

function paragraph(text, className) {
  const p = document.createElement('p');
  if (className) p.className = className;
  p.textContent = text;
  return p;
}

/** The notices box: parameter problems and the hub's refusal. */
export class Notices {
  /**
   * @param {object} params what the page joins as (its `problems` are shown)
   * @param {(next: object) => void} rejoin joins again with some parameters changed
   */
  constructor(params, rejoin) {
    this.params = params;
    this.rejoin = rejoin;
    this.box = $('#notices');
  }

  /** One notice per parameter the page could not use as given (params.problems). */
  renderProblems() {
    for (const el of this.box.querySelectorAll('[data-notice=param]')) el.remove();
    for (const p of this.params.problems) {
      if (p.dismissed) continue;
      const el = makeNotice('warn', 'param');
      el.dataset.param = p.param;
      const text = document.createElement('span');
      text.textContent = describeProblem(p);
      el.append(text, dismissButton(() => {
        p.dismissed = true;
        el.remove();
      }));
      this.box.append(el);
    }
  }

  /** The hub refused our hello: its reason, what to do, and buttons that do it. */
  showRefusal(refusal) {
    this.clearRefusal();
    const e = explainRefusal(refusal, this.params);
    const el = makeNotice('error', 'refusal');
    const title = document.createElement('strong');
    title.textContent = e.title;
    const actions = document.createElement('form');
    actions.className = 'row';
    actions.addEventListener('submit', (ev) => ev.preventDefault());
    for (const a of e.actions) actions.append(...(a === 'token' ? this.tokenInput() : [this.actionButton(a)]));
    el.append(title, paragraph(e.reason, 'reason'), paragraph(e.advice), actions);
    this.box.prepend(el);
  }

  clearRefusal() {
    for (const el of this.box.querySelectorAll('[data-notice=refusal]')) el.remove();
  }

  /** A password field and "Join as <role>" with that token. */
  tokenInput() {
    const role = this.params.role;
    const input = document.createElement('input');
    input.type = 'password';
    input.name = 'token';
    input.placeholder = 'token';
    input.autocomplete = 'off';
    input.setAttribute('aria-label', `${role} token`);
    const join = document.createElement('button');
    join.type = 'submit';
    join.className = 'primary';
    join.dataset.action = 'token';
    join.textContent = `Join as ${role}`;
    join.addEventListener('click', () => {
      if (input.value) this.rejoin({ token: input.value });
    });
    return [input, join];
  }

  /** "Join as follower" or "Join again". */
  actionButton(action) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.action = action;
    const follower = action === 'follower';
    b.textContent = follower ? 'Join as follower' : 'Join again';
    b.addEventListener('click', () => this.rejoin(follower ? { role: 'follower', token: undefined } : {}));
    return b;
  }
}
