// Live updates: one EventSource on /api/games/{id}/events for the game shown. A `state`
// event carries the whole state with its version, a `change` event what changed since the
// version before (change.js); the caller applies a state only when its version is newer
// than the one shown, a change only to its base version (else it asks for the state), and
// asks for the state again whenever the stream (re)connects, so that nothing is shown
// twice and nothing is lost across a dropped connection or a restarted server.
//
// While the stream is down (dropped, or refused from the start, as past a server's cap
// of streams per address behind a school's NAT), the page asks for the state itself
// instead, until the stream is back: every 3 s, or 2 s while a clock runs (a move seen
// late costs its player time on the clock), each wait half as long again as the last
// after an answer that brings nothing new, up to 15 s; after a failed request twice as
// long (up to 60 s, and at least the server's Retry-After). Each wait is jittered by ±20% so that the
// pages behind one address do not ask in step, and nothing is asked while the tab is
// hidden. A page that has the game open then costs a server one state request every few
// seconds: the price of a stream it could not have.

/** @typedef {import('./state.js').GameState} GameState */
/** @typedef {import('./change.js').GameChange} GameChange */

/**
 * @typedef {{
 *   onState: (state: GameState) => void,
 *   onChange: (change: GameChange) => void,
 *   onPresence: (presence: {white: boolean, black: boolean}) => void,
 *   onOpen: () => void,
 *   onDown: () => void,
 *   poll: () => Promise<boolean>,
 *   urgent: () => boolean,
 * }} LiveHandlers
 * `poll` asks for the state and shows it, resolving whether it brought something new
 * (rejecting with the ApiError of a failed request); `urgent` says whether a clock runs.
 */

const MAX_BACKOFF_MS = 8000;

const POLL_MS = 3000;
const POLL_URGENT_MS = 2000;
const POLL_MAX_MS = 15000;
const POLL_FAILED_MAX_MS = 60000;

/** @type {EventSource | null} */
let source = null;
/** @type {ReturnType<typeof setTimeout> | null} */
let pollTimer = null;
let polling = false; // the stream is down: the state is asked for meanwhile
let pollWait = POLL_MS;
let pollBusy = false;
/** @type {ReturnType<typeof setTimeout> | null} */
let retryTimer = null;
let backoff = 500;
/** @type {(() => string) | null} builds the stream's address (with the version shown now) */
let addressOf = null;
/** @type {LiveHandlers | null} */
let handlers = null;
let wired = false;

/**
 * Follows a game: opens its stream, and reopens it whenever it fails for good (EventSource
 * retries a dropped connection by itself, sending Last-Event-ID, but gives up on an
 * answer that is not a stream, such as a 503 while the server restarts).
 * @param {() => string} address the stream's URL, asked again at each reconnect
 * @param {LiveHandlers} on
 */
export function follow(address, on) {
  stop();
  addressOf = address;
  handlers = on;
  backoff = 500;
  wireOnce();
  connect();
}

/** Stops following (another game, or the start page). */
export function stop() {
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  if (source) source.close();
  source = null;
  stopPolling();
  addressOf = null;
  handlers = null;
}

function connect() {
  if (!addressOf || !handlers) return;
  const on = handlers;
  const es = new EventSource(addressOf());
  source = es;
  es.addEventListener('open', () => {
    if (source !== es) return;
    backoff = 500;
    stopPolling();
    on.onOpen();
  });
  es.addEventListener('state', (ev) => {
    if (source !== es) return;
    let state;
    try {
      state = JSON.parse(/** @type {MessageEvent} */ (ev).data);
    } catch {
      return;
    }
    if (state && typeof state === 'object') on.onState(state);
  });
  es.addEventListener('change', (ev) => {
    if (source !== es) return;
    let change;
    try {
      change = JSON.parse(/** @type {MessageEvent} */ (ev).data);
    } catch {
      return;
    }
    if (change && typeof change === 'object') on.onChange(change);
  });
  es.addEventListener('presence', (ev) => {
    if (source !== es) return;
    try {
      const p = JSON.parse(/** @type {MessageEvent} */ (ev).data);
      if (p && typeof p.white === 'boolean' && typeof p.black === 'boolean') on.onPresence(p);
    } catch {
      // ignore a malformed event
    }
  });
  es.addEventListener('error', () => {
    if (source !== es) return;
    on.onDown();
    startPolling();
    if (es.readyState === EventSource.CLOSED) scheduleReconnect();
  });
}

/** A wait of about `ms`: ±20%, so that pages behind one address spread out. */
const jitter = (/** @type {number} */ ms) => Math.round(ms * (0.8 + 0.4 * Math.random()));

/** The stream is down: ask for the state now and then until it is back. */
function startPolling() {
  if (polling) return;
  polling = true;
  pollWait = POLL_MS;
  // The first ask comes after a wait: a stream that merely dropped is usually back
  // sooner (EventSource retries within seconds), and then it asks for the state itself.
  schedulePoll(jitter(POLL_MS));
}

function stopPolling() {
  polling = false;
  if (pollTimer) clearTimeout(pollTimer);
  pollTimer = null;
}

function schedulePoll(/** @type {number} */ ms) {
  if (pollTimer) clearTimeout(pollTimer);
  pollTimer = null;
  // A hidden tab asks nothing; coming back to it asks at once (see wireOnce).
  if (!polling || document.hidden) return;
  pollTimer = setTimeout(pollNow, ms);
}

async function pollNow() {
  pollTimer = null;
  const on = handlers;
  if (!polling || !on || pollBusy) return;
  pollBusy = true;
  try {
    const fresh = await on.poll();
    if (on !== handlers) return;
    // Something happened: the next may follow soon. Nothing: ask less and less often.
    pollWait = fresh ? POLL_MS : Math.min(POLL_MAX_MS, Math.round(pollWait * 1.5));
    if (on.urgent()) pollWait = POLL_URGENT_MS;
  } catch (e) {
    if (on !== handlers) return;
    const after = e && typeof e === 'object' && 'retryAfter' in e ? String(e.retryAfter || '') : '';
    const retryAfter = parseInt(after, 10) || 0;
    pollWait = Math.max(Math.min(POLL_FAILED_MAX_MS, pollWait * 2), Math.min(POLL_FAILED_MAX_MS, retryAfter * 1000));
  } finally {
    pollBusy = false;
  }
  if (on === handlers) schedulePoll(jitter(pollWait));
}

function scheduleReconnect() {
  if (retryTimer || !addressOf) return;
  if (source) source.close();
  source = null;
  const wait = backoff;
  backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
  retryTimer = setTimeout(() => {
    retryTimer = null;
    connect();
  }, wait);
}

/** Coming back online or to the tab: reconnect at once instead of waiting out a backoff. */
function wireOnce() {
  if (wired) return;
  wired = true;
  const kick = () => {
    if (!addressOf) return;
    if (!source || source.readyState === EventSource.CLOSED) {
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      backoff = 500;
      connect();
    }
  };
  window.addEventListener('online', kick);
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      if (pollTimer) clearTimeout(pollTimer);
      pollTimer = null;
      return;
    }
    kick();
    // Still down: the state as it is now, then on at the usual pace.
    if (polling) {
      pollWait = POLL_MS;
      pollNow();
    }
  });
}
