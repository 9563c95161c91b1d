// The analysis board (/analysis): a tree of moves explored from any start, the engine's
// lines beside it, and the tree read from and written to a game record with variations.
// The server reads and writes every record (POST /api/records/read and /write) and
// draws every position with its legal moves (POST /api/analysis/board): nothing of the
// record format or the rules lives here.

import { post, ApiError } from './api.js';
import { t } from './i18n.js';
import { addArrow, addMark, addOutline, board, cellCentre, cellPolygon, makeFocusable, marksGroup, showSvg } from './board.js';
import { onRedraw } from './state.js';

/**
 * @typedef {{move: string, parent: number | null, children: number[], dead?: boolean}} TreeNode
 * @typedef {{move: string, from: string | null, to: string | null, kind: string}} LegalMove
 * @typedef {{cp?: number, win_in?: number, loss_in?: number}} LineScore
 * @typedef {{score: LineScore, white_expected: number, pv: string[]}} EngineLine
 */

const tree = {
  /** @type {string | null} the start position's text (null: the rules' start) */
  position: null,
  rules: 'standard',
  /** @type {TreeNode[]} */
  nodes: [],
  /** @type {number[]} the moves from the start, the first the main line's */
  roots: [],
  /** @type {number | null} the node shown (null: the start) */
  current: null,
};

const view = {
  flipped: false,
  /** @type {string | null} */
  selected: null,
  /** @type {LegalMove[]} */
  legal: [],
  /** @type {string} the position's text, once drawn */
  text: '',
  /** @type {string} */
  chooser: 'white',
  /** @type {{winner: string | null, reason: string, score: string} | null} */
  outcome: null,
  /** @type {EngineLine[]} */
  lines: [],
  /** @type {string | null} */
  error: null,
  generation: 0,
};

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {number | null} id */
const childrenOf = (id) => (id === null ? tree.roots : tree.nodes[id].children);

/** The moves from the start to node `id`. */
function pathTo(/** @type {number | null} */ id) {
  /** @type {string[]} */
  const moves = [];
  for (let at = id; at !== null; at = tree.nodes[at].parent) moves.push(tree.nodes[at].move);
  return moves.reverse();
}

/** Whether White moves first from the start. */
const whiteFirst = () => !tree.position || tree.position.trim().endsWith('w');

/** The move number of ply `ply` (from 0), and whether it is White's. */
function numberOf(/** @type {number} */ ply) {
  const offset = whiteFirst() ? 0 : 1;
  return { number: Math.floor((ply + offset) / 2) + 1, white: (ply + offset) % 2 === 0 };
}

/** Plays `move` from the node shown: an existing child is followed, a new one added. */
function playMove(/** @type {string} */ move) {
  const siblings = childrenOf(tree.current);
  const known = siblings.find((id) => tree.nodes[id].move === move);
  if (known !== undefined) {
    tree.current = known;
  } else {
    tree.nodes.push({ move, parent: tree.current, children: [] });
    const id = tree.nodes.length - 1;
    siblings.push(id);
    tree.current = id;
  }
  view.selected = null;
  show();
}

/** Makes the line through the node shown the main one where it branches off. */
function promote() {
  for (let at = tree.current; at !== null; at = tree.nodes[at].parent) {
    const siblings = childrenOf(tree.nodes[at].parent);
    const i = siblings.indexOf(at);
    if (i > 0) {
      siblings.splice(i, 1);
      siblings.unshift(at);
      render();
      return;
    }
  }
}

/** Deletes the node shown and what follows it; the board goes back one move. */
function deleteCurrent() {
  const id = tree.current;
  if (id === null) return;
  const parent = tree.nodes[id].parent;
  const siblings = childrenOf(parent);
  siblings.splice(siblings.indexOf(id), 1);
  /** @type {number[]} */
  const stack = [id];
  while (stack.length) {
    const n = /** @type {number} */ (stack.pop());
    tree.nodes[n].dead = true;
    stack.push(...tree.nodes[n].children);
  }
  tree.current = parent;
  show();
}

/** Goes to node `id` (null: the start). */
function goTo(/** @type {number | null} */ id) {
  tree.current = id;
  view.selected = null;
  show();
}

function goForward() {
  const next = childrenOf(tree.current)[0];
  if (next !== undefined) goTo(next);
}

function goLast() {
  let at = tree.current;
  for (let next = childrenOf(at)[0]; next !== undefined; next = childrenOf(at)[0]) at = next;
  goTo(at);
}

/** The tree as the API's flat list, parents first, the dead nodes left out. */
function flatNodes() {
  /** @type {{move: string, parent: number | null}[]} */
  const out = [];
  /** @type {[number, number | null][]} node and its parent's new index */
  const stack = tree.roots.map((id) => /** @type {[number, number | null]} */ ([id, null])).reverse();
  while (stack.length) {
    const [id, parent] = /** @type {[number, number | null]} */ (stack.pop());
    out.push({ move: tree.nodes[id].move, parent });
    const index = out.length - 1;
    for (const child of [...tree.nodes[id].children].reverse()) stack.push([child, index]);
  }
  return out;
}

/**
 * Replaces the tree by the API's record tree, showing the end of its main line.
 * @param {{position: string, rules: string, nodes: {move: string, parent: number | null}[]}} answer
 */
function loadTree(answer) {
  tree.position = answer.position;
  tree.rules = answer.rules;
  tree.nodes = answer.nodes.map((n) => ({ move: n.move, parent: n.parent, children: [] }));
  tree.roots = [];
  tree.nodes.forEach((n, i) => childrenOf(n.parent).push(i));
  tree.current = null;
  goLast();
}

/** Starts afresh from `position` (null: the start) under `rules`. */
function reset(/** @type {string | null} */ position, /** @type {string} */ rules) {
  loadTree({ position: position || '', rules, nodes: [] });
  if (!position) tree.position = null;
}

// ---------------------------------------------------------------- the server

function fail(/** @type {unknown} */ e) {
  const err = e instanceof ApiError ? e : new ApiError(0, 'network');
  view.error = err.message && err.message !== err.name ? `${t('analysis.error')} ${err.message}` : t('analysis.error');
  render();
}

/** Draws the node shown and asks the engine about it. */
async function show() {
  const generation = ++view.generation;
  view.error = null;
  const request = { rules: tree.rules, moves: pathTo(tree.current), flipped: view.flipped };
  const body = tree.position ? { ...request, position: tree.position } : request;
  render();
  try {
    const answer = await post('/api/analysis/board', body);
    if (generation !== view.generation) return;
    view.legal = answer.legal;
    view.text = answer.position;
    view.chooser = answer.chooser;
    view.outcome = answer.outcome;
    view.lines = [];
    showSvg(board(), answer.svg);
    // How many moves the drawn position is from the start (the tests wait on it).
    board().dataset.plies = String(request.moves.length);
    render();
    analyse(generation);
  } catch (e) {
    if (generation === view.generation) fail(e);
  }
}

/** The engine's lines for the node shown, when the engine is on. */
async function analyse(/** @type {number} */ generation) {
  const on = /** @type {HTMLInputElement} */ ($('engine-on')).checked;
  if (!on || view.outcome) return;
  const three = /** @type {HTMLInputElement} */ ($('engine-three')).checked;
  const request = { rules: tree.rules, moves: pathTo(tree.current), multipv: three ? 3 : 1 };
  const body = tree.position ? { ...request, position: tree.position } : request;
  $('eval-text').textContent = t('analysis.thinking');
  try {
    const answer = await post('/api/analysis', body);
    if (generation !== view.generation) return;
    view.lines = answer.lines;
    render();
  } catch (e) {
    if (generation === view.generation) fail(e);
  }
}

async function exportRecord() {
  const body = { rules: tree.rules, nodes: flatNodes(), ...(tree.position ? { position: tree.position } : {}) };
  try {
    const answer = await post('/api/records/write', body);
    /** @type {HTMLTextAreaElement} */ ($('record-output')).value = answer.record;
    const link = /** @type {HTMLAnchorElement} */ ($('download'));
    link.href = `data:text/plain;charset=utf-8,${encodeURIComponent(answer.record)}`;
    link.hidden = false;
  } catch (e) {
    fail(e);
  }
}

async function readRecord(/** @type {string} */ text) {
  try {
    loadTree(await post('/api/records/read', { record: text }));
  } catch (e) {
    fail(e);
  }
}

// ---------------------------------------------------------------- drawing

/** The score for White, as a player reads it: +1.25, #3, #-2. */
function scoreText(/** @type {EngineLine} */ line) {
  const sign = view.chooser === 'white' ? 1 : -1;
  const s = line.score;
  if (s.win_in !== undefined) return `#${sign * s.win_in}`;
  if (s.loss_in !== undefined) return `#${-sign * s.loss_in}`;
  const cp = sign * (s.cp || 0);
  return `${cp >= 0 ? '+' : '−'}${(Math.abs(cp) / 100).toFixed(2)}`;
}

/** The two cells of a move's text (`f1-e1`, `f4>l1`), if it has them. */
function cellsOf(/** @type {string} */ move) {
  const parts = move.split(/[->]/);
  return parts.length === 2 ? parts : null;
}

function renderBoard() {
  const svg = board().querySelector('svg');
  if (!svg) return;
  const marks = marksGroup(/** @type {SVGSVGElement} */ (svg));
  marks.textContent = '';
  for (const old of svg.querySelectorAll('[tabindex]')) old.removeAttribute('tabindex');
  // The engine's best moves as arrows, the best one strongest.
  view.lines.forEach((line, i) => {
    const cells = line.pv.length ? cellsOf(line.pv[0]) : null;
    const from = cells && cellPolygon(cells[0]);
    const to = cells && cellPolygon(cells[1]);
    if (!from || !to) return;
    const cls = i === 0 ? 'mark-best' : 'mark-other';
    addArrow(marks, from, to, `mark-hint-arrow ${cls}`);
    // The arrow's head: a dot on the cell it goes to.
    const c = cellCentre(to);
    addMark(marks, 'circle', { cx: c.x.toFixed(2), cy: c.y.toFixed(2), r: i === 0 ? '7' : '5', class: `mark-head ${cls}` });
  });
  for (const mv of view.legal) {
    const poly = mv.from && cellPolygon(mv.from);
    if (poly && mv.from) makeFocusable(svg.querySelector(`g.piece[data-cell="${mv.from}"]`) || poly, mv.from);
  }
  if (view.selected) {
    const spoly = cellPolygon(view.selected);
    if (spoly) addOutline(marks, spoly, 'mark-selected');
    for (const mv of view.legal) {
      if (mv.from !== view.selected || !mv.to) continue;
      const poly = cellPolygon(mv.to);
      if (!poly) continue;
      addOutline(marks, poly, 'mark-target');
      makeFocusable(poly, mv.to);
    }
  }
}

function renderEngine() {
  const best = view.lines[0];
  const white = best ? best.white_expected : view.outcome ? outcomeShare() : 0.5;
  $('eval-fill').style.height = `${(white * 100).toFixed(1)}%`;
  $('eval-bar').setAttribute('aria-label', t('analysis.eval-bar-value', { percent: Math.round(white * 100) }));
  const text = $('eval-text');
  if (view.outcome) text.textContent = t('analysis.over', { score: view.outcome.score });
  else if (best) text.textContent = `${scoreText(best)} · ${best.pv.slice(0, 8).join(' ')}`;
  else if (!(/** @type {HTMLInputElement} */ ($('engine-on')).checked)) text.textContent = t('analysis.engine-off');
  const list = $('engine-lines');
  list.textContent = '';
  for (const line of view.lines) {
    const li = document.createElement('li');
    const score = document.createElement('strong');
    score.textContent = scoreText(line);
    score.dir = 'ltr';
    const pv = document.createElement('span');
    pv.dir = 'ltr';
    pv.textContent = ` ${line.pv.join(' ')}`;
    li.append(score, pv);
    list.appendChild(li);
  }
}

/** White's share at a finished game: 1, 0 or a half. */
function outcomeShare() {
  const w = view.outcome && view.outcome.winner;
  return w === 'white' ? 1 : w === 'black' ? 0 : 0.5;
}

/**
 * Appends the line that starts at node `id` to `into`: each move a button, the other
 * moves where it branches in parentheses after it.
 * @param {HTMLElement} into @param {number} id @param {number} first the ply of its first move
 */
function renderLine(into, id, first) {
  let numbered = true;
  let ply = first;
  for (let at = /** @type {number | undefined} */ (id); at !== undefined; ply++) {
    const node = tree.nodes[at];
    const { number, white } = numberOf(ply);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'tree-move';
    button.dataset.node = String(at);
    button.dir = 'ltr';
    button.textContent = white ? `${number}. ${node.move}` : numbered ? `${number}… ${node.move}` : node.move;
    if (at === tree.current) button.setAttribute('aria-current', 'true');
    into.appendChild(button);
    numbered = false;
    const siblings = childrenOf(node.parent);
    if (siblings[0] === at) {
      for (const other of siblings.slice(1)) {
        const span = document.createElement('span');
        span.className = 'variation';
        span.setAttribute('role', 'group');
        renderLine(span, other, ply);
        into.appendChild(span);
        numbered = true;
      }
    }
    at = node.children[0];
  }
}

function renderTree() {
  const el = $('tree');
  el.textContent = '';
  if (tree.roots.length) renderLine(el, tree.roots[0], 0);
  else {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = t('analysis.no-moves');
    el.appendChild(p);
  }
  const here = el.querySelector('[aria-current]');
  if (here) here.scrollIntoView({ block: 'nearest' });
}

function render() {
  renderTree();
  renderBoard();
  renderEngine();
  board().classList.toggle('interactive', view.legal.length > 0);
  const error = $('analysis-error');
  error.hidden = !view.error;
  error.textContent = view.error || '';
  /** @type {HTMLButtonElement} */ ($('promote')).disabled = tree.current === null;
  /** @type {HTMLButtonElement} */ ($('delete')).disabled = tree.current === null;
  $('flip').setAttribute('aria-pressed', String(view.flipped));
  // A pass (rule sets where a stuck side passes) has no cells: it is a button.
  $('pass').hidden = !view.legal.some((m) => m.kind === 'pass');
}

// ---------------------------------------------------------------- input

/** A click or Enter on a cell: select a piece, or play to a marked cell. */
function onCell(/** @type {string} */ cell) {
  if (view.selected) {
    const mv = view.legal.find((m) => m.from === view.selected && m.to === cell);
    if (mv) {
      playMove(mv.move);
      return;
    }
  }
  view.selected = view.legal.some((m) => m.from === cell) && view.selected !== cell ? cell : null;
  render();
}

function cellOfEvent(/** @type {Event} */ ev) {
  const target = /** @type {Element | null} */ (ev.target);
  const node = target && target.closest('[data-cell]');
  return node ? /** @type {HTMLElement} */ (/** @type {unknown} */ (node)).dataset.cell || null : null;
}

/** The start of the page: from `?game=`, `?position=` (and `?rules=`), or the start. */
async function start() {
  const query = new URLSearchParams(location.search);
  const game = query.get('game');
  const position = query.get('position');
  const rules = query.get('rules') || 'standard';
  if (game) {
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(game)}/record`, { cache: 'no-store' });
      if (!res.ok) throw new ApiError(res.status, 'not-found');
      await readRecord(await res.text());
      return;
    } catch (e) {
      fail(e);
    }
  }
  if (position) /** @type {HTMLInputElement} */ ($('position-input')).value = position;
  reset(position, rules);
}

/** Sets the analysis board up: its controls, keys and the first position. */
export function initAnalysisPage() {
  onRedraw(render);
  const el = board();
  el.addEventListener('click', (ev) => {
    const cell = cellOfEvent(ev);
    if (cell) onCell(cell);
  });
  el.addEventListener('keydown', (ev) => {
    const cell = cellOfEvent(ev);
    if (cell && (ev.key === 'Enter' || ev.key === ' ')) {
      ev.preventDefault();
      onCell(cell);
    }
  });
  $('tree').addEventListener('click', (ev) => {
    const target = /** @type {HTMLElement} */ (ev.target);
    if (target.dataset.node) goTo(Number(target.dataset.node));
  });
  document.addEventListener('keydown', (ev) => {
    const typing = /** @type {HTMLElement} */ (ev.target).closest('input, textarea, select');
    if (typing || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    // As on the game page, and as the buttons stand (left to right in every language).
    if (ev.key === 'ArrowLeft' && tree.current !== null) goTo(tree.nodes[tree.current].parent);
    else if (ev.key === 'ArrowRight') goForward();
    else if (ev.key === 'Home') goTo(null);
    else if (ev.key === 'End') goLast();
    else if (ev.key === 'f') flip();
    else return;
    ev.preventDefault();
  });
  $('go-first').addEventListener('click', () => goTo(null));
  $('go-back').addEventListener('click', () => tree.current !== null && goTo(tree.nodes[tree.current].parent));
  $('go-forward').addEventListener('click', goForward);
  $('go-last').addEventListener('click', goLast);
  $('flip').addEventListener('click', flip);
  $('pass').addEventListener('click', () => playMove('pass'));
  $('promote').addEventListener('click', promote);
  $('delete').addEventListener('click', deleteCurrent);
  $('engine-on').addEventListener('change', () => show());
  $('engine-three').addEventListener('change', () => show());
  $('export').addEventListener('click', exportRecord);
  $('load-record').addEventListener('click', () => readRecord(/** @type {HTMLTextAreaElement} */ ($('record-input')).value));
  $('load-start').addEventListener('click', () => reset(null, 'standard'));
  $('load-position').addEventListener('click', () => {
    const text = /** @type {HTMLInputElement} */ ($('position-input')).value.trim();
    reset(text || null, tree.rules);
  });
  $('record-file').addEventListener('change', async () => {
    const file = /** @type {HTMLInputElement} */ ($('record-file')).files?.[0];
    if (!file) return;
    const text = await file.text();
    /** @type {HTMLTextAreaElement} */ ($('record-input')).value = text;
    readRecord(text);
  });
  start();
}

function flip() {
  view.flipped = !view.flipped;
  show();
}
