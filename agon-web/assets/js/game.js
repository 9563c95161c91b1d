// The game's course: which game is shown (the address), and every request that changes
// it (moves, the computer's replies, hints, undo, resign, a new game). Each updates the
// state and redraws; an answer for a game no longer shown is dropped.

import {
  app, humanToMove, interactive, isFriendGame, keepName, mySide, other, readName, readSide, readToken,
  redraw, rememberGame, viewSide,
} from './state.js';
import { api, fetchStartBoard, post } from './api.js';
import { setBoard } from './board.js';
import { rememberFocus } from './focus.js';
import { t } from './i18n.js';
import { rulesText } from './ruleset.js';
import { follow, stop as stopLive } from './live.js';
import { applyChange } from './change.js';
import { moveSound } from './sound.js';
import { announceState, forgetGame } from './blind.js';

/** @typedef {import('./state.js').GameState} GameState */
/** @typedef {import('./state.js').Side} Side */

function setBusy(/** @type {boolean} */ on) {
  if (on) rememberFocus();
  app.busy = on;
  redraw();
}

/** @param {GameState} state @param {boolean} byHuman */
function noteCaptures(state, byHuman) {
  const caps = state.last_captures || [];
  if (caps.length) {
    let key = byHuman ? 'status.you-captured' : 'status.computer-captured';
    if (!byHuman && state.opponent === 'friend') key = 'status.opponent-captured';
    app.info.push({ key, params: { cells: caps.join(', ') } });
  }
}

/**
 * The address of a game's state with the side the board is to be drawn for (none while
 * the side of a token is not known yet: the server then draws it for the creator, the
 * token's side). The answers to actions are drawn for the token's seat.
 * @param {string} id
 */
function gamePath(id) {
  const unknown = app.token && !app.side && !app.state;
  return `/api/games/${id}${unknown ? '' : `?view=${viewSide()}`}`;
}

/**
 * Takes a state from the server, if it is newer than the one shown: every answer and
 * every event carries the whole state and its version, so an older or equal one (an
 * event that crossed the answer to a move) changes nothing. A state drawn for another
 * view (the board turned the other way) is replaced by the same version for ours.
 * @param {GameState} state
 * @param {Side | null} view the side the board in `state` is drawn for, when known
 * @returns {boolean} whether it was applied
 */
export function applyState(state, view = null) {
  const prev = app.state;
  if (!state || (prev && state.id && prev.id && state.id !== prev.id)) return false;
  if (prev && typeof prev.version === 'number' && typeof state.version === 'number') {
    const better = state.version > prev.version ||
      (state.version === prev.version && app.stateView !== viewSide() && view === viewSide());
    if (!better) return false;
  }
  app.state = state;
  app.stateView = view;
  announceState(prev, state);
  app.clockAt = performance.now();
  if (state.seats) app.presence = { white: state.seats.white.present, black: state.seats.black.present };
  if (!prev || prev.position !== state.position) {
    app.selected = null;
    app.hint = null;
    app.premoveDropped = null;
  }
  // A move made or taken back: a page stepping through the game snaps back to the present.
  if (prev && prev.moves.length !== state.moves.length) app.ply = null;
  if (state.outcome) app.premove = null;
  // The person's turn came with a premove queued: it is played at once if legal.
  if (app.premove && humanToMove()) setTimeout(playPremove, 0);
  if (prev && state.moves.length === prev.moves.length + 1 && state.last_move) {
    // One new move: slide its piece (the previous state listed it with its cells), and
    // sound it when the opponent made it.
    const mv = (prev.legal || []).find((m) => m.move === state.last_move);
    if (mv && mv.from && mv.to) app.animate = { from: mv.from, to: mv.to };
    const side = mySide();
    if (side && prev.chooser !== side) {
      moveSound();
      if (state.opponent === 'friend') {
        app.info = [{ key: 'status.opponent-moved', params: { move: state.last_move } }];
        noteCaptures(state, false);
      }
    }
  }
  // A takeback, or an end without a move (time, agreement, resignation): the last words go.
  if (prev && (state.moves.length < prev.moves.length || (state.outcome && !prev.outcome && state.moves.length === prev.moves.length))) {
    app.info = [];
  }
  // A rematch was agreed: both players go on to the new game with the same token.
  if (prev && !prev.rematch_game && state.rematch_game && app.token) {
    const next = state.rematch_game;
    setTimeout(() => goToRematch(next), 0);
  }
  return true;
}

/** Opens the rematch with this game's token, playing the other colour. */
export function goToRematch(/** @type {string} */ next) {
  if (!app.token || app.id === next) return;
  const side = mySide();
  rememberGame(next, app.token, side ? other(side) : null);
  history.pushState({ game: next }, '', `/g/${next}`);
  openGame(next);
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

/** Sends the person's move (in the notation); against the computer, then asks for its reply. */
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
    if (applyState(state, viewSide())) noteCaptures(state, true);
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

/** Plays the queued premove if it is legal now; else drops it, and says so. */
function playPremove() {
  const pm = app.premove;
  if (!pm || !app.state || !humanToMove()) return;
  if (app.busy) {
    // Another request of this page is running: the premove waits for it.
    setTimeout(playPremove, 100);
    return;
  }
  app.premove = null;
  const text = `${pm.from}-${pm.to}`;
  if ((app.state.legal_moves || []).includes(text)) {
    playMove(text);
  } else {
    app.premoveDropped = text;
    redraw();
  }
}

/** Queues a premove (one at a time: a new one replaces it). */
export function setPremove(/** @type {string} */ from, /** @type {string} */ to) {
  app.premove = { from, to };
  app.premoveDropped = null;
  app.selected = null;
  redraw();
}

/** Cancels the queued premove (a click on the board, a right-click or Escape). */
export function cancelPremove() {
  if (!app.premove && !app.selected) return false;
  app.premove = null;
  app.selected = null;
  redraw();
  return true;
}

/**
 * Shows the game after its first `ply` moves (clamped; the last ply is the present),
 * without changing the game: its board is fetched once and kept.
 * @param {number} ply
 */
export async function stepTo(ply) {
  const s = app.state;
  if (!s || !app.id) return;
  const total = s.moves.length;
  const target = Math.max(0, Math.min(total, Math.round(ply)));
  app.selected = null;
  if (target === total) {
    app.ply = null;
    app.boardKey = null;
    redraw();
    return;
  }
  app.ply = target;
  const view = viewSide();
  const key = plyKey(s, target, view);
  if (!app.plyBoards.has(key)) {
    const gen = app.generation;
    try {
      const res = await fetch(`/api/games/${app.id}/board.svg?ply=${target}&view=${view}`, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(String(res.status));
      const svg = await res.text();
      if (gen !== app.generation) return;
      app.plyBoards.set(key, svg);
    } catch {
      if (gen !== app.generation) return;
      app.error = { name: 'network' };
    }
  }
  redraw();
}

/**
 * The key of a past ply's board: the moves up to it (a takeback may change them) and
 * the side at the bottom.
 * @param {GameState} s @param {number} ply @param {Side} view
 */
export function plyKey(s, ply, view) {
  return `${app.id}:${view}:${ply}:${s.moves.slice(0, ply).join(' ')}`;
}

/** Turns the board: the state and its stream are asked for again drawn the other way up. */
export async function flip() {
  if (!app.id || !app.state) return;
  app.flipped = !app.flipped;
  app.selected = null;
  app.boardKey = null;
  stopLive();
  const ply = app.ply;
  await refresh();
  if (ply !== null) await stepTo(ply);
  redraw();
  startLive();
}

/** Between people, in the first two plies: ends the game with no result. */
export async function abort() {
  if (!app.state || !app.token || app.busy || !app.state.can_abort) return;
  await tokenAction('abort');
}

/** Asks the computer for its move when it is its turn. */
async function maybeComputer() {
  const s = app.state;
  if (!s || !app.token || s.outcome || !s.computer_to_move || app.thinking || isFriendGame()) return;
  const id = app.id;
  const gen = app.generation;
  rememberFocus();
  app.thinking = true;
  app.busy = true;
  redraw();
  try {
    const state = await post(`/api/games/${id}/computer`, { token: app.token }, true);
    if (gen !== app.generation) return;
    applyState(state, viewSide());
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

/** Asks for the state again (after a reconnect, or when an answer said it was stale). */
export async function refresh() {
  if (!app.id) return;
  const gen = app.generation;
  try {
    const state = await api('GET', gamePath(app.id));
    if (gen !== app.generation) return;
    applyState(state, viewSide());
  } catch (e) {
    if (gen !== app.generation) return;
    app.error = /** @type {import('./api.js').ApiError} */ (e);
  }
}

/**
 * While the event stream is down: asks for the state and shows it. Resolves whether it
 * was newer than the one shown; a failed request rejects (the reconnecting notice already
 * says the connection is in trouble: no error line).
 * @returns {Promise<boolean>}
 */
async function poll() {
  const id = app.id;
  if (!id) return false;
  const gen = app.generation;
  const state = await api('GET', gamePath(id));
  if (gen !== app.generation || !applyState(state, viewSide())) return false;
  if (app.error && app.error.name === 'network') app.error = null;
  redraw();
  if (!app.busy) maybeComputer();
  return true;
}

/**
 * One request with the token (undo, resign, an offer or its answer), then the state it
 * answers.
 * @param {string} action the path after the game's: 'undo', 'resign', 'draw', ...
 * @param {Record<string, string>} [extra] more fields of the body
 */
async function tokenAction(action, extra = {}) {
  const gen = app.generation;
  app.error = null;
  app.info = [];
  disarmResign();
  setBusy(true);
  try {
    const state = await post(`/api/games/${app.id}/${action}`, { token: app.token || '', ...extra });
    if (gen !== app.generation) return false;
    applyState(state, viewSide());
  } catch (e) {
    if (gen !== app.generation) return false;
    app.error = /** @type {import('./api.js').ApiError} */ (e);
    // An offer that is gone (answered, or cleared by a move): show the game as it is.
    if (['no-offer', 'offer-pending', 'game-over', 'game-not-over', 'not-your-turn', 'rematch-exists', 'conflict', 'too-late-to-abort'].includes(app.error.name)) {
      await refresh();
    }
  }
  app.busy = false;
  redraw();
  return true;
}

/** Against the computer: takes back the person's last move at once. */
export async function undo() {
  if (!app.state || !app.token || app.busy) return;
  if (await tokenAction('undo')) await maybeComputer();
}

/**
 * Between people: a takeback, a draw or a rematch, offered or answered.
 * @param {'takeback' | 'draw' | 'rematch'} kind
 * @param {'offer' | 'accept' | 'decline'} answer
 */
export async function offer(kind, answer) {
  if (!app.state || !app.token || app.busy) return;
  await tokenAction(kind, { answer });
}

/** A rematch, colours swapped: against the computer at once, with a friend when both ask. */
export async function rematch() {
  const s = app.state;
  if (!s || !app.token || app.busy || !s.outcome) return;
  if (s.rematch_game) {
    goToRematch(s.rematch_game);
    return;
  }
  const side = mySide();
  const theirs = s.offers && s.offers.rematch;
  await offer('rematch', theirs && theirs !== side ? 'accept' : 'offer');
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

/**
 * Copies the text of an input, or selects it for a manual copy, and says which in `note`.
 * @param {string} inputId
 * @param {string} noteId
 */
async function copyField(inputId, noteId) {
  const input = /** @type {HTMLInputElement} */ (document.getElementById(inputId));
  const note = /** @type {HTMLElement} */ (document.getElementById(noteId));
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(input.value);
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

/** Copies the position text. */
export const copyPosition = () => copyField('position-text', 'copy-note');

/** Copies the invitation link. */
export const copyInvite = () => copyField('invite-link', 'invite-note');

/** The "New game" form: creates the game and goes to its address. */
export async function createGame(/** @type {SubmitEvent} */ ev) {
  ev.preventDefault();
  if (app.busy) return;
  const form = /** @type {HTMLFormElement} */ (document.getElementById('new-game'));
  const field = (/** @type {string} */ name) => /** @type {RadioNodeList} */ (form.elements.namedItem(name)).value;
  const opponent = field('opponent') === 'friend' ? 'friend' : 'computer';
  const side = field('side') || 'white';
  const level = field('level') || 'easy';
  const clock = field('clock') || 'none';
  const name = (/** @type {HTMLInputElement} */ (document.getElementById('name-input')).value || '').trim();
  const errEl = /** @type {HTMLElement} */ (document.getElementById('new-game-error'));
  errEl.hidden = true;
  app.newGameError = null;
  /** @type {Record<string, string>} */
  const body = { opponent, side, rules: rulesText() };
  if (opponent === 'computer') body.level = level;
  if (clock !== 'none') body.clock = clock;
  if (opponent === 'friend' && name) body.name = name;
  // Playing Black (perhaps by lot), the computer makes the first move right away.
  app.thinking = opponent === 'computer' && side !== 'white';
  setBusy(true);
  let answer;
  try {
    answer = await post('/api/games', body);
  } catch (e) {
    app.busy = false;
    app.thinking = false;
    app.newGameError = /** @type {import('./api.js').ApiError} */ (e);
    redraw();
    return;
  }
  if (opponent === 'friend') keepName(name);
  const mine = answer.side || answer.state.human;
  rememberGame(answer.id, answer.token, mine);
  history.pushState({ game: answer.id }, '', `/g/${answer.id}`);
  // The Start button is at the foot of a long form: the game begins at the top.
  window.scrollTo({ top: 0 });
  enterGame(answer.id, answer.token);
  app.side = mine;
  applyState(answer.state, answer.state.human === mine ? mine : null);
  app.busy = false;
  if (opponent === 'computer' && answer.state.last_move) {
    app.info.push({ key: 'status.computer-moved', params: { move: answer.state.last_move } });
  }
  redraw();
  startLive();
  await maybeComputer();
}

// ---------------------------------------------------------------- which game is shown

/** @param {string | null} id @param {string | null} token */
function enterGame(id, token) {
  app.generation++;
  app.id = id;
  app.token = token || null;
  app.side = id && token ? readSide(id) : null;
  app.state = null;
  app.stateView = null;
  app.presence = null;
  app.live = false;
  app.liveDownAt = 0;
  app.selected = null;
  app.error = null;
  app.info = [];
  app.thinking = false;
  app.busy = false;
  app.boardKey = null;
  app.animate = null;
  app.ply = null;
  app.flipped = false;
  app.premove = null;
  app.premoveDropped = null;
  app.plyBoards.clear();
  forgetGame();
  disarmResign();
  stopLive();
}

/** The start page: the "New game" panel by the start position. */
export async function showStart() {
  enterGame(null, null);
  redraw();
  app.startSvg = await fetchStartBoard();
  if (!app.id && app.startSvg) setBoard(app.startSvg, 'start');
}

/** Whether this browser, holding no token, should take the free seat of a friend game. */
function mayJoin(/** @type {GameState} */ s) {
  if (app.token || s.opponent !== 'friend' || s.outcome || !s.seats) return false;
  return !s.seats.white.taken || !s.seats.black.taken;
}

/** Takes the free seat: the first other browser to open the invitation plays. */
async function join(/** @type {string} */ id) {
  const gen = app.generation;
  const name = readName();
  try {
    const answer = await post(`/api/games/${id}/join`, name ? { name } : {});
    if (gen !== app.generation) return;
    rememberGame(id, answer.token, answer.side);
    app.token = answer.token;
    app.side = answer.side;
    applyState(answer.state, answer.side);
  } catch (e) {
    if (gen !== app.generation) return;
    const err = /** @type {import('./api.js').ApiError} */ (e);
    // Someone else was quicker, or the game ended meanwhile: watch.
    if (err.name !== 'seat-taken' && err.name !== 'game-over') app.error = err;
    await refresh();
  }
}

async function openGame(/** @type {string} */ id) {
  enterGame(id, readToken(id));
  const gen = app.generation;
  redraw();
  try {
    const state = await api('GET', gamePath(id));
    if (gen !== app.generation) return;
    if (app.token && !app.side) app.side = state.human;
    applyState(state, viewSide());
    if (app.token) rememberGame(id, null, app.side);
    if (mayJoin(state)) await join(id);
    if (gen !== app.generation) return;
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
  startLive();
  await maybeComputer();
}

/**
 * Hands this browser's seat token to the server for the game's event stream: the answer
 * sets an HttpOnly cookie that the stream reads (a token in the stream's address would be
 * written in access logs). Without it (an old token, no network) the stream watches.
 * @param {string} id
 */
async function claimSeat(id) {
  if (!app.token) return;
  try {
    await api('POST', `/api/games/${id}/seat`, { token: app.token });
  } catch {
    // The stream opens as a watcher's; the game goes on.
  }
}

/** Follows the game shown by its event stream: the other side's moves, offers, clocks. */
async function startLive() {
  const id = app.id;
  if (!id) return;
  const gen = app.generation;
  await claimSeat(id);
  if (gen !== app.generation) return;
  /** @param {GameState} state */
  const show = (state) => {
    if (applyState(state, viewSide())) {
      app.error = null;
      redraw();
      if (!app.busy) maybeComputer();
    }
  };
  follow(() => {
    const since = app.state && typeof app.state.version === 'number' ? app.state.version : 0;
    return `/api/games/${id}/events?since=${since}&view=${viewSide()}`;
  }, {
    onState: (state) => {
      if (gen !== app.generation) return;
      show(state);
    },
    onChange: (change) => {
      if (gen !== app.generation) return;
      const shown = app.state && typeof app.state.version === 'number' ? app.state.version : -1;
      if (change.version <= shown) return;
      const next = applyChange(app.state, change, app.stateView === viewSide());
      // A change made from another version than the one shown: the whole state instead.
      if (next) show(next);
      else refresh().then(redraw);
    },
    onPresence: (presence) => {
      if (gen !== app.generation) return;
      app.presence = presence;
      redraw();
    },
    onOpen: async () => {
      if (gen !== app.generation) return;
      const wasDown = !app.live;
      app.live = true;
      app.liveDownAt = 0;
      // Whatever happened while the stream was away: the state as it is now.
      await refresh();
      if (gen !== app.generation) return;
      if (wasDown && app.error && app.error.name === 'network') app.error = null;
      redraw();
    },
    onDown: () => {
      if (gen !== app.generation) return;
      // Dropped, or refused before it ever opened: either way the notice shows.
      if (app.live || !app.liveDownAt) app.liveDownAt = performance.now();
      app.live = false;
      redraw();
    },
    poll: async () => (gen === app.generation ? poll() : false),
    urgent: () => {
      const s = app.state;
      return !!(s && s.clock && s.clock.running && !s.outcome);
    },
  });
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
