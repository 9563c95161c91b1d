// The `change` events of the live stream: what changed from one version to the next, so
// that the server need not send the whole game (its moves, its board) at every offer or
// move. A change applies only to the version it was made from (its `base`) and to a board
// drawn for the same side as the stream's; otherwise the page asks for the whole state.

/** @typedef {import('./state.js').GameState} GameState */

/**
 * @typedef {{
 *   base: number, version: number, keep: number, added: string[], svg: string | null,
 *   seats: GameState['seats'], clock: GameState['clock'], offers: GameState['offers'],
 *   rematch_game: string | null, position: string, to_move: 'white' | 'black',
 *   must_return: boolean, chooser: 'white' | 'black', legal_moves: string[],
 *   legal: GameState['legal'], pieces: GameState['pieces'], last_move: string | null,
 *   last_captures: string[], captured: string[], outcome: GameState['outcome'],
 *   computer_to_move: boolean, can_undo: boolean, can_abort?: boolean
 * }} GameChange
 */

/** The fields a change carries as they are (the others: `moves` and `svg`). */
const FIELDS = /** @type {const} */ ([
  'seats', 'clock', 'offers', 'rematch_game', 'position', 'to_move', 'must_return', 'chooser',
  'legal_moves', 'legal', 'pieces', 'last_move', 'last_captures', 'captured', 'outcome',
  'computer_to_move', 'can_undo', 'can_abort',
]);

/**
 * The state after `change`, or null when it does not apply to `state` (another version,
 * or a board drawn for the other side while the change redraws none).
 * @param {GameState | null} state the state shown
 * @param {GameChange} change
 * @param {boolean} sameView whether the shown board is drawn for the stream's side
 * @returns {GameState | null}
 */
export function applyChange(state, change, sameView) {
  if (!state || !change || typeof change.base !== 'number' || state.version !== change.base) return null;
  if (!Array.isArray(change.added) || typeof change.keep !== 'number' || change.keep > state.moves.length) {
    return null;
  }
  if (typeof change.svg !== 'string' && !sameView) return null;
  /** @type {Record<string, unknown>} */
  const next = { ...state };
  for (const field of FIELDS) next[field] = change[field];
  next.version = change.version;
  next.moves = state.moves.slice(0, change.keep).concat(change.added);
  if (typeof change.svg === 'string') next.svg = change.svg;
  return /** @type {GameState} */ (/** @type {unknown} */ (next));
}
