// The screen-reader mode (lichess's "blind mode"): the board as text (every cell named, by
// ring or by file), what happens announced in a live region (the moves with their captures
// and returns, the clocks at 60, 30 and 10 seconds, the end of the game), and the move
// entry as a combobox listing the legal moves that match what is typed. Turned on and off
// by its toggle, which is remembered in localStorage; ?blind=1 (or 0) sets it for one page.

import { app, humanToMove, mySide, other } from './state.js';
import { t } from './i18n.js';

/** @typedef {import('./state.js').GameState} GameState */
/** @typedef {import('./state.js').Piece} Piece */
/** @typedef {import('./state.js').LegalMove} LegalMove */
/** @typedef {import('./state.js').Side} Side */

const STORE = 'agon-blind';
// The clock's thresholds, in ms: each is said once as the time runs below it.
const CLOCK_MARKS = [60_000, 30_000, 10_000];
// How many announcements the log keeps on the page (a screen reader says each as it comes).
const LOG_KEEP = 8;
const THRONE = 'f6';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

let on = false;

/** Whether the screen-reader mode is on. */
export function blindOn() {
  return on;
}

// ---------------------------------------------------------------- the cells

/**
 * @typedef {{name: string, file: string, rank: number, ring: number, angle: number}} Cell
 */

/** The 91 cells (RULES.md section 1): file by file, each from rank 1 up. */
export const CELLS = (() => {
  /** @type {Cell[]} */
  const cells = [];
  [...'abcdefghikl'].forEach((file, i) => {
    const q = i - 5;
    for (let rank = 1; rank <= 11 - Math.abs(q); rank++) {
      const r = Math.min(5, 5 - q) - (rank - 1);
      const ring = Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
      // Clockwise from the top of the board (f11's side), for reading a ring around.
      const x = 1.5 * q;
      const y = Math.sqrt(3) * (r + q / 2);
      const angle = (Math.atan2(x, -y) + 2 * Math.PI) % (2 * Math.PI);
      cells.push({ name: `${file}${rank}`, file, rank, ring, angle });
    }
  });
  return cells;
})();

/** A cell's name kept left to right in right-to-left text. */
function iso(/** @type {string} */ text) {
  return document.documentElement.dir === 'rtl' ? `\u2066${text}\u2069` : text;
}

/** Items in a list, with the comma of the page's script (Arabic's in right to left). */
function listText(/** @type {string[]} */ items) {
  return items.join(document.documentElement.dir === 'rtl' ? '\u060c ' : ', ');
}

/** A cell for the ear: "f6, the throne" for the throne. */
function cellText(/** @type {string} */ cell) {
  return cell === THRONE ? t('blind.throne-cell', { cell: iso(cell) }) : iso(cell);
}

/** "White guard", "Black queen, captured". */
function pieceText(/** @type {Piece} */ p) {
  return t(`blind.${p.side}-${p.kind}${p.captured ? '-captured' : ''}`);
}

/** One cell of the text board: "e5: White guard", "f6, the throne: empty". */
function cellLine(/** @type {string} */ cell, /** @type {Map<string, Piece>} */ pieces) {
  const p = pieces.get(cell);
  return t('blind.cell', { cell: cellText(cell), what: p ? pieceText(p) : t('blind.empty') });
}

/** The groups of the text board: the rings from the throne out, or the files a to l. */
function groups(/** @type {'ring' | 'file'} */ by) {
  /** @type {{title: string, cells: string[]}[]} */
  const out = [];
  if (by === 'ring') {
    for (let ring = 0; ring <= 5; ring++) {
      const cells = CELLS.filter((c) => c.ring === ring).sort((a, b) => a.angle - b.angle);
      const title = ring === 0 ? t('blind.ring-throne') : ring === 5 ? t('blind.ring-outer') : t('blind.ring', { n: ring });
      out.push({ title, cells: cells.map((c) => c.name) });
    }
  } else {
    for (const file of 'abcdefghikl') {
      out.push({ title: t('blind.file', { file: iso(file) }), cells: CELLS.filter((c) => c.file === file).map((c) => c.name) });
    }
  }
  return out;
}

/** How the text board is read: by ring or by file (the radio buttons). */
function readBy() {
  const checked = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="blind-by"]:checked'));
  return checked && checked.value === 'file' ? 'file' : 'ring';
}

/** Each side's pieces in a line: "White: queen f6; guards e5, e6; captured: a1". */
function summaryLine(/** @type {Side} */ side, /** @type {Piece[]} */ pieces) {
  const own = pieces.filter((p) => p.side === side);
  const queen = own.filter((p) => p.kind === 'queen').map((p) => iso(p.cell));
  const guards = own.filter((p) => p.kind === 'guard').map((p) => iso(p.cell));
  const captured = own.filter((p) => p.captured).map((p) => iso(p.cell));
  let line = t('blind.summary', {
    side: t(`side.${side}`), queen: listText(queen) || '—', guards: listText(guards) || '—',
  });
  if (captured.length) line = `${line} ${t('blind.summary-captured', { cells: listText(captured) })}`;
  return line;
}

/** The text board, rebuilt when the position or the reading changes. */
function renderTextBoard() {
  const s = app.state;
  const box = $('blind-cells');
  if (!s || !box) return;
  const by = readBy();
  const key = `${s.position}|${by}|${document.documentElement.lang}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  /** @type {Map<string, Piece>} */
  const pieces = new Map((s.pieces || []).map((p) => [p.cell, p]));
  const summary = $('blind-summary');
  summary.textContent = '';
  for (const side of /** @type {Side[]} */ (['white', 'black'])) {
    const p = document.createElement('p');
    p.textContent = summaryLine(side, s.pieces || []);
    summary.appendChild(p);
  }
  box.textContent = '';
  for (const group of groups(by)) {
    const h = document.createElement('h3');
    h.className = 'blind-group';
    h.textContent = group.title;
    const ul = document.createElement('ul');
    ul.className = 'blind-list';
    for (const cell of group.cells) {
      const li = document.createElement('li');
      const p = pieces.get(cell);
      li.dataset.cell = cell;
      if (p) li.dataset.side = p.side;
      if (cell === THRONE) li.classList.add('throne');
      li.textContent = cellLine(cell, pieces);
      ul.appendChild(li);
    }
    box.append(h, ul);
  }
}

// ---------------------------------------------------------------- announcements

/** Says `text` through the polite live region (a log: each line is read as it comes). */
export function announce(/** @type {string} */ text) {
  const log = $('announce');
  if (!on || !log || !text) return;
  const line = document.createElement('p');
  line.textContent = text;
  log.appendChild(line);
  while (log.childElementCount > LOG_KEEP) log.firstElementChild?.remove();
}

/** A move for the ear: "White: guard from h7 to h6.", "Black returns the guard from g6
 * to a3." (`before` is the state it was played in: its legal moves name the cells.) */
function moveText(/** @type {string} */ move, /** @type {Side} */ side, /** @type {GameState | null} */ before) {
  const mv = ((before && before.legal) || []).find((m) => m.move === move);
  const who = t(`side.${side}`);
  if (move === 'pass' || (mv && mv.kind === 'pass')) return t('blind.pass', { side: who });
  if (!mv || !mv.from || !mv.to) return t('blind.played', { side: who, move });
  const piece = before && before.pieces ? before.pieces.find((p) => p.cell === mv.from) : undefined;
  const kind = t(`piece.${piece ? piece.kind : 'guard'}`);
  const params = { side: who, piece: kind, from: cellText(mv.from), to: cellText(mv.to) };
  return t(mv.kind === 'return' ? 'blind.return' : 'blind.step', params);
}

/** The pieces a state's last move captured: "Captured: Black guard g6." */
function capturesText(/** @type {GameState} */ state) {
  const caps = state.last_captures || [];
  if (!caps.length) return '';
  const names = caps.map((cell) => {
    const p = (state.pieces || []).find((x) => x.cell === cell);
    return p ? `${t(`blind.${p.side}-${p.kind}`)} ${iso(cell)}` : iso(cell);
  });
  return t('blind.captures', { pieces: listText(names) });
}

/**
 * Says what changed between two states of the game: the moves made since (with the last
 * one's captures), then whether it is the person's turn, and what to return. The end is
 * said by the panel (announceEnd), which words it.
 * @param {GameState | null} prev
 * @param {GameState} state
 */
export function announceState(prev, state) {
  if (!on || !prev || prev.id !== state.id) return;
  const added = state.moves.length - prev.moves.length;
  if (added < 0) {
    // A takeback (undo against the computer, or agreed between people).
    const gone = prev.moves.slice(state.moves.length).map(iso);
    announce(`${t('blind.taken-back', { moves: listText(gone) })} ${humanToMove() ? t('blind.your-turn') : ''}`.trim());
    return;
  }
  if (added === 0) return;
  // Each action passes the turn: the last move is by the side not to move now.
  const lastSide = other(state.to_move);
  const lines = [];
  for (let i = prev.moves.length; i < state.moves.length; i++) {
    const side = (state.moves.length - 1 - i) % 2 === 0 ? lastSide : other(lastSide);
    lines.push(moveText(state.moves[i], side, added === 1 ? prev : null));
  }
  const caps = capturesText(state);
  if (caps) lines.push(caps);
  if (!state.outcome && humanToMove()) {
    if (state.must_return) {
      const froms = [...new Set((state.legal || []).map((m) => m.from).filter((c) => c))];
      lines.push(t('blind.your-return', { cells: listText(froms.map((c) => iso(/** @type {string} */ (c)))) }));
    } else {
      lines.push(t('blind.your-turn'));
    }
  }
  announce(lines.join(' '));
}

/** @type {string | null} the end last said (a game's id and its length) */
let endSaid = null;
/** @type {number | null | undefined} the ply last said while stepping through the game */
let plySaid;
/** @type {Record<string, number>} each side's time at the last look, in ms */
const lastTime = {};

/**
 * Says the end of the game through the assertive region, once per game and end.
 * @param {string} key what identifies this end
 * @param {string} text how it ended, worded by the panel
 */
export function announceEnd(key, text) {
  const el = $('announce-end');
  if (!el) return;
  if (!on) {
    el.textContent = '';
    return;
  }
  if (endSaid === key) return;
  endSaid = key;
  el.textContent = text;
}

/** Forgets what was said of the game shown before, and its clocks (another game shown). */
export function forgetGame() {
  endSaid = null;
  plySaid = undefined;
  delete lastTime.white;
  delete lastTime.black;
  for (const id of ['announce', 'announce-end']) {
    const el = document.getElementById(id);
    if (el) el.textContent = '';
  }
}

/**
 * Says a clock passing below 60, 30 and 10 seconds: one's own while playing, both while
 * watching (called by the clock's ticks).
 * @param {Side} side
 * @param {number} ms the time left now
 */
export function clockTick(side, ms) {
  const before = lastTime[side];
  lastTime[side] = ms;
  const me = mySide();
  if (!on || before === undefined || (me && me !== side)) return;
  const mark = CLOCK_MARKS.find((m) => before > m && ms <= m);
  if (mark) announce(t('blind.clock', { side: t(`side.${side}`), seconds: mark / 1000 }));
}

// ---------------------------------------------------------------- the move entry

let listOpen = false;
let active = -1;
/** @type {LegalMove[]} the options shown */
let shown = [];

const input = () => /** @type {HTMLInputElement} */ ($('move-input'));

/** An option of the list: "h7-h6: guard from h7 to h6". */
function optionText(/** @type {LegalMove} */ mv) {
  if (mv.kind === 'pass' || !mv.from || !mv.to) return mv.move;
  const piece = (app.state && app.state.pieces || []).find((p) => p.cell === mv.from);
  const kind = t(`piece.${piece ? piece.kind : 'guard'}`);
  const params = { move: mv.move, piece: kind, from: cellText(mv.from), to: cellText(mv.to) };
  return t(mv.kind === 'return' ? 'blind.option-return' : 'blind.option-step', params);
}

/** The legal moves matching what is typed: every part of it (cells, separators dropped)
 * found in the move. */
function matching(/** @type {string} */ typed) {
  const parts = typed.toLowerCase().split(/[^a-z0-9]+/).filter((x) => x);
  return ((app.state && app.state.legal) || []).filter((mv) => parts.every((p) => mv.move.includes(p)));
}

/** Shows the list of the matching moves (while open), and the combobox's state. */
function renderOptions() {
  const el = input();
  const list = $('move-options');
  if (!el || !list) return;
  const open = on && listOpen && !el.disabled;
  shown = open ? matching(el.value) : [];
  if (active >= shown.length) active = shown.length - 1;
  list.textContent = '';
  shown.forEach((mv, i) => {
    const li = document.createElement('li');
    li.id = `move-opt-${i}`;
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', String(i === active));
    li.dataset.move = mv.move;
    li.textContent = optionText(mv);
    list.appendChild(li);
  });
  list.hidden = !open || shown.length === 0;
  $('move-none').hidden = !open || shown.length > 0 || !el.value.trim();
  if (!on) return;
  el.setAttribute('aria-expanded', String(!list.hidden));
  if (active >= 0 && !list.hidden) {
    el.setAttribute('aria-activedescendant', `move-opt-${active}`);
    document.getElementById(`move-opt-${active}`)?.scrollIntoView({ block: 'nearest' });
  } else {
    el.removeAttribute('aria-activedescendant');
  }
}

/** Puts the chosen option's move into the entry. */
function choose(/** @type {number} */ i) {
  const mv = shown[i];
  if (!mv) return false;
  input().value = mv.move;
  listOpen = false;
  active = -1;
  renderOptions();
  return true;
}

/** The entry's keys in this mode: ↓ ↑ go through the options, Enter plays the one chosen,
 * Escape closes the list. */
function onEntryKey(/** @type {KeyboardEvent} */ ev) {
  if (!on) return;
  if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
    ev.preventDefault();
    if (!listOpen) {
      listOpen = true;
      active = -1;
      renderOptions();
    }
    if (!shown.length) return;
    const step = ev.key === 'ArrowDown' ? 1 : -1;
    active = active < 0 ? (step > 0 ? 0 : shown.length - 1) : (active + step + shown.length) % shown.length;
    renderOptions();
  } else if (ev.key === 'Enter') {
    // The chosen option goes into the entry; the form is then sent as usual.
    if (listOpen && active >= 0) choose(active);
    listOpen = false;
    renderOptions();
  } else if (ev.key === 'Escape' && listOpen) {
    ev.preventDefault();
    listOpen = false;
    active = -1;
    renderOptions();
  }
}

/** Sets the entry up as a combobox (on) or a plain text field (off). */
function setEntryRole() {
  const el = input();
  if (!el) return;
  const help = on ? 'entry-help blind-entry-help' : 'entry-help';
  el.setAttribute('aria-describedby', help);
  if (on) {
    el.setAttribute('role', 'combobox');
    el.setAttribute('aria-autocomplete', 'list');
    el.setAttribute('aria-controls', 'move-options');
    el.setAttribute('aria-expanded', 'false');
  } else {
    for (const a of ['role', 'aria-autocomplete', 'aria-controls', 'aria-expanded', 'aria-activedescendant']) el.removeAttribute(a);
  }
}

// ---------------------------------------------------------------- the mode

/** Says where stepping through the game has got to: the ply and its move. The text board
 * keeps showing the game as it is now, and says so. */
function sayPly() {
  const s = app.state;
  if (!s || app.ply === plySaid) return;
  const first = plySaid === undefined;
  plySaid = app.ply;
  if (first || app.ply === null) return;
  const where = app.ply === 0 ? t('nav.viewing-start') : t('nav.viewing', { ply: app.ply, total: s.moves.length });
  const move = app.ply > 0 ? s.moves[app.ply - 1] : '';
  announce([where, move ? `${iso(move)}.` : '', t('blind.board-now')].filter((x) => x).join(' '));
}

/** Shows the mode's parts: called by the panel's render. */
export function renderBlind() {
  const inGame = !!(app.id && app.state);
  // The start page keeps its drawing of the start position: there is no game to read yet.
  document.body.classList.toggle('blind', on && inGame);
  const btn = $('blind-btn');
  if (btn) btn.setAttribute('aria-pressed', String(on));
  const section = $('blind-board');
  if (section) section.hidden = !on || !inGame;
  const help = $('blind-entry-help');
  if (help) help.hidden = !on;
  const clocks = $('blind-clocks');
  if (clocks) clocks.hidden = !(app.state && app.state.clock);
  // The status line is said by the log in this mode (it would say every move twice).
  const status = $('status');
  if (status) status.setAttribute('aria-live', on ? 'off' : 'polite');
  const now = $('blind-now');
  if (now) now.hidden = app.ply === null;
  if (on && inGame) {
    renderTextBoard();
    sayPly();
  }
  renderOptions();
}

function store(/** @type {boolean} */ value) {
  try {
    if (value) localStorage.setItem(STORE, '1');
    else localStorage.removeItem(STORE);
  } catch {
    // no storage: the mode lasts as long as the page
  }
}

/** Turns the mode on or off, and remembers it. */
function setBlind(/** @type {boolean} */ value, /** @type {() => void} */ redraw) {
  on = value;
  store(on);
  setEntryRole();
  const box = $('blind-cells');
  if (box) delete box.dataset.key;
  redraw();
}

/** Reads both clocks aloud (the "Read the clocks" button). */
function sayClocks(/** @type {(side: Side) => string} */ face) {
  if (!app.state || !app.state.clock) return;
  announce(t('blind.clocks-now', { white: iso(face('white')), black: iso(face('black')) }));
}

/**
 * Sets the mode from the address (?blind=1 or 0) or the browser's memory, and
 * wires its controls.
 * @param {() => void} redraw
 * @param {(side: Side) => string} face a side's clock as shown
 */
export function initBlind(redraw, face) {
  // The address's word holds for this page only: the toggle's is the one remembered.
  const asked = new URLSearchParams(location.search).get('blind');
  if (asked === '1' || asked === '0') {
    on = asked === '1';
  } else {
    try {
      on = localStorage.getItem(STORE) === '1';
    } catch {
      on = false;
    }
  }
  setEntryRole();
  $('blind-btn').addEventListener('click', () => setBlind(!on, redraw));
  for (const radio of document.querySelectorAll('input[name="blind-by"]')) radio.addEventListener('change', redraw);
  $('blind-clocks').addEventListener('click', () => sayClocks(face));
  const el = input();
  el.addEventListener('keydown', onEntryKey);
  el.addEventListener('input', () => {
    listOpen = on && !!el.value.trim();
    active = -1;
    renderOptions();
  });
  el.addEventListener('blur', () => {
    listOpen = false;
    active = -1;
    renderOptions();
  });
  const list = $('move-options');
  // A click on an option plays it (the entry keeps the focus: mousedown is not let through).
  list.addEventListener('mousedown', (ev) => ev.preventDefault());
  list.addEventListener('click', (ev) => {
    const li = /** @type {HTMLElement} */ (ev.target).closest('[role="option"]');
    const i = li ? shown.findIndex((mv) => mv.move === /** @type {HTMLElement} */ (li).dataset.move) : -1;
    if (i >= 0 && choose(i)) /** @type {HTMLFormElement} */ ($('entry-form')).requestSubmit();
  });
}
