// The board: the server's SVG drawing (agon-svg) put into the page, and the marks the
// page draws over it (selection, destinations, returns, the hint, the focus ring).

import { app, canPremove, interactive, legalFrom, mySide } from './state.js';
import { t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const DECOR = ['selected', 'target', 'movable', 'returnable', 'own'];

/** @type {Set<Element>} the cells and pieces made focusable by the last decorate() */
const focusable = new Set();

/** The board's container. */
export const board = () => /** @type {HTMLElement} */ (document.getElementById('board'));

/** Lets a drawing fill its container: the size comes from the style sheet. */
export function fitSvg(/** @type {Element | null} */ svg) {
  if (!svg) return;
  svg.removeAttribute('width');
  svg.removeAttribute('height');
}

/**
 * Shows a drawing on the board, unless it already shows `key`.
 * @param {string} svgText
 * @param {string} [key]
 */
export function setBoard(svgText, key) {
  const el = board();
  if (!el) return;
  if (key && key === app.boardKey) return;
  const hadFocus = el.contains(document.activeElement);
  if (hadFocus && !app.refocus) app.refocus = 'board';
  showSvg(el, svgText);
  app.boardKey = key || null;
  decorate();
}

/**
 * Puts a drawing into a container, fitted, its own title and label taken off: the
 * container carries a translated label instead, and the focusable pieces and cells
 * their names (the game page and the analysis board).
 * @param {HTMLElement} el
 * @param {string} svgText
 */
export function showSvg(el, svgText) {
  el.innerHTML = svgText;
  const svg = el.querySelector('svg');
  if (svg) {
    fitSvg(svg);
    const title = svg.querySelector(':scope > title');
    if (title) title.remove();
    svg.removeAttribute('role');
    svg.removeAttribute('aria-label');
    for (const text of svg.querySelectorAll('text')) text.setAttribute('aria-hidden', 'true');
  }
}

/** @returns {SVGPolygonElement | null} */
export function cellPolygon(/** @type {string} */ cell) {
  return board().querySelector(`polygon.cell[data-cell="${cell}"]`);
}

/** @param {Element} poly */
export function cellCentre(poly) {
  const nums = (poly.getAttribute('points') || '').trim().split(/[\s,]+/).map(Number);
  let x = 0;
  let y = 0;
  const n = nums.length / 2;
  for (let i = 0; i < nums.length; i += 2) {
    x += nums[i];
    y += nums[i + 1];
  }
  return { x: x / n, y: y / n };
}

/** The group of the page's own marks, drawn over the pieces. */
export function marksGroup(/** @type {SVGSVGElement} */ svg) {
  let g = svg.querySelector('g.ui-marks');
  if (!g) {
    g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('class', 'ui-marks');
    svg.appendChild(g);
  }
  return g;
}

/** @param {Element} g @param {Element} poly @param {string} cls */
export function addOutline(g, poly, cls) {
  const p = document.createElementNS(SVG_NS, 'polygon');
  p.setAttribute('points', poly.getAttribute('points') || '');
  p.setAttribute('class', cls);
  g.appendChild(p);
  return p;
}

/**
 * Adds an element to the marks: a destination's dot or the hint's arrow.
 * @param {Element} g
 * @param {string} tag 'circle' or 'line'
 * @param {Record<string, string>} attrs
 */
export function addMark(g, tag, attrs) {
  const mark = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) mark.setAttribute(name, value);
  g.appendChild(mark);
}

/** @param {Element} el @param {string} cell */
export function makeFocusable(el, cell) {
  focusable.add(el);
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', t('a11y.cell', { cell }));
}

/** Marks what the person can do on the board now. */
export function decorate() {
  const el = board();
  const svg = el && el.querySelector('svg');
  if (!svg) return;
  for (const node of svg.querySelectorAll('[data-cell]')) node.classList.remove(...DECOR);
  // The focusable cells are only made unfocusable at the end, if they stay so: taking the
  // tabindex off the focused piece would drop the keyboard's focus on every redraw.
  focusable.clear();
  try {
    decorateBoard(el, svg);
  } finally {
    for (const node of svg.querySelectorAll('[tabindex]')) {
      if (focusable.has(node)) continue;
      node.removeAttribute('tabindex');
      node.removeAttribute('role');
      node.removeAttribute('aria-label');
    }
  }
  const focused = /** @type {HTMLElement | SVGElement | null} */ (document.activeElement);
  if (focused && el.contains(focused) && focused.dataset && focused.dataset.cell && isFocusVisible(focused)) {
    showFocusRing(focused.dataset.cell);
  }
}

/** @param {HTMLElement} el @param {SVGSVGElement} svg */
function decorateBoard(el, svg) {
  const marks = marksGroup(svg);
  marks.textContent = '';
  el.classList.toggle('interactive', interactive() || canPremove());
  el.classList.toggle('readonly', !!(app.state && !app.token));
  if (canPremove()) {
    decoratePremove(svg, marks);
    return;
  }
  if (!interactive() || !app.state) return;

  const map = legalFrom();
  const mustReturn = !!app.state.must_return;
  const moveClass = mustReturn ? 'returnable' : 'movable';
  const human = mySide();

  if (!mustReturn) {
    for (const g of svg.querySelectorAll(`g.piece.${human}[data-cell]`)) {
      if (!g.classList.contains('captured')) g.classList.add('own');
    }
  }
  for (const from of map.keys()) {
    for (const node of svg.querySelectorAll(`[data-cell="${from}"]`)) node.classList.add(moveClass);
    const piece = svg.querySelector(`g.piece[data-cell="${from}"]`) || cellPolygon(from);
    if (piece) makeFocusable(piece, from);
  }
  if (mustReturn) {
    for (const from of map.keys()) {
      const poly = cellPolygon(from);
      if (poly) addOutline(marks, poly, 'mark-returnable');
    }
  }
  if (app.hint && app.hint.from && app.hint.to) {
    const from = cellPolygon(app.hint.from);
    const to = cellPolygon(app.hint.to);
    if (from) addOutline(marks, from, 'mark-hint');
    if (to) addOutline(marks, to, 'mark-hint mark-hint-to');
    if (from && to && app.hint.from !== app.hint.to) addArrow(marks, from, to, 'mark-hint-arrow');
  }
  if (app.selected) {
    for (const node of svg.querySelectorAll(`[data-cell="${app.selected}"]`)) node.classList.add('selected');
    const spoly = cellPolygon(app.selected);
    if (spoly) addOutline(marks, spoly, 'mark-selected');
    for (const mv of map.get(app.selected) || []) {
      if (!mv.to) continue;
      const poly = cellPolygon(mv.to);
      if (!poly) continue;
      for (const node of svg.querySelectorAll(`[data-cell="${mv.to}"]`)) node.classList.add('target');
      addOutline(marks, poly, 'mark-target');
      const c = cellCentre(poly);
      addMark(marks, 'circle', { cx: c.x.toFixed(2), cy: c.y.toFixed(2), r: '5.5', class: 'mark-dot' });
      makeFocusable(poly, mv.to);
    }
  }
}

/**
 * While the opponent thinks: one's own pieces can be picked, any cell chosen, and the
 * queued premove is drawn (its cells and an arrow).
 * @param {SVGSVGElement} svg @param {Element} marks
 */
function decoratePremove(svg, marks) {
  const human = mySide();
  for (const g of svg.querySelectorAll(`g.piece.${human}[data-cell]`)) {
    if (g.classList.contains('captured')) continue;
    g.classList.add('own');
    makeFocusable(g, /** @type {HTMLElement} */ (/** @type {unknown} */ (g)).dataset.cell || '');
  }
  if (app.selected) {
    const spoly = cellPolygon(app.selected);
    if (spoly) addOutline(marks, spoly, 'mark-selected');
    for (const poly of svg.querySelectorAll('polygon.cell[data-cell]')) {
      const cell = /** @type {HTMLElement} */ (/** @type {unknown} */ (poly)).dataset.cell || '';
      if (cell !== app.selected) makeFocusable(poly, cell);
    }
  }
  const pm = app.premove;
  if (!pm) return;
  const from = cellPolygon(pm.from);
  const to = cellPolygon(pm.to);
  if (from) addOutline(marks, from, 'mark-premove');
  if (to) addOutline(marks, to, 'mark-premove mark-premove-to');
  if (from && to && pm.from !== pm.to) addArrow(marks, from, to, 'mark-premove-arrow');
}

/**
 * Adds an arrow (a line) from the centre of one cell to another's: the hint's, a premove's.
 * @param {Element} g @param {Element} from @param {Element} to @param {string} cls
 */
export function addArrow(g, from, to, cls) {
  const a = cellCentre(from);
  const b = cellCentre(to);
  addMark(g, 'line', {
    x1: a.x.toFixed(2),
    y1: a.y.toFixed(2),
    x2: b.x.toFixed(2),
    y2: b.y.toFixed(2),
    class: cls,
  });
}

/** Whether the browser shows the focus of `node` (keyboard, not mouse). */
export function isFocusVisible(/** @type {Element} */ node) {
  try {
    return node.matches(':focus-visible');
  } catch {
    return true;
  }
}

/** Rings the focused cell (the drawing's own outline does not show on SVG shapes). */
export function showFocusRing(/** @type {string | null | undefined} */ cell) {
  const svg = board().querySelector('svg');
  if (!svg) return;
  for (const old of svg.querySelectorAll('.mark-focus')) old.remove();
  if (!cell) return;
  const poly = cellPolygon(cell);
  if (poly) addOutline(marksGroup(svg), poly, 'mark-focus');
}

/** Whether the person asked for less motion. */
const reducedMotion = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Slides the piece now on `to` from `from` (a short CSS transform of its group, in the
 * drawing's units), unless the person prefers reduced motion.
 * @param {string} from
 * @param {string} to
 */
export function animateMove(from, to) {
  if (reducedMotion() || from === to) return;
  const piece = /** @type {SVGGElement | null} */ (board().querySelector(`g.piece[data-cell="${to}"]`));
  const a = cellPolygon(from);
  const b = cellPolygon(to);
  if (!piece || !a || !b || typeof piece.animate !== 'function') return;
  const p = cellCentre(a);
  const q = cellCentre(b);
  const dx = (p.x - q.x).toFixed(2);
  const dy = (p.y - q.y).toFixed(2);
  piece.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0px, 0px)' }],
    { duration: 160, easing: 'cubic-bezier(0.2, 0.7, 0.3, 1)' },
  );
}
