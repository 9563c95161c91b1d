// The player page (/@/{username}: ratings, the rating history as an SVG graph, the game
// list, filterable, each game opening at /g/{id}) and the leaderboard (/leaderboard).
// Both read the public API; nothing here needs an account.

import { api, ApiError } from './api.js';
import { t } from './i18n.js';
import { onRedraw } from './state.js';

const SPEEDS = ['ultrabullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'];
const SVG = 'http://www.w3.org/2000/svg';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const select = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));

/**
 * A rating as shown: rounded, with a `?` while provisional, isolated left to right (the
 * `?` stays after the figure in a right-to-left page).
 * @param {{rating: number, provisional: boolean}} r
 */
const shown = (r) => `\u2066${r.rating}${r.provisional ? '?' : ''}\u2069`;

/** A date in the page's language. @param {number} ms */
const day = (ms) => new Date(ms).toLocaleDateString(document.documentElement.lang || undefined);

/**
 * Fills a speed select: every speed (and "any" first when `any`), keeping its value.
 * @param {HTMLSelectElement} el @param {boolean} any
 */
function speedOptions(el, any) {
  const value = el.value;
  el.replaceChildren();
  if (any) el.append(new Option(t('player.any'), ''));
  for (const speed of SPEEDS) el.append(new Option(t(`speed.${speed}`), speed));
  if (value) el.value = value;
}

/** The message of a failed request. @param {unknown} e */
function failure(e) {
  if (e instanceof ApiError && e.name === 'unknown-player') return t('player.unknown');
  return t('player.failed');
}

// ---------------------------------------------------------------- player page

/** @type {{username: string, player: any, games: any[], page: number, history: any[]}} */
const view = { username: '', player: null, games: [], page: 0, history: [] };

/**
 * The rating history drawn as an SVG line: the rating after each game, its range padded,
 * the first and last figures labelled. Drawn left to right in every language (a time
 * axis), so it is kept out of the page's direction.
 * @param {{rating: number, at_ms: number}[]} points
 * @returns {SVGSVGElement}
 */
export function historyGraph(points) {
  const [w, h, pad] = [600, 200, 30];
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('class', 'history-svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('dir', 'ltr');
  const ratings = points.map((p) => p.rating);
  const low = Math.min(...ratings) - 20;
  const high = Math.max(...ratings) + 20;
  const x = (/** @type {number} */ i) => pad + (points.length < 2 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (/** @type {number} */ r) => h - pad - ((r - low) * (h - 2 * pad)) / (high - low);
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' '));
  line.setAttribute('class', 'history-line');
  svg.append(line);
  points.forEach((p, i) => {
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', x(i).toFixed(1));
    dot.setAttribute('cy', y(p.rating).toFixed(1));
    dot.setAttribute('r', '3');
    dot.setAttribute('class', 'history-dot');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${p.rating} · ${day(p.at_ms)}`;
    dot.append(title);
    svg.append(dot);
  });
  for (const [r, at] of [[high - 20, pad - 8], [low + 20, h - pad + 18]]) {
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', '2');
    label.setAttribute('y', String(at));
    label.setAttribute('class', 'history-label');
    label.textContent = String(Math.round(r));
    svg.append(label);
  }
  svg.setAttribute('aria-label', t('player.history-label', {
    count: points.length,
    first: points[0].rating,
    last: points[points.length - 1].rating,
  }));
  return svg;
}

function renderPlayer() {
  const p = view.player;
  if (!p) return;
  $('player-name').textContent = p.username + (p.bot ? ` (${t('player.bot')})` : '');
  document.title = `${p.username} · ${t('app.name')}`;
  $('player-counts').textContent = t('player.counts', p.counts);
  const list = $('rating-list');
  list.replaceChildren(...p.ratings.map((/** @type {any} */ r) => {
    const li = document.createElement('li');
    const rating = document.createElement('strong');
    rating.textContent = shown(r);
    rating.setAttribute('dir', 'ltr');
    li.append(`${t(`speed.${r.speed}`)}: `, rating, ` · ${t('player.rated-games', { count: r.games })}`);
    return li;
  }));
  $('no-ratings').hidden = p.ratings.length > 0;
  speedOptions(select('filter-speed'), true);
  speedOptions(select('history-speed'), false);
  renderHistory();
  renderGames();
}

function renderHistory() {
  const box = $('history-graph');
  if (view.history.length === 0) {
    const p = document.createElement('p');
    p.textContent = t('player.no-history');
    box.replaceChildren(p);
  } else {
    box.replaceChildren(historyGraph(view.history));
  }
}

/** The opponent of a game as the list shows it. @param {any} g */
function opponent(g) {
  if (g.computer) return document.createTextNode(t('player.computer'));
  if (g.opponent_deleted) return document.createTextNode(t('player.deleted'));
  if (g.opponent) {
    const a = document.createElement('a');
    a.href = `/@/${encodeURIComponent(g.opponent)}`;
    a.textContent = g.opponent;
    a.setAttribute('dir', 'ltr');
    return a;
  }
  return document.createTextNode(g.opponent_name || t('player.guest'));
}

function renderGames() {
  const rows = view.games.map((g) => {
    const tr = document.createElement('tr');
    const cells = [0, 1, 2, 3, 4].map(() => document.createElement('td'));
    cells[0].append(opponent(g));
    cells[1].textContent = `${t(`speed.${g.speed}`)}${g.rated ? '' : ` · ${t('player.casual')}`}`;
    const link = document.createElement('a');
    link.href = `/g/${g.id}`;
    link.textContent = g.outcome ? t(`player.${g.outcome}`) : t('player.playing');
    cells[2].append(link);
    if (g.rating_after !== null) {
      const diff = g.rating_after - g.rating_before;
      cells[3].textContent = `${g.rating_after} (${diff >= 0 ? '+' : '−'}${Math.abs(diff)})`;
      cells[3].setAttribute('dir', 'ltr');
    }
    cells[4].textContent = day(g.at_ms);
    tr.append(...cells);
    return tr;
  });
  $('games-list').replaceChildren(...rows);
  $('no-games').hidden = rows.length > 0;
  /** @type {HTMLButtonElement} */ ($('games-prev')).disabled = view.page === 0;
  /** @type {HTMLButtonElement} */ ($('games-next')).disabled = view.games.length < 20;
}

function showError(/** @type {string} */ id, /** @type {unknown} */ e) {
  const el = $(id);
  el.textContent = failure(e);
  el.hidden = false;
}

async function loadGames() {
  const q = new URLSearchParams();
  const speed = select('filter-speed').value;
  const result = select('filter-result').value;
  if (speed) q.set('speed', speed);
  if (result) q.set('result', result);
  q.set('page', String(view.page));
  try {
    const answer = await api('GET', `/api/players/${encodeURIComponent(view.username)}/games?${q}`);
    view.games = answer.games;
    renderGames();
  } catch (e) {
    showError('player-error', e);
  }
}

async function loadHistory() {
  const speed = select('history-speed').value;
  try {
    const answer = await api('GET', `/api/players/${encodeURIComponent(view.username)}/ratings/${speed}/history`);
    view.history = answer.points;
    renderHistory();
  } catch (e) {
    showError('player-error', e);
  }
}

/** The player page: the name from the address (/@/{username}). */
export async function initPlayerPage() {
  view.username = decodeURIComponent(location.pathname.replace(/^\/@\//, ''));
  onRedraw(renderPlayer);
  try {
    view.player = await api('GET', `/api/players/${encodeURIComponent(view.username)}`);
  } catch (e) {
    showError('player-error', e);
    // No player (or no answer): no empty cards under the message.
    for (const section of document.querySelectorAll('#player > section')) {
      /** @type {HTMLElement} */ (section).hidden = true;
    }
    return;
  }
  view.username = view.player.username;
  speedOptions(select('history-speed'), false);
  // The graph opens on the speed played most.
  const most = [...view.player.ratings].sort((a, b) => b.games - a.games)[0];
  if (most) select('history-speed').value = most.speed;
  renderPlayer();
  select('history-speed').addEventListener('change', loadHistory);
  const refilter = () => {
    view.page = 0;
    loadGames();
  };
  select('filter-speed').addEventListener('change', refilter);
  select('filter-result').addEventListener('change', refilter);
  $('games-prev').addEventListener('click', () => {
    view.page = Math.max(0, view.page - 1);
    loadGames();
  });
  $('games-next').addEventListener('click', () => {
    view.page += 1;
    loadGames();
  });
  await Promise.all([loadGames(), loadHistory()]);
}

// ---------------------------------------------------------------- leaderboard

/** @type {any[]} */
let leaders = [];

function renderLeaders() {
  speedOptions(select('leaderboard-speed'), false);
  const rows = leaders.map((l) => {
    const tr = document.createElement('tr');
    const cells = [0, 1, 2, 3].map(() => document.createElement('td'));
    cells[0].textContent = String(l.rank);
    const a = document.createElement('a');
    a.href = `/@/${encodeURIComponent(l.username)}`;
    a.textContent = l.username;
    a.setAttribute('dir', 'ltr');
    cells[1].append(a);
    cells[2].textContent = shown(l);
    cells[3].textContent = String(l.games);
    tr.append(...cells);
    return tr;
  });
  $('leaderboard-list').replaceChildren(...rows);
  $('leaderboard-empty').hidden = rows.length > 0;
}

async function loadLeaders() {
  const speed = select('leaderboard-speed').value;
  history.replaceState(null, '', `/leaderboard?speed=${speed}`);
  try {
    leaders = (await api('GET', `/api/leaderboard/${speed}`)).players;
    $('leaderboard-error').hidden = true;
  } catch (e) {
    leaders = [];
    showError('leaderboard-error', e);
  }
  renderLeaders();
}

/** The leaderboard page: one speed at a time (?speed=, blitz by default). */
export async function initLeaderboardPage() {
  onRedraw(renderLeaders);
  const el = select('leaderboard-speed');
  speedOptions(el, false);
  const asked = new URLSearchParams(location.search).get('speed');
  el.value = asked && SPEEDS.includes(asked) ? asked : 'blitz';
  el.addEventListener('change', loadLeaders);
  await loadLeaders();
}
