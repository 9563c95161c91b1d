// The game review on the game page (issue 34, point 3): a finished game's "Review" asks the
// server for the engine's review (POST /api/games/{id}/review), follows its progress, then
// shows the evaluation graph (the server's SVG), the counts per player, and each
// inaccuracy, mistake and blunder in the move list with the engine's move beside it; each
// mark and each point of the graph goes to its ply.

import { app } from './state.js';
import { api, ApiError } from './api.js';
import { t } from './i18n.js';
import { stepTo } from './game.js';

/**
 * @typedef {{ply: number, side: 'white' | 'black', played: string, best: string,
 *   before: number, after: number, loss: number, judgement: string | null}} PlyFigures
 * @typedef {{actions: number, inaccuracies: number, mistakes: number, blunders: number,
 *   mean_loss: number}} TallyFigures
 * @typedef {{nodes: number, positions: {white: number}[], plies: PlyFigures[],
 *   white: TallyFigures, black: TallyFigures, graph: string}} ReviewFigures
 * @typedef {{status: 'none' | 'queued' | 'running' | 'done' | 'failed', done: number,
 *   total: number, review: ReviewFigures | null, reason?: string | null, retry?: boolean}}
 *   ReviewStatus
 */

/** How often the page asks how far a review has got, in milliseconds. */
const POLL_MS = 500;

/** The glyphs of the judgements, as move lists write them. */
const GLYPHS = /** @type {Record<string, string>} */ ({ inaccuracy: '?!', mistake: '?', blunder: '??' });

/** The review of the game shown: its id, where it stands, an error's key. */
const shown = {
  /** @type {string | null} */ id: null,
  /** @type {ReviewStatus | null} */ status: null,
  /** @type {string | null} */ error: null,
  /** @type {ReturnType<typeof setTimeout> | null} */ timer: null,
  /** the graph drawn, by the game's id */ graphOf: '',
  /** the list drawn, by the game's id and the language */ listKey: '',
};

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {HTMLElement} el @param {boolean} on */
const show = (el, on) => { el.hidden = !on; };

/** Forgets the review of another game, and stops asking after it. */
function follow(/** @type {string | null} */ id) {
  if (shown.id === id) return;
  if (shown.timer) clearTimeout(shown.timer);
  Object.assign(shown, { id, status: null, error: null, timer: null, graphOf: '', listKey: '' });
  if (id) void ask('GET');
}

/** Asks the server (POST: requests the review), then again while it is under way. */
async function ask(/** @type {'GET' | 'POST'} */ method) {
  const id = shown.id;
  if (!id) return;
  try {
    const status = /** @type {ReviewStatus} */ (await api(method, `/api/games/${id}/review`));
    if (shown.id !== id) return;
    shown.status = status;
    shown.error = null;
  } catch (e) {
    if (shown.id !== id) return;
    const name = e instanceof ApiError ? e.name : 'network';
    shown.error = name === 'review-queue-full' ? 'review.queue-full' : 'review.failed';
  }
  renderReview();
  const status = shown.status && shown.status.status;
  if (!shown.error && (status === 'queued' || status === 'running')) {
    shown.timer = setTimeout(() => void ask('GET'), POLL_MS);
  }
}

/** The "Review" button's click. */
export function requestReview() {
  if (!shown.id) return;
  shown.status = { status: 'queued', done: 0, total: 0, review: null };
  renderReview();
  void ask('POST');
}

/** Draws the review card of a finished game, and the marks of its moves. */
export function renderReview() {
  const s = app.state;
  const card = $('review');
  if (!card) return;
  const over = !!(s && s.outcome && app.id);
  follow(over ? app.id : null);
  show(card, over);
  if (!over) return;
  const status = shown.status ? shown.status.status : 'none';
  // A failed review may be asked for again once (the server says whether).
  const retry = status === 'failed' && !!(shown.status && shown.status.retry);
  show($('review-btn'), status === 'none' || !!shown.error || retry);
  show($('review-intro'), status === 'none');
  const working = status === 'queued' || status === 'running';
  const progress = /** @type {HTMLProgressElement} */ ($('review-progress'));
  show(progress, working && !shown.error);
  const note = $('review-note');
  let text = '';
  if (shown.error) text = t(shown.error);
  else if (status === 'failed') text = t(retry ? 'review.failed' : 'review.gave-up');
  else if (status === 'queued') text = t('review.queued');
  else if (status === 'running' && shown.status) {
    text = t('review.running', { done: shown.status.done, total: shown.status.total });
    progress.max = shown.status.total || 1;
    progress.value = shown.status.done;
  }
  if (note.textContent !== text) note.textContent = text;
  show(note, text !== '');
  const review = status === 'done' && shown.status ? shown.status.review : null;
  show($('review-done'), !!review);
  if (review) {
    drawGraph(review);
    drawCounts(review);
    drawList(review);
  }
  markMoves(review);
}

/** The server's graph, a click on it going to the position under the pointer. */
function drawGraph(/** @type {ReviewFigures} */ review) {
  const box = $('review-graph');
  if (shown.graphOf !== shown.id) {
    shown.graphOf = shown.id || '';
    box.innerHTML = review.graph;
    const svg = box.querySelector('svg');
    if (svg) {
      svg.removeAttribute('role');
      svg.setAttribute('aria-hidden', 'true');
      // The container carries the translated label and title.
      const title = svg.querySelector(':scope > title');
      if (title) title.remove();
      svg.addEventListener('click', (event) => {
        const rect = svg.getBoundingClientRect();
        const n = review.positions.length;
        if (n < 2 || rect.width <= 0) return;
        // The positions are spread evenly left to right, whatever the page's direction.
        const x = (event.clientX - rect.left) / rect.width;
        void stepTo(Math.round(x * (n - 1)));
      });
    }
  }
  // The position the board shows, as a line over the graph.
  const svg = box.querySelector('svg');
  if (!svg) return;
  const n = review.positions.length;
  const at = app.ply === null ? n - 1 : app.ply;
  let line = /** @type {SVGLineElement | null} */ (svg.querySelector('line.shown'));
  if (!line) {
    line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
    line.setAttribute('class', 'shown');
    svg.appendChild(line);
  }
  const view = svg.viewBox.baseVal;
  const x = n > 1 ? (at / (n - 1)) * view.width : 0;
  for (const [k, v] of [['x1', x], ['x2', x], ['y1', 0], ['y2', view.height]]) line.setAttribute(String(k), String(v));
}

/** The counts per player. */
function drawCounts(/** @type {ReviewFigures} */ review) {
  for (const side of /** @type {const} */ (['white', 'black'])) {
    const tally = review[side];
    for (const kind of ['inaccuracies', 'mistakes', 'blunders']) {
      const cell = $(`review-${side}-${kind}`);
      const value = String(tally[/** @type {'inaccuracies' | 'mistakes' | 'blunders'} */ (kind)]);
      if (cell.textContent !== value) cell.textContent = value;
    }
  }
}

/** The marked moves, each a button to its ply, with the engine's move beside it. */
function drawList(/** @type {ReviewFigures} */ review) {
  const key = `${shown.id}:${document.documentElement.lang}`;
  if (shown.listKey === key) return;
  shown.listKey = key;
  const list = $('review-list');
  list.textContent = '';
  const marked = review.plies.filter((p) => p.judgement);
  show($('review-clean'), marked.length === 0);
  for (const ply of marked) {
    const li = document.createElement('li');
    li.className = `rv rv-${ply.judgement}`;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'btn btn-small rv-go';
    button.dataset.ply = String(ply.ply + 1);
    const move = document.createElement('span');
    move.setAttribute('dir', 'ltr');
    move.textContent = `${moveNumber(ply.ply)} ${ply.played}${GLYPHS[ply.judgement || ''] || ''}`;
    const what = document.createElement('span');
    what.className = 'rv-what';
    what.textContent = t(`review.${ply.judgement}`);
    const best = document.createElement('span');
    best.className = 'rv-best';
    best.textContent = t('review.best', { move: ply.best });
    button.append(move, ' ', what, ' ', best);
    button.addEventListener('click', () => void stepTo(ply.ply + 1));
    li.append(button);
    list.append(li);
  }
}

/** The number of a ply in the move list: `12.` for White's move, `12…` for Black's. */
function moveNumber(/** @type {number} */ ply) {
  const moves = app.state ? app.state.moves.length : 0;
  const firstBlack = app.state && (moves % 2 === 0 ? app.state.to_move : (app.state.to_move === 'white' ? 'black' : 'white')) === 'black';
  const index = ply + (firstBlack ? 1 : 0);
  return `${Math.floor(index / 2) + 1}${index % 2 === 0 ? '.' : '…'}`;
}

/** Puts each judgement's glyph and the engine's move on the move list's buttons. */
function markMoves(/** @type {ReviewFigures | null} */ review) {
  const list = document.getElementById('moves');
  if (!list || !review) return;
  for (const button of list.querySelectorAll('button.mv[data-ply]')) {
    const el = /** @type {HTMLButtonElement} */ (button);
    const key = `${shown.id}:${document.documentElement.lang}`;
    if (el.dataset.reviewed === key) continue;
    el.dataset.reviewed = key;
    const ply = review.plies[Number(el.dataset.ply) - 1];
    if (!ply || !ply.judgement) continue;
    for (const old of el.querySelectorAll('.rv-glyph, .rv-best')) old.remove();
    el.classList.add(`rv-${ply.judgement}`);
    const glyph = document.createElement('span');
    glyph.className = 'rv-glyph';
    glyph.textContent = GLYPHS[ply.judgement] || '';
    const best = document.createElement('span');
    best.className = 'rv-best';
    best.textContent = ply.best;
    el.append(glyph, ' ', best);
    el.title = `${t(`review.${ply.judgement}`)}: ${t('review.best', { move: ply.best })}`;
    el.setAttribute('aria-label', `${ply.played}, ${el.title}`);
  }
}
