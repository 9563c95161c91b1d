// Input: clicks and keys on the board, and the panel's forms and buttons, turned into
// selections and the game's requests.

import { requestReview } from './review.js';
import { app, canPass, canPremove, interactive, legalFrom, ownPieceAt, redraw } from './state.js';
import { initRulesChoice } from './ruleset.js';
import { board, isFocusVisible, showFocusRing } from './board.js';
import {
  abort, askHint, cancelPremove, copyInvite, copyPosition, createGame, disarmResign, flip, offer, playMove,
  rematch, resign, route, setPremove, showStart, stepTo, undo,
} from './game.js';
import { initSound, setSound, soundOn } from './sound.js';
import { initBlind } from './blind.js';
import { formatTime, remaining } from './clock.js';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A click on a cell while the opponent thinks: a queued premove is cancelled; else one's
 * own piece is picked, and then any other cell queues the premove (the server's legal
 * moves are the opponent's now: whether it is legal is known on one's turn).
 */
function onPremoveCell(/** @type {string} */ cell) {
  if (app.premove) {
    cancelPremove();
    return;
  }
  const own = ownPieceAt(cell);
  if (own && !own.captured) {
    app.selected = app.selected === cell ? null : cell;
    redraw();
  } else if (app.selected) {
    setPremove(app.selected, cell);
  }
}

/** A click (or Enter) on a cell: select a piece, choose its destination, or try a move. */
function onCell(/** @type {string} */ cell) {
  if (canPremove()) {
    onPremoveCell(cell);
    return;
  }
  if (!interactive() || !app.state) return;
  const map = legalFrom();
  app.error = null;
  if (map.has(cell)) {
    app.selected = app.selected === cell ? null : cell;
    redraw();
    return;
  }
  const hit = app.selected ? (map.get(app.selected) || []).find((mv) => mv.to === cell) : undefined;
  if (app.state.must_return) {
    // Only the returnable pieces and their destinations can be clicked.
    if (hit) playMove(hit.move);
    return;
  }
  if (app.selected) {
    const own = ownPieceAt(cell);
    if (hit) {
      playMove(hit.move);
    } else if (own && !own.captured) {
      app.selected = cell;
      redraw();
    } else {
      // Not a marked cell: send it anyway, the server says why it is illegal.
      playMove(`${app.selected}-${cell}`);
    }
    return;
  }
  if (ownPieceAt(cell)) {
    app.selected = cell;
    redraw();
  }
}

/** The cell of the element an event happened on, if it is on the board. */
function cellOf(/** @type {Event} */ ev) {
  const el = board();
  const target = /** @type {Element} */ (ev.target);
  const node = target.closest ? /** @type {HTMLElement | null} */ (target.closest('[data-cell]')) : null;
  return node && el.contains(node) ? node.dataset.cell : undefined;
}

function initBoardEvents() {
  const el = board();
  if (!el) return;
  el.addEventListener('click', (ev) => {
    const cell = cellOf(ev);
    if (cell) onCell(cell);
    else if (app.premove) cancelPremove();
  });
  // A right-click cancels a premove (or a piece picked for one), as on lichess.
  el.addEventListener('contextmenu', (ev) => {
    if ((app.premove || app.selected) && canPremove()) {
      ev.preventDefault();
      cancelPremove();
    }
  });
  el.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    const cell = cellOf(ev);
    if (!cell) return;
    ev.preventDefault();
    onCell(cell);
    // After choosing a piece, go on to its first destination; otherwise keep the
    // keyboard user where they were after the redraw.
    const next = /** @type {HTMLElement | null} */ (
      (app.selected === cell && el.querySelector('polygon.cell.target[tabindex="0"]')) ||
      el.querySelector(`[data-cell="${cell}"][tabindex="0"]`));
    if (next) next.focus();
  });
  el.addEventListener('focusin', (ev) => {
    const cell = cellOf(ev);
    showFocusRing(cell && isFocusVisible(/** @type {Element} */ (ev.target)) ? cell : null);
  });
  el.addEventListener('focusout', () => showFocusRing(null));
}

/** The ply the board shows (the number of moves played in it). */
function shownPly() {
  const total = app.state ? app.state.moves.length : 0;
  return app.ply === null ? total : app.ply;
}

/**
 * The keys of the game page, where no text is being typed: ← → step through the moves,
 * Home End (or ↑ ↓) go to the start and the present, `f` flips the board, Escape cancels a
 * premove.
 */
function onPageKey(/** @type {KeyboardEvent} */ ev) {
  if (!app.id || !app.state || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = /** @type {HTMLElement} */ (ev.target);
  if (target && target.closest && target.closest('input, textarea, select, [contenteditable="true"]')) return;
  const total = app.state.moves.length;
  /** @type {Record<string, () => void>} */
  const actions = {
    ArrowLeft: () => stepTo(shownPly() - 1),
    ArrowRight: () => stepTo(shownPly() + 1),
    ArrowUp: () => stepTo(0),
    Home: () => stepTo(0),
    ArrowDown: () => stepTo(total),
    End: () => stepTo(total),
    f: () => flip(),
    F: () => flip(),
    Escape: () => cancelPremove(),
  };
  const action = actions[ev.key];
  if (!action) return;
  ev.preventDefault();
  action();
}

function initStepEvents() {
  $('nav-first').addEventListener('click', () => stepTo(0));
  $('nav-prev').addEventListener('click', () => stepTo(shownPly() - 1));
  $('nav-next').addEventListener('click', () => stepTo(shownPly() + 1));
  $('nav-last').addEventListener('click', () => stepTo(app.state ? app.state.moves.length : 0));
  $('flip-btn').addEventListener('click', () => flip());
  $('moves').addEventListener('click', (ev) => {
    const target = /** @type {HTMLElement} */ (ev.target);
    const button = target.closest ? /** @type {HTMLElement | null} */ (target.closest('button[data-ply]')) : null;
    if (button) stepTo(Number(button.dataset.ply));
  });
  $('premove-cancel').addEventListener('click', () => cancelPremove());
  $('abort-btn').addEventListener('click', abort);
  document.addEventListener('keydown', onPageKey);
}

/** Wires the game page: the board, the panel's controls and the browser's history. */
export function initGameEvents() {
  initBoardEvents();
  initStepEvents();
  initRulesChoice();
  $('review-btn').addEventListener('click', requestReview);
  $('new-game').addEventListener('submit', (ev) => createGame(/** @type {SubmitEvent} */ (ev)));
  $('entry-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($('move-input'));
    const text = input.value.trim().toLowerCase().replace(/\s+/g, '');
    if (!interactive()) return;
    if (!text) {
      app.error = { name: 'empty-entry' };
      redraw();
      return;
    }
    input.value = '';
    playMove(text);
  });
  $('pass-btn').addEventListener('click', () => {
    if (interactive() && canPass()) playMove('pass');
  });
  $('hint-btn').addEventListener('click', askHint);
  $('undo-btn').addEventListener('click', undo);
  $('resign-btn').addEventListener('click', resign);
  $('resign-cancel').addEventListener('click', () => {
    disarmResign();
    redraw();
    $('resign-btn').focus();
  });
  $('copy-btn').addEventListener('click', copyPosition);
  $('invite-copy').addEventListener('click', copyInvite);
  $('takeback-btn').addEventListener('click', () => offer('takeback', 'offer'));
  $('draw-btn').addEventListener('click', () => offer('draw', 'offer'));
  /** @param {'accept' | 'decline'} answer */
  const answerOffer = (answer) => {
    const kind = $('offer-box').dataset.kind;
    if (kind === 'takeback' || kind === 'draw' || kind === 'rematch') offer(kind, answer);
  };
  $('offer-accept').addEventListener('click', () => answerOffer('accept'));
  $('offer-decline').addEventListener('click', () => answerOffer('decline'));
  $('rematch-btn').addEventListener('click', rematch);
  $('rematch-link').addEventListener('click', (ev) => {
    ev.preventDefault();
    history.pushState({}, '', $('rematch-link').getAttribute('href'));
    route();
  });
  $('sound-btn').addEventListener('click', () => {
    setSound(!soundOn());
    redraw();
  });
  initSound();
  initBlind(redraw, (side) => (app.state && app.state.clock ? formatTime(remaining(app.state.clock, side)) : ''));
  for (const radio of document.querySelectorAll('#new-game input[name="opponent"]')) {
    radio.addEventListener('change', redraw);
  }
  $('new-game-btn').addEventListener('click', () => {
    history.pushState({}, '', '/');
    app.newGameError = null;
    showStart();
    const first = /** @type {HTMLElement | null} */ (document.querySelector('#new-game input:checked'));
    if (first) first.focus();
  });
  $('continue-link').addEventListener('click', (ev) => {
    ev.preventDefault();
    history.pushState({}, '', $('continue-link').getAttribute('href'));
    route();
  });
  window.addEventListener('popstate', route);
}
