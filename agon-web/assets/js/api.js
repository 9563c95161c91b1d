// The server's JSON API (documented in agon-web's README), and the start board.

import { app, redraw } from './state.js';

const MAX_BUSY_RETRIES = 30;

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An answer that is not 2xx, or no answer (`status` 0, `name` 'network'). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} name the API's error name (`not-your-turn`, ...)
   * @param {string} [message]
   * @param {string | null} [retryAfter]
   */
  constructor(status, name, message, retryAfter) {
    super(message || name);
    this.status = status;
    this.name = name;
    this.retryAfter = retryAfter;
  }
}

/**
 * One request; the decoded JSON answer.
 * @param {string} method
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  let res;
  try {
    /** @type {RequestInit & {headers: Record<string, string>}} */
    const init = { method, cache: 'no-store', credentials: 'same-origin', headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network');
  }
  let data;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const name = (data && typeof data.error === 'string') ? data.error : (res.status >= 500 ? 'network' : 'unknown');
    throw new ApiError(res.status, name, data && data.message, res.headers.get('Retry-After'));
  }
  return data;
}

/**
 * POST, waiting and retrying while the server answers 503 server-busy or 429 rate-limited
 * (after its Retry-After, when that is at most a minute). With retryLost,
 * also retries a few times when the server could not be reached (asking the computer
 * twice is harmless: the second answer is not-computer-turn).
 * @param {string} path
 * @param {object} body
 * @param {boolean} [retryLost]
 * @returns {Promise<any>}
 */
export async function post(path, body, retryLost = false) {
  let lost = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await api('POST', path, body);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (retryLost && (e.status === 0 || e.status === 502 || e.status === 504) && lost < 5) {
        lost++;
        await sleep(1000 * lost);
        continue;
      }
      // 503: the server is busy; 429: this address sent too much. Both say when to come
      // back; a rate limit's wait of over a minute is left to the person (its error shows).
      const wait = Math.max(1, parseInt(e.retryAfter || '', 10) || 1);
      const retry = e.status === 503 || (e.status === 429 && wait <= 60);
      if (retry && attempt < MAX_BUSY_RETRIES) {
        const seconds = Math.min(60, wait);
        const key = e.status === 503 ? 'status.busy-retry' : 'status.rate-retry';
        app.notice = { key, params: { seconds } };
        redraw();
        await sleep(seconds * 1000);
        app.notice = null;
        continue;
      }
      throw e;
    }
  }
}

/** @type {string | null} */
let startBoard = null;

/**
 * The board of the start position as the server draws it (`/api/board.svg` without a
 * position is the start), or null when it cannot be had; fetched once.
 * @returns {Promise<string | null>}
 */
export async function fetchStartBoard() {
  if (startBoard) return startBoard;
  try {
    const res = await fetch('/api/board.svg');
    if (res.ok) startBoard = await res.text();
  } catch {
    // the caller goes without
  }
  return startBoard;
}
