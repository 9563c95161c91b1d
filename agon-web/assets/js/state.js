// The page's state: one object, what the server last said and what the person is doing,
// with the questions the other modules ask about it. Nothing here touches the page.

/**
 * @typedef {{move: string, from: string | null, to: string | null, kind: 'step' | 'return' | 'pass'}} LegalMove
 * @typedef {{cell: string, side: 'white' | 'black', kind: 'queen' | 'guard', captured: boolean}} Piece
 * @typedef {{winner: 'white' | 'black' | null, reason: string, score: string}} Outcome
 * @typedef {'white' | 'black'} Side
 * @typedef {{taken: boolean, name: string | null, present: boolean}} Seat
 * @typedef {{control: string, initial_ms: number, increment_ms: number, white_ms: number, black_ms: number,
 *   running: Side | null, now_ms: number, first_move_deadline_ms?: number | null}} Clock
 * @typedef {{draw: Side | null, takeback: Side | null, rematch: Side | null}} Offers
 * @typedef {{
 *   id: string, human: 'white' | 'black', level: string | null, position: string,
 *   opponent?: 'computer' | 'friend', version?: number,
 *   seats?: {white: Seat, black: Seat}, clock?: Clock | null, offers?: Offers,
 *   rematch_game?: string | null,
 *   rules: string, rules_parts: import('./ruleset.js').RulesParts, chooser: 'white' | 'black',
 *   to_move: 'white' | 'black', must_return: boolean, legal_moves: string[],
 *   legal: LegalMove[], pieces: Piece[], moves: string[], last_move: string | null,
 *   last_captures: string[], captured: string[], outcome: Outcome | null,
 *   computer_to_move: boolean, can_undo: boolean, can_abort?: boolean, svg: string,
 *   rated?: boolean, speed?: string, players?: {white: Player, black: Player}
 * }} GameState
 * @typedef {{username: string | null, deleted: boolean, bot: boolean, rating: number | null,
 *   provisional: boolean | null}} Player
 * @typedef {{move: string, from: string | null, to: string | null, score: string, win_in: number | null, pv: string[]}} Hint
 * @typedef {{key: string, params?: Record<string, string | number>}} Message
 * @typedef {{name: string, status?: number}} ErrorLike
 */

export const app = {
  page: 'game',
  /** @type {string | null} the game shown, or null on the start page */
  id: null,
  /** @type {string | null} this browser's token for the game, or null (watching) */
  token: null,
  /** @type {GameState | null} the last game state from the server */
  state: null,
  /** @type {Side | null} the side this browser plays in the game shown (null: watching) */
  side: null,
  /** @type {{white: boolean, black: boolean} | null} who has the game open (the latest word) */
  presence: null,
  live: false, // the event stream is connected
  liveDownAt: 0, // performance.now() when the stream dropped (0: never connected or up)
  /** @type {Side | null} the side the shown state's board is drawn for, when known */
  stateView: null,
  /** @type {{from: string, to: string} | null} a move to slide on the next redraw */
  animate: null,
  /** @type {number} performance.now() when the state's clock figures arrived */
  clockAt: 0,
  /** @type {string | null} the selected cell */
  selected: null,
  /** @type {Hint | null} the engine's suggestion for this position */
  hint: null,
  hintPending: false, // a hint is being searched
  busy: false, // a request is running: controls are disabled
  thinking: false, // the computer is searching
  /** @type {Message | null} a transient message (server busy) */
  notice: null,
  /** @type {ErrorLike | null} the last error */
  error: null,
  /** @type {Message[]} what just happened (computer's move, captures) */
  info: [],
  resignArmed: false,
  /** @type {ReturnType<typeof setTimeout> | null} */
  resignTimer: null,
  /** @type {ReturnType<typeof setTimeout> | null} */
  copyTimer: null,
  /** @type {string | null} the start position's board, once fetched */
  startSvg: null,
  /** @type {string | null} what the board currently shows (to avoid redrawing) */
  boardKey: null,
  generation: 0, // bumped when the shown game changes; stale answers are dropped
  /** @type {string | null} where the keyboard focus goes back once idle ('board' or an id) */
  refocus: null,
  /** @type {ErrorLike | null} the error shown in the "New game" panel */
  newGameError: null,
  /** @type {number | null} the ply shown while stepping through the game (null: the present) */
  ply: null,
  flipped: false, // the board is turned from its usual side (the `f` key)
  /** @type {Map<string, string>} the boards of past plies fetched while stepping */
  plyBoards: new Map(),
  /** @type {{from: string, to: string} | null} a move queued while the opponent thinks */
  premove: null,
  /** @type {string | null} the premove just dropped as illegal (shown until the next change) */
  premoveDropped: null,
};

// ---------------------------------------------------------------- redrawing

/** @type {() => void} */
let redrawHook = () => {};

/** Sets what redraw() does (the game page's render; nothing on the rules page). */
export function onRedraw(/** @type {() => void} */ hook) {
  redrawHook = hook;
}

/** Shows the state: called after every change. */
export function redraw() {
  redrawHook();
}

// ---------------------------------------------------------------- questions

/** @param {'white' | 'black'} side */
export const other = (side) => (side === 'white' ? 'black' : 'white');

/** Whether the game is between two people. */
export function isFriendGame() {
  return !!(app.state && app.state.opponent === 'friend');
}

/** The side this browser plays (null: it watches). */
export function mySide() {
  return app.token ? app.side || (app.state && app.state.human) || null : null;
}

/** The side at the bottom of the board: one's own, White for a watcher; the other once
 * flipped. */
export function viewSide() {
  const side = mySide() || 'white';
  return app.flipped ? other(side) : side;
}

/** Whether the board shows the game as it is now (not a past ply). */
export function atPresent() {
  return app.ply === null;
}

/** Whether this browser chooses the next action: it is the chooser (under
 * queen-placer=captor, the captor chooses where the captured queen returns). */
export function humanToMove() {
  const s = app.state;
  const side = mySide();
  return !!(s && side && !s.outcome && !s.computer_to_move && s.chooser === side);
}

/** Whether the pass is the legal move (a rule set with stuck=pass, nothing else to do). */
export function canPass() {
  return !!(app.state && (app.state.legal || []).some((mv) => mv.kind === 'pass'));
}

/** Whether the person may move now from this browser. */
export function interactive() {
  return !!(app.token && !app.busy && atPresent() && humanToMove());
}

/** Whether the person may queue a premove: between people, the opponent to move, both
 * seats taken, the game going on and shown as it is now. */
export function canPremove() {
  const s = app.state;
  const side = mySide();
  if (!s || !side || !app.token || s.outcome || s.opponent !== 'friend' || !atPresent()) return false;
  if (!s.seats || !s.seats.white.taken || !s.seats.black.taken) return false;
  return s.chooser !== side;
}

/**
 * The legal moves by the cell they start from, as the server lists them (a pass starts
 * from no cell: it is not here).
 * @returns {Map<string, LegalMove[]>}
 */
export function legalFrom() {
  /** @type {Map<string, LegalMove[]>} */
  const map = new Map();
  for (const mv of (app.state && app.state.legal) || []) {
    if (!mv.from) continue;
    const list = map.get(mv.from);
    if (list) list.push(mv);
    else map.set(mv.from, [mv]);
  }
  return map;
}

/**
 * The piece on `cell`, if any.
 * @param {string} cell
 * @returns {Piece | undefined}
 */
export function pieceAt(cell) {
  return ((app.state && app.state.pieces) || []).find((p) => p.cell === cell);
}

/**
 * The person's piece on `cell` (captured or not), if any.
 * @param {string} cell
 * @returns {Piece | undefined}
 */
export function ownPieceAt(cell) {
  const p = pieceAt(cell);
  return p && p.side === mySide() ? p : undefined;
}

// ---------------------------------------------------------------- this browser's games

/** @param {string} id */
const tokenKey = (id) => `agon-token:${id}`;
/** @param {string} id */
const sideKey = (id) => `agon-side:${id}`;
const LAST_GAME = 'agon-last-game';
const NAME = 'agon-name';

/** The side this browser took in game `id` (a friend game's second seat), or null. */
export function readSide(/** @type {string} */ id) {
  try {
    const side = localStorage.getItem(sideKey(id));
    return side === 'white' || side === 'black' ? side : null;
  } catch {
    return null;
  }
}

/** The display name last given on this browser, or ''. */
export function readName() {
  try {
    return localStorage.getItem(NAME) || '';
  } catch {
    return '';
  }
}

/** Keeps the display name for the next game (and for joining one). */
export function keepName(/** @type {string} */ name) {
  try {
    if (name) localStorage.setItem(NAME, name);
    else localStorage.removeItem(NAME);
  } catch {
    // no storage
  }
}

/** The token this browser holds for game `id`, or null. */
export function readToken(/** @type {string} */ id) {
  try {
    return localStorage.getItem(tokenKey(id));
  } catch {
    return null;
  }
}

/** The last game this browser played (and still holds the token of), or null. */
export function lastGame() {
  let last;
  try {
    last = localStorage.getItem(LAST_GAME);
  } catch {
    return null;
  }
  return last && readToken(last) ? last : null;
}

/**
 * Keeps a game's token and makes it the last game. Without storage (private mode) the
 * game still works until the page is left.
 * @param {string} id
 * @param {string | null} token the token to keep, or null to keep the one held
 * @param {Side | null} [side] the side the token plays, when known
 */
export function rememberGame(id, token, side = null) {
  try {
    if (token) localStorage.setItem(tokenKey(id), token);
    if (side) localStorage.setItem(sideKey(id), side);
    localStorage.setItem(LAST_GAME, id);
  } catch {
    // no storage
  }
}
