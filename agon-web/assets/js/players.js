// The player page (/@/{username}: ratings, the rating history as an SVG graph, the game
// list, filterable, each game opening at /g/{id}; for a signed-in visitor, a form that
// challenges the player, a bot included) and the leaderboard (/leaderboard). Both read
// the public API; only the challenge needs an account.

import { api, ApiError } from './api.js';
import { t, has } from './i18n.js';
import { onRedraw, rememberGame } from './state.js';
import { signedIn } from './account.js';
import { addMine, takeMine } from './lobby.js';

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
  $('challenge-title').textContent = t('player.challenge.title', { player: p.username });
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

// ---------------------------------------------------------------- challenge

/** The challenge this page sent, while it waits for an answer: its id and the seat token
 * the challenger holds in its game. */
const sent = { id: '', token: '' };
/** The seeks heard gone, by id: the stream's event may come before the answer to the
 * request that posted the challenge (a bot accepts at once).
 * @type {Map<string, {id: string, reason: string, game: string | null}>} */
const departed = new Map();
/** @type {Promise<unknown> | null} */
let listening = null;

/** Shows an error of the challenge, in the lobby's words when it has some. */
function challengeError(/** @type {unknown} */ e) {
  const box = $('challenge-error');
  const name = e instanceof ApiError ? e.name : 'unknown';
  const key = `lobby.error.${name}`;
  box.textContent = has(key) ? t(key) : t('account.error.unknown');
  box.hidden = false;
}

/** Whether a challenge waits: the send button off, the cancel one on. */
function waiting(/** @type {boolean} */ on) {
  /** @type {HTMLButtonElement} */ ($('challenge-send')).disabled = on;
  $('challenge-cancel').hidden = !on;
}

/** The challenge sent is gone: accepted (its game opens), declined, cancelled or expired. */
function answered(/** @type {{id: string, reason: string, game: string | null}} */ data) {
  const token = takeMine(data.id) || sent.token;
  sent.id = '';
  sent.token = '';
  waiting(false);
  const status = $('challenge-status');
  if (data.reason === 'accepted' && data.game) {
    status.textContent = t('lobby.starting');
    rememberGame(data.game, token, null);
    window.location.assign(`/g/${data.game}`);
  } else if (data.reason === 'declined') {
    status.textContent = t('lobby.declined');
  } else {
    status.textContent = t('player.challenge.gone');
  }
}

/** The lobby's stream, opened once: it tells when the challenge is answered, and keeps it
 * alive while the page is open. Settles once it has sent its first list. */
function listen() {
  if (listening) return listening;
  const source = new EventSource('/api/lobby/events');
  source.addEventListener('gone', (e) => {
    const data = JSON.parse(/** @type {MessageEvent} */ (e).data);
    departed.set(data.id, data);
    if (data.id === sent.id) answered(data);
  });
  listening = new Promise((resolve) => {
    source.addEventListener('seeks', () => resolve(undefined), { once: true });
  });
  return listening;
}

/** Sends the form's challenge to the page's player (the lobby's direct challenge). */
async function sendChallenge(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  $('challenge-error').hidden = true;
  $('challenge-status').textContent = '';
  const body = {
    username: view.username,
    control: /** @type {HTMLInputElement} */ ($('challenge-control')).value.trim(),
    rules: /** @type {HTMLInputElement} */ ($('challenge-rules')).value.trim() || 'standard',
    rated: /** @type {HTMLInputElement} */ ($('challenge-rated')).checked,
    colour: select('challenge-colour').value,
  };
  waiting(true);
  try {
    // Listening first (at most 5 s waited): an answer coming at once is heard.
    await Promise.race([listen(), new Promise((resolve) => setTimeout(resolve, 5000))]);
    const answer = await api('POST', '/api/lobby/challenges', body);
    sent.id = answer.seek.id;
    sent.token = answer.token;
    addMine(sent.id, sent.token);
    $('challenge-status').textContent = t('player.challenge.waiting', { player: view.username });
    const early = departed.get(sent.id);
    if (early) answered(early);
  } catch (e) {
    waiting(false);
    challengeError(e);
  }
}

async function cancelChallenge() {
  if (!sent.id) return;
  try {
    await api('POST', `/api/lobby/seeks/${sent.id}/cancel`);
  } catch (e) {
    challengeError(e);
  }
}

/** The challenge form, for a signed-in visitor on another player's page. */
async function offerChallenge() {
  const me = await signedIn();
  const p = view.player;
  if (!me || !p || me.toLowerCase() === p.username.toLowerCase()) return;
  $('challenge-bot').hidden = !p.bot;
  $('challenge-card').hidden = false;
  $('challenge-form').addEventListener('submit', (e) => sendChallenge(/** @type {SubmitEvent} */ (e)));
  $('challenge-cancel').addEventListener('click', cancelChallenge);
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
  offerChallenge();
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
