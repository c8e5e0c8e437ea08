// The page's session with the hub, as people see and steer it: the session
// form (room, role, name), the address bar (what the page joins, or joined,
// so a reload or a shared link joins the same), joining again, and what a
// refused hello shows. What is joined is the page state's `params`.

import { formatParams, checkRoom, checkName, rateRefusal, settleRate } from '../ui/params.js';

export class Session {
  /**
   * @param {object} page {state, params, conn, notices, input, controls}: the page itself, because notices, input
   *   and controls are made after this (notices and controls use the session) and read when it acts
   */
  constructor(page) {
    this.page = page;
    this.form = document.querySelector('#session');
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.submit();
    });
  }

  /** The form's room, role and name: a new session (the address's problems are history, the form's are news). */
  submit() {
    const { form } = this;
    const r = checkRoom(form.room.value);
    const n = checkName(form.name.value);
    this.page.params.problems = [r.problem, n.problem].filter(Boolean).map((p) => ({ ...p, form: true }));
    this.page.notices.renderProblems();
    this.rejoin({ room: r.room, role: form.role.value, name: n.name });
  }

  /** Shows what the page joins as in the form and the address bar. */
  show() {
    const { params } = this.page;
    this.form.room.value = params.room;
    this.form.role.value = params.role;
    this.form.name.value = params.name ?? '';
    this.showAddress();
  }

  /** Puts what the page joins (or joined) into the address bar, keeping other parameters. */
  showAddress() {
    history.replaceState(null, '', (formatParams(this.page.params, location.search) || location.pathname) + location.hash);
  }

  /** Joins again, asking for `next` ({room, role, name, token}) instead. */
  rejoin(next) {
    const { page } = this;
    page.input.cancel();
    page.state.rejoin(next);
    page.notices.clearRefusal();
    this.show();
    page.controls.hideTakeover();
    page.conn.restart();
    page.controls.update();
  }

  /** The hub welcomed the page (at `rate`): the form, address and notices say what was joined. */
  joined(rate) {
    const { params, notices } = this.page;
    this.show();
    notices.clearRefusal();
    settleRate(params.problems, rate);
    notices.renderProblems();
  }

  /** The hub refused the hello: a rate above its tick joins at its default (and says so); else the refusal's notice. */
  refused(refusal) {
    const { params, state, notices, conn } = this.page;
    state.diagnostics.refused(refusal);
    const rate = rateRefusal(refusal, params);
    if (!rate) return notices.showRefusal(refusal);
    params.problems.push(rate);
    params.rate = undefined;
    notices.renderProblems();
    conn.restart();
  }
}
