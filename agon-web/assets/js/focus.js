// The keyboard focus across requests: a control that is disabled while a request runs
// loses the focus, so it is remembered and given back (or to the move entry) once the
// page is idle again.

import { app } from './state.js';
import { board } from './board.js';

export function rememberFocus() {
  const a = document.activeElement;
  if (!a || a === document.body) return;
  if (board() && board().contains(a)) app.refocus = 'board';
  else if (a.id) app.refocus = a.id;
}

export function restoreFocus() {
  if (!app.refocus || app.busy || app.thinking) return;
  const s = app.state;
  if (s && app.token && s.computer_to_move && !s.outcome) return; // its reply comes next
  const want = app.refocus;
  app.refocus = null;
  /** @param {HTMLElement | null} el */
  const usable = (el) => el && !(/** @type {HTMLInputElement} */ (el).disabled) && !el.closest('[hidden]');
  if (want === 'board') {
    const first = /** @type {HTMLElement | null} */ (board().querySelector('[tabindex="0"]'));
    if (first) {
      first.focus();
      return;
    }
  }
  const el = want === 'board' ? null : document.getElementById(want);
  for (const cand of [el, document.getElementById('move-input'), document.getElementById('new-game-btn')]) {
    if (cand && usable(cand)) {
      cand.focus({ preventScroll: true });
      return;
    }
  }
}
