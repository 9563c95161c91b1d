// Live updates: one EventSource on /api/games/{id}/events for the game shown. Every
// `state` event carries the whole state with its version, so the page never needs a
// delta: the caller applies a state only when its version is newer than the one shown,
// and asks for the state again whenever the stream (re)connects, so that nothing is shown
// twice and nothing is lost across a dropped connection or a restarted server.

/** @typedef {import('./state.js').GameState} GameState */

/**
 * @typedef {{
 *   onState: (state: GameState) => void,
 *   onPresence: (presence: {white: boolean, black: boolean}) => void,
 *   onOpen: () => void,
 *   onDown: () => void,
 * }} LiveHandlers
 */

const MAX_BACKOFF_MS = 8000;

/** @type {EventSource | null} */
let source = null;
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
    if (es.readyState === EventSource.CLOSED) scheduleReconnect();
  });
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
    if (!document.hidden) kick();
  });
}
