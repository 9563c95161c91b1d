// The lobby page (/lobby): quick pairing, posting a seek, the live list of seeks and
// challenges (the lobby's event stream), and the games being played now. A seek's poster
// keeps the seat token it got with the seek (in localStorage, never in an address, so
// that every tab of the browser has it): when the stream says the seek was accepted, the
// page opens the game with it. Which seeks are the viewer's the server says (`mine`: the
// same account, or the same browser's lobby cookie), so another browser signed in to the
// account sees them as its own too, and may cancel them.

import { api, ApiError } from './api.js';
import { t, has } from './i18n.js';
import { onRedraw, rememberGame } from './state.js';
import { signedIn } from './account.js';

/** @typedef {{id: string, player: string | null, account: boolean, bot: boolean, control: string,
 *   speed: string, rules: string, rated: boolean, colour: string, to: string | null,
 *   created_ms: number, mine: boolean, rating_min?: number | null, rating_max?: number | null}} Seek */

const MINE = 'agon-lobby-seeks';

/** @type {Map<string, Seek>} */
const seeks = new Map();
/** @type {{tv: string | null, games: {id: string, white: string | null, black: string | null,
 *   clock: string | null, rules: string, plies: number}[]}} */
let live = { tv: null, games: [] };

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @typedef {{token: string, at: number}} Held */

// A token of a seek no longer listed is dropped once this old: a younger one may belong
// to a seek posted in another tab after the list was read.
const FORGET_MS = 10 * 60 * 1000;

/** The seat tokens of this browser's own seeks (and when they came), by seek id.
 * @returns {Record<string, Held>} */
function mine() {
  try {
    return JSON.parse(localStorage.getItem(MINE) || '{}');
  } catch {
    return {};
  }
}

/** @param {Record<string, Held>} all */
function keepMine(all) {
  try {
    localStorage.setItem(MINE, JSON.stringify(all));
  } catch {
    // No storage: the seek still works until the page is left.
  }
}

/**
 * Keeps the seat token of this browser's seek `id`: every tab of the browser (a lobby, a
 * player page) then opens its game when it is accepted.
 * @param {string} id @param {string} token
 */
export function addMine(id, token) {
  const all = mine();
  all[id] = { token, at: Date.now() };
  keepMine(all);
}

/**
 * Takes back (and forgets) the seat token kept for seek `id`, if this browser still holds
 * it: the first tab to take it opens the game.
 * @param {string} id @returns {string | null}
 */
export function takeMine(id) {
  const all = mine();
  const token = all[id]?.token ?? null;
  if (token) {
    delete all[id];
    keepMine(all);
  }
  return token;
}

/** Shows an error of the API, in the page's language when it has words for it. */
function showError(/** @type {unknown} */ e) {
  const box = $('lobby-error');
  const name = e instanceof ApiError ? e.name : 'unknown';
  const key = `lobby.error.${name}`;
  box.textContent = has(key) ? t(key) : t('account.error.unknown');
  box.hidden = false;
}

function clearMessages() {
  $('lobby-error').hidden = true;
  $('lobby-status').textContent = '';
}

/** Opens game `id` with the seat `token` (the acceptor knows its `side`). */
function play(/** @type {string} */ id, /** @type {string} */ token, /** @type {any} */ side = null) {
  $('lobby-status').textContent = t('lobby.starting');
  rememberGame(id, token, side);
  window.location.assign(`/g/${id}`);
}

/** A time control as shown: isolated, since in a right-to-left line "10+5" would read "5+10". */
const controlText = (/** @type {string} */ c) => (c === 'correspondence' ? t('lobby.correspondence') : `\u2066${c}\u2069`);

/** A seek's terms: the control, the rules, rated or casual, the colour, and its rating range if any. */
function terms(/** @type {Seek} */ s) {
  const rated = s.rated ? t('lobby.rated-mark') : t('lobby.casual');
  const colour = t(`lobby.colour.${s.colour}`);
  const range = typeof s.rating_min === 'number' && typeof s.rating_max === 'number' ? ` · \u2066${s.rating_min}\u2013${s.rating_max}\u2069` : '';
  return `${controlText(s.control)} · \u2066${s.rules}\u2069 · ${rated} · ${colour}${range}`;
}

/** A bot's mark beside its name (the player page's word), seen and read. */
function botMark() {
  const mark = document.createElement('span');
  mark.className = 'bot-mark';
  mark.textContent = t('player.bot');
  return mark;
}

/** @param {string} text @param {() => void} action */
function button(text, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn btn-small';
  b.textContent = text;
  b.addEventListener('click', action);
  return b;
}

function render() {
  const own = mine();
  const open = $('seek-list');
  const challenges = $('challenge-list');
  open.replaceChildren();
  challenges.replaceChildren();
  for (const s of [...seeks.values()].sort((a, b) => a.created_ms - b.created_ms)) {
    const li = document.createElement('li');
    li.dataset.seek = s.id;
    const what = document.createElement('span');
    what.className = 'seek-what';
    const yours = s.mine || Object.prototype.hasOwnProperty.call(own, s.id);
    li.classList.toggle('mine', yours);
    const who = s.player || t('lobby.anonymous');
    if (s.to && yours) {
      what.append(`${t('lobby.challenge.to', { player: s.to })} · ${terms(s)}`);
    } else if (s.to) {
      what.append(t('lobby.challenge.from', { player: who }));
      if (s.bot) what.append(' ', botMark());
      what.append(` · ${terms(s)}`);
    } else {
      what.append(who);
      if (s.bot) what.append(' ', botMark());
      what.append(` · ${terms(s)}`);
      if (yours) what.append(` · ${t('lobby.mine')}`);
    }
    li.append(what);
    if (yours) {
      li.append(button(t('lobby.cancel'), () => removeSeek(s.id, 'cancel')));
    } else {
      li.append(button(t('lobby.accept'), () => accept(s.id)));
      if (s.to) li.append(button(t('lobby.decline'), () => removeSeek(s.id, 'decline')));
    }
    (s.to ? challenges : open).append(li);
  }
  $('seeks-empty').hidden = open.childElementCount > 0;
  const list = $('live-list');
  list.replaceChildren();
  for (const g of live.games) {
    const li = document.createElement('li');
    const what = document.createElement('span');
    what.className = 'seek-what';
    const names = t('lobby.vs', {
      white: g.white || t('lobby.anonymous'),
      black: g.black || t('lobby.anonymous'),
    });
    const clock = g.clock ? `\u2066${g.clock}\u2069` : t('lobby.correspondence');
    what.textContent = `${names} · ${clock} · \u2066${g.rules}\u2069`;
    const a = document.createElement('a');
    a.className = 'btn btn-small';
    a.href = `/g/${g.id}`;
    a.textContent = t('lobby.watch');
    li.append(what, a);
    list.append(li);
  }
  $('live-empty').hidden = live.games.length > 0;
  const tv = /** @type {HTMLAnchorElement} */ ($('tv-link'));
  tv.hidden = !live.tv;
  if (live.tv) tv.href = `/g/${live.tv}`;
}

async function accept(/** @type {string} */ id) {
  clearMessages();
  try {
    const started = await api('POST', `/api/lobby/seeks/${id}/accept`, {});
    play(started.game, started.token, started.side);
  } catch (e) {
    showError(e);
  }
}

async function removeSeek(/** @type {string} */ id, /** @type {string} */ how) {
  clearMessages();
  try {
    await api('POST', `/api/lobby/seeks/${id}/${how}`);
  } catch (e) {
    showError(e);
  }
}

/** The seeks heard gone, by id: the stream's event may come before the answer to the
 * request that posted the seek (they travel apart).
 * @type {Map<string, {id: string, reason: string, game: string | null}>} */
const departed = new Map();

/** @param {{seek: Seek, token: string}} answer */
function posted(answer) {
  addMine(answer.seek.id, answer.token);
  const left = departed.get(answer.seek.id);
  if (left) {
    gone(left);
    return;
  }
  seeks.set(answer.seek.id, answer.seek);
  const s = answer.seek;
  const rated = s.rated ? t('lobby.rated-mark') : t('lobby.casual');
  $('lobby-status').textContent = t('lobby.waiting', { control: `${controlText(s.control)} · ${rated}` });
  render();
}

/** @type {() => void} */
let heard = () => {};
/** Settled when the lobby's stream has sent its first list: every event after it reaches
 * the page. */
const listening = new Promise((resolve) => {
  heard = () => resolve(undefined);
});

/**
 * Posts to the lobby once its stream listens (at most 5 s waited: a stream refused still
 * lets the player post): a seek accepted before the stream's first list would otherwise
 * leave it without its `gone` event, and the poster outside the game.
 * @param {string} path @param {object} body
 */
async function postWhenListening(path, body) {
  await Promise.race([listening, new Promise((resolve) => setTimeout(resolve, 5000))]);
  return api('POST', path, body);
}

async function quick(/** @type {HTMLButtonElement} */ b) {
  clearMessages();
  // Rated for accounts unless they untick it (as lichess pairs them); guests casual.
  const rated = !input('quick-rated').disabled && input('quick-rated').checked;
  try {
    const answer = await postWhenListening('/api/lobby/quick', { control: b.dataset.control, rated });
    if (answer.status === 'started') play(answer.game, answer.token, answer.side);
    else posted(answer);
  } catch (e) {
    showError(e);
  }
}

async function postSeek(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  clearMessages();
  const colour = /** @type {HTMLSelectElement} */ (document.getElementById('seek-colour')).value;
  // The form offers ranges as wide below as above; the API takes any -500..0 and 0..+500.
  const range = /** @type {HTMLSelectElement} */ (document.getElementById('seek-range')).value;
  const body = {
    control: input('seek-control').value.trim(),
    rules: input('seek-rules').value.trim() || 'standard',
    rated: input('seek-rated').checked,
    colour,
    rating_range: range ? { min: -Number(range), max: Number(range) } : null,
  };
  try {
    posted(await postWhenListening('/api/lobby/seeks', body));
  } catch (e) {
    showError(e);
  }
}

async function challenge(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  clearMessages();
  const colour = /** @type {HTMLSelectElement} */ (document.getElementById('challenge-colour')).value;
  const body = {
    username: input('challenge-username').value.trim(),
    control: input('challenge-control').value.trim(),
    rules: input('challenge-rules').value.trim() || 'standard',
    rated: input('challenge-rated').checked,
    colour,
  };
  try {
    posted(await postWhenListening('/api/lobby/challenges', body));
  } catch (e) {
    showError(e);
  }
}

/** A seek that left the list: the viewer's own, accepted, opens its game where its seat's
 * token is (this browser's tabs), and is said elsewhere. */
function gone(/** @type {{id: string, reason: string, game: string | null}} */ data) {
  departed.set(data.id, data);
  const yours = seeks.get(data.id)?.mine;
  seeks.delete(data.id);
  const token = takeMine(data.id);
  if (token) {
    if (data.reason === 'accepted' && data.game) {
      play(data.game, token);
      return;
    }
  }
  if (token || yours) {
    if (data.reason === 'declined') $('lobby-status').textContent = t('lobby.declined');
    if (data.reason === 'accepted') $('lobby-status').textContent = t('lobby.accepted-elsewhere');
  }
  render();
}

/** The lobby's event stream; EventSource reconnects by itself (with Last-Event-ID). */
function listen() {
  const source = new EventSource('/api/lobby/events');
  source.addEventListener('seeks', (e) => {
    const data = JSON.parse(/** @type {MessageEvent} */ (e).data);
    seeks.clear();
    for (const s of data.seeks) seeks.set(s.id, s);
    // The tokens of seeks gone while no page listened (the tab closed) are forgotten.
    const own = mine();
    const old = Object.keys(own).filter((id) => !seeks.has(id) && Date.now() - own[id].at > FORGET_MS);
    for (const id of old) delete own[id];
    if (old.length) keepMine(own);
    render();
    heard();
  });
  source.addEventListener('seek', (e) => {
    const data = JSON.parse(/** @type {MessageEvent} */ (e).data);
    seeks.set(data.seek.id, data.seek);
    render();
  });
  source.addEventListener('gone', (e) => gone(JSON.parse(/** @type {MessageEvent} */ (e).data)));
}

async function refreshLive() {
  try {
    live = await api('GET', '/api/tv');
    render();
  } catch {
    // Shown again at the next refresh.
  }
}

/** Quick pairing's "Rated": on for a signed-in player, off (and said why) for a guest. */
async function showRated() {
  const account = await signedIn();
  const box = input('quick-rated');
  box.disabled = !account;
  box.checked = Boolean(account);
  $('quick-guest').hidden = Boolean(account);
  // A rating range is around the poster's rating: a guest has none.
  const range = /** @type {HTMLSelectElement} */ (document.getElementById('seek-range'));
  range.disabled = !account;
  if (!account) range.value = '';
}

/** The lobby page. */
export function initLobbyPage() {
  onRedraw(render);
  showRated();
  for (const b of document.querySelectorAll('#quick-buttons button')) {
    b.addEventListener('click', () => quick(/** @type {HTMLButtonElement} */ (b)));
  }
  $('seek-form').addEventListener('submit', (e) => postSeek(/** @type {SubmitEvent} */ (e)));
  $('challenge-form').addEventListener('submit', (e) => challenge(/** @type {SubmitEvent} */ (e)));
  listen();
  refreshLive();
  setInterval(refreshLive, 15000);
}
