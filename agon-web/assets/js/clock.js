// The game clocks: the server's figures (remaining times as of its answer) counted down
// on the page for the side whose time runs, redrawn a few times a second. The server ends
// the game when a time reaches zero and says so in a state event; the page only shows.

import { app } from './state.js';
import { clockTick } from './blind.js';

/** @typedef {import('./state.js').Clock} Clock */
/** @typedef {import('./state.js').Side} Side */

const LOW_MS = 20_000;
const TICK_MS = 100;

/** @type {ReturnType<typeof setInterval> | null} */
let ticker = null;

/** The remaining time of `side` now, in ms (never below 0). */
export function remaining(/** @type {Clock} */ clock, /** @type {Side} */ side) {
  const base = side === 'white' ? clock.white_ms : clock.black_ms;
  if (clock.running !== side || (app.state && app.state.outcome)) return Math.max(0, base);
  return Math.max(0, base - (performance.now() - app.clockAt));
}

/** Whether `ms` is low time: under 20 s, or under a tenth of the starting time. */
export function isLow(/** @type {Clock} */ clock, /** @type {number} */ ms) {
  return ms < LOW_MS || ms < clock.initial_ms / 10;
}

/** A time for the clock face: 4:05, 1:02:03, and tenths under ten seconds (0:07.3). */
export function formatTime(/** @type {number} */ ms) {
  if (ms < 10_000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A time control for people: "5+3", as chosen at "New game" (the server names it). */
export function controlText(/** @type {Clock} */ clock) {
  return clock.control;
}

/**
 * Shows both clocks (the elements with data-clock="white|black"), and keeps them ticking
 * while one runs.
 */
export function renderClocks() {
  const s = app.state;
  const clock = s && s.clock;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-clock]'))) {
    const side = /** @type {Side} */ (el.dataset.clock);
    if (!clock) {
      el.hidden = true;
      continue;
    }
    el.hidden = false;
    const ms = remaining(clock, side);
    const face = formatTime(ms);
    const time = /** @type {HTMLElement} */ (el.querySelector('.clock-time') || el);
    if (time.textContent !== face) time.textContent = face;
    const running = clock.running === side && !(s && s.outcome);
    el.classList.toggle('running', running);
    el.classList.toggle('low', isLow(clock, ms));
    el.classList.toggle('flagged', ms <= 0);
    clockTick(side, ms);
  }
  const ticking = !!(clock && clock.running && s && !s.outcome);
  if (ticking && !ticker) ticker = setInterval(renderClocks, TICK_MS);
  if (!ticking && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}
