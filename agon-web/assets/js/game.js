// The game's course: which game is shown (the address), and every request that changes
// it (moves, the computer's replies, hints, undo, resign, a new game). Each updates the
// state and redraws; an answer for a game no longer shown is dropped.

import { app, interactive, readToken, redraw, rememberGame } from './state.js';
import { api, fetchStartBoard, post } from './api.js';
import { setBoard } from './board.js';
import { rememberFocus } from './focus.js';
import { t } from './i18n.js';
import { rulesText } from './ruleset.js';

const WATCH_POLL_MS = 5000;

/** @typedef {import('./state.js').GameState} GameState */

function setBusy(/** @type {boolean} */ on) {
  if (on) rememberFocus();
  app.busy = on;
  redraw();
}

/** @param {GameState} state @param {boolean} byHuman */
function noteCaptures(state, byHuman) {
  const caps = state.last_captures || [];
  if (caps.length) {
    app.info.push({ key: byHuman ? 'status.you-captured' : 'status.computer-captured', params: { cells: caps.join(', ') } });
  }
}

function applyState(/** @type {GameState} */ state) {
  const prev = app.state;
  app.state = state;
  if (!prev || prev.position !== state.position) {
    app.selected = null;
    app.hint = null;
  }
}

/**
 * The engine's suggestion for the person's move: shown on the board and in the status
 * line until the position changes. Asking changes nothing in the game.
 */
export async function askHint() {
  if (!interactive() || app.hint || !app.state) return;
  const gen = app.generation;
  const position = app.state.position;
  app.error = null;
  app.hintPending = true;
  setBusy(true);
  try {
    const hint = await post(`/api/games/${app.id}/hint`, { token: app.token }, true);
    if (gen !== app.generation || !app.state || app.state.position !== position) return;
    app.hint = hint;
  } catch (e) {
    if (gen !== app.generation) return;
    app.error = /** @type {import('./api.js').ApiError} */ (e);
    if (app.error.name === 'not-your-turn' || app.error.name === 'game-over') await refresh();
  } finally {
    if (gen === app.generation) {
      app.hintPending = false;
      app.busy = false;
      redraw();
    }
  }
}

/** Sends the person's move (in the notation), then asks for the computer's. */
export async function playMove(/** @type {string} */ text) {
  if (!app.state || !app.token) return;
  const id = app.id;
  const gen = app.generation;
  app.selected = null;
  app.error = null;
  app.info = [];
  disarmResign();
  setBusy(true);
  try {
    const state = await post(`/api/games/${id}/moves`, { token: app.token, move: text, reply: false });
    if (gen !== app.generation) return;
    applyState(state);
    noteCaptures(state, true);
  } catch (e) {
    if (gen !== app.generation) return;
    app.error = /** @type {import('./api.js').ApiError} */ (e);
    // The page's state was stale (another tab moved): take the server's.
    if (app.error.name === 'not-your-turn' || app.error.name === 'game-over') await refresh();
  }
  app.busy = false;
  redraw();
  await maybeComputer();
}

/** Asks the computer for its move when it is its turn. */
async function maybeComputer() {
  const s = app.state;
  if (!s || !app.token || s.outcome || !s.computer_to_move || app.thinking) return;
  const id = app.id;
  const gen = app.generation;
  rememberFocus();
  app.thinking = true;
  app.busy = true;
  redraw();
  try {
    const state = await post(`/api/games/${id}/computer`, { token: app.token }, true);
    if (gen !== app.generation) return;
    applyState(state);
    app.info = [];
    if (state.last_move) app.info.push({ key: 'status.computer-moved', params: { move: state.last_move } });
    noteCaptures(state, false);
  } catch (e) {
    if (gen !== app.generation) return;
    const err = /** @type {import('./api.js').ApiError} */ (e);
    if (err.name === 'not-computer-turn' || err.name === 'game-over') {
      await refresh();
    } else {
      app.error = err;
    }
  } finally {
    if (gen === app.generation) {
      app.thinking = false;
      app.busy = false;
      redraw();
    }
  }
  // The computer may have to move again (it never does twice in a row today,
  // but a state is the only truth).
  if (gen === app.generation && app.state && app.state.computer_to_move && !app.error) {
    await maybeComputer();
  }
}

async function refresh() {
  if (!app.id) return;
  const gen = app.generation;
  try {
    const state = await api('GET', `/api/games/${app.id}`);
    if (gen !== app.generation) return;
    applyState(state);
  } catch (e) {
    if (gen !== app.generation) return;
    app.error = /** @type {import('./api.js').ApiError} */ (e);
  }
}

/** Undo or resign: one request with the token, then the state it answers. */
async function tokenAction(/** @type {'undo' | 'resign'} */ action) {
  const gen = app.generation;
  app.error = null;
  app.info = [];
  disarmResign();
  setBusy(true);
  try {
    const state = await post(`/api/games/${app.id}/${action}`, { token: app.token });
    if (gen !== app.generation) return false;
    applyState(state);
  } catch (e) {
    if (gen !== app.generation) return false;
    app.error = /** @type {import('./api.js').ApiError} */ (e);
  }
  app.busy = false;
  redraw();
  return true;
}

export async function undo() {
  if (!app.state || !app.token || app.busy) return;
  if (await tokenAction('undo')) await maybeComputer();
}

export function disarmResign() {
  app.resignArmed = false;
  if (app.resignTimer) clearTimeout(app.resignTimer);
  app.resignTimer = null;
}

/** Resigning takes a second press within six seconds. */
export async function resign() {
  if (!app.state || !app.token || app.busy || app.state.outcome) return;
  if (!app.resignArmed) {
    app.resignArmed = true;
    app.resignTimer = setTimeout(() => {
      disarmResign();
      redraw();
    }, 6000);
    redraw();
    return;
  }
  await tokenAction('resign');
}

/** Copies the position text, or selects it for a manual copy. */
export async function copyPosition() {
  if (!app.state) return;
  const input = /** @type {HTMLInputElement} */ (document.getElementById('position-text'));
  const note = /** @type {HTMLElement} */ (document.getElementById('copy-note'));
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(app.state.position);
      copied = true;
    }
  } catch {
    copied = false;
  }
  if (!copied) {
    input.focus();
    input.select();
  }
  note.dataset.key = copied ? 'actions.copied' : 'actions.copy-manual';
  note.textContent = t(note.dataset.key);
  note.hidden = false;
  if (app.copyTimer) clearTimeout(app.copyTimer);
  app.copyTimer = setTimeout(() => {
    note.hidden = true;
    delete note.dataset.key;
  }, 5000);
}

/** The "New game" form: creates the game and goes to its address. */
export async function createGame(/** @type {SubmitEvent} */ ev) {
  ev.preventDefault();
  if (app.busy) return;
  const form = /** @type {HTMLFormElement} */ (document.getElementById('new-game'));
  const field = (/** @type {string} */ name) => /** @type {RadioNodeList} */ (form.elements.namedItem(name)).value;
  const side = field('side') || 'white';
  const level = field('level') || 'easy';
  const errEl = /** @type {HTMLElement} */ (document.getElementById('new-game-error'));
  errEl.hidden = true;
  app.newGameError = null;
  // Playing Black (perhaps by lot), the computer makes the first move right away.
  app.thinking = side !== 'white';
  setBusy(true);
  let answer;
  try {
    answer = await post('/api/games', { side, level, rules: rulesText() });
  } catch (e) {
    app.busy = false;
    app.thinking = false;
    app.newGameError = /** @type {import('./api.js').ApiError} */ (e);
    redraw();
    return;
  }
  rememberGame(answer.id, answer.token);
  history.pushState({ game: answer.id }, '', `/g/${answer.id}`);
  enterGame(answer.id, answer.token);
  app.state = answer.state;
  app.busy = false;
  if (answer.state.last_move) {
    app.info.push({ key: 'status.computer-moved', params: { move: answer.state.last_move } });
  }
  redraw();
  await maybeComputer();
}

// ---------------------------------------------------------------- which game is shown

/** @param {string | null} id @param {string | null} token */
function enterGame(id, token) {
  app.generation++;
  app.id = id;
  app.token = token || null;
  app.state = null;
  app.selected = null;
  app.error = null;
  app.info = [];
  app.thinking = false;
  app.busy = false;
  app.boardKey = null;
  disarmResign();
  stopPolling();
}

/** The start page: the "New game" panel by the start position. */
export async function showStart() {
  enterGame(null, null);
  redraw();
  app.startSvg = await fetchStartBoard();
  if (!app.id && app.startSvg) setBoard(app.startSvg, 'start');
}

async function openGame(/** @type {string} */ id) {
  enterGame(id, readToken(id));
  const gen = app.generation;
  redraw();
  try {
    const state = await api('GET', `/api/games/${id}`);
    if (gen !== app.generation) return;
    app.state = state;
    if (app.token) rememberGame(id, null);
  } catch (e) {
    if (gen !== app.generation) return;
    const err = /** @type {import('./api.js').ApiError} */ (e);
    app.error = err;
    if (err.name === 'unknown-game') {
      app.id = null;
      app.newGameError = err;
      await showStart();
      app.newGameError = err;
      redraw();
      return;
    }
  }
  redraw();
  await maybeComputer();
  schedulePoll();
}

/** Shows what the address names: a game (/g/{id}) or the start page. */
export function route() {
  const m = /^\/g\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  if (m) {
    openGame(m[1]);
  } else {
    app.newGameError = null;
    showStart();
  }
}

/** A watcher sees the game move on without reloading. */
function schedulePoll() {
  stopPolling();
  if (!app.id || app.token || !app.state || app.state.outcome) return;
  const gen = app.generation;
  app.pollTimer = setTimeout(async () => {
    if (gen !== app.generation) return;
    if (!document.hidden && app.state) {
      try {
        /** @type {GameState} */
        const state = await api('GET', `/api/games/${app.id}`);
        if (gen !== app.generation || !app.state) return;
        if (state.position !== app.state.position || JSON.stringify(state.outcome) !== JSON.stringify(app.state.outcome) ||
            state.moves.length !== app.state.moves.length) {
          app.state = state;
          redraw();
        }
      } catch {
        // keep polling quietly
      }
    }
    schedulePoll();
  }, WATCH_POLL_MS);
}

function stopPolling() {
  if (app.pollTimer) clearTimeout(app.pollTimer);
  app.pollTimer = null;
}
