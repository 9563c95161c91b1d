// The game panel: shows the state (the board, whose turn, the outcome, the move list,
// the controls) after every change. It reads the state and changes only the page.

import {
  app, canPass, interactive, isFriendGame, lastGame, legalFrom, mySide, other, pieceAt, readName, viewSide,
} from './state.js';
import { plyKey } from './game.js';
import { has, t } from './i18n.js';
import { animateMove, board, decorate, setBoard } from './board.js';
import { restoreFocus } from './focus.js';
import { renderRulesChoice, ruleValue, rulesPhrase } from './ruleset.js';
import { controlText, renderClocks } from './clock.js';
import { soundOn } from './sound.js';
import { renderReview } from './review.js';
import { announceEnd, blindOn, renderBlind } from './blind.js';

/** @typedef {import('./state.js').GameState} GameState */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {HTMLElement | null} el @param {boolean} on */
function show(el, on) {
  if (el) el.hidden = !on;
}

/** @param {Element | null} el @param {string} text */
function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

/** @param {HTMLElement} el @param {boolean} off */
function disable(el, off) {
  /** @type {HTMLButtonElement} */ (el).disabled = off;
}

/** What an error means to the person. */
function errorText(/** @type {import('./state.js').ErrorLike} */ err) {
  const name = err && err.name ? err.name : 'unknown';
  if (name === 'empty-entry') return t('entry.empty');
  if (has(`illegal.${name}`) && !has(`error.${name}`)) return t(`illegal.${name}`);
  if (name === 'not-your-turn' && app.state && app.state.opponent === 'friend') return t('error.not-your-turn-friend');
  if (has(`error.${name}`)) return t(`error.${name}`);
  return t('error.unknown', { name });
}

/** @param {import('./state.js').Hint} hint */
function hintText(hint) {
  if (hint.win_in === 1) return t('status.hint-wins', { move: hint.move });
  if (hint.win_in) return t('status.hint-forced', { move: hint.move, n: hint.win_in });
  return t('status.hint', { move: hint.move });
}

/** A piece named for the person: "queen f4". */
function pieceName(/** @type {string} */ cell) {
  return `${t(`piece.${(pieceAt(cell) || { kind: 'guard' }).kind}`)} ${cell}`;
}

/** Shows the state: the game page's redraw. */
export function render() {
  if (app.page !== 'game') return;
  const s = app.state;
  const inGame = !!app.id;
  show($('new-game'), !inGame);
  show($('game'), inGame && !!s);
  show($('loading'), inGame && !s && !app.error);

  // New game panel
  const startBtn = $('start-btn');
  if (startBtn) disable(startBtn, app.busy);
  const ngErr = $('new-game-error');
  if (ngErr) {
    show(ngErr, !inGame && !!app.newGameError);
    if (app.newGameError) {
      setText(ngErr, app.newGameError.name === 'unknown-game' ? t('game.not-found') : errorText(app.newGameError));
    }
  }
  const last = lastGame();
  const contRow = $('continue-row');
  if (contRow) {
    const ok = !inGame && last && !(app.newGameError && app.newGameError.name === 'unknown-game');
    show(contRow, !!ok);
    if (ok) $('continue-link').setAttribute('href', `/g/${last}`);
  }

  if (!inGame) {
    renderRulesChoice();
    renderOpponentChoice();
  }

  // Thinking indicator (under the board)
  show($('thinking'), app.thinking);
  board().classList.toggle('is-thinking', app.thinking);

  renderBars();
  renderClocks();
  renderBlind();
  if (!inGame) {
    if (app.startSvg) setBoard(app.startSvg, 'start');
    return;
  }
  if (!s) {
    if (app.error) {
      // The game could not be loaded (network): say so in the loading card.
      show($('loading'), true);
      setText($('loading').firstElementChild, errorText(app.error));
    }
    return;
  }

  // Stepping through the game: a past ply's board once fetched (the present's meanwhile).
  const past = app.ply === null ? undefined : app.plyBoards.get(plyKey(s, app.ply, viewSide()));
  if (past) setBoard(past, `ply:${plyKey(s, /** @type {number} */ (app.ply), viewSide())}`);
  else setBoard(s.svg, `${app.id}:${s.version}:${app.stateView}:${s.moves.length}:${s.position}:${s.last_move}`);
  board().classList.toggle('past', app.ply !== null);
  decorate();
  if (app.animate) {
    animateMove(app.animate.from, app.animate.to);
    app.animate = null;
  }

  const watching = !app.token;
  const friend = isFriendGame();
  const human = mySide() || s.human;
  if (friend) {
    setText($('game-info'), watching ? t('game.players-friend') : t('game.you-play-friend', { side: t(`side.${human}`) }));
  } else {
    setText($('game-info'), watching
      ? t('game.players', { side: t(`side.${human}`), level: t(`level.${s.level}`) })
      : t('game.you-play', { side: t(`side.${human}`), level: t(`level.${s.level}`) }));
  }
  setText($('game-rules-text'), t('game.rules', { rules: rulesPhrase(s.rules_parts) }));
  $('game-rules').dataset.rules = s.rules;
  show($('game-clock'), true);
  setText($('game-clock'), s.clock ? t('game.clock', { control: controlText(s.clock) }) : t('game.no-clock'));
  show($('watch-note'), watching);
  setText($('watch-note'), t(friend ? 'game.watching-friend' : 'game.watching'));
  document.body.classList.toggle('watching', watching);
  // The stream is down (dropped, or refused from the start): the page asks for the state
  // now and then meanwhile (live.js), and says so.
  show($('live-note'), !app.live && app.liveDownAt > 0);
  const soundBtn = $('sound-btn');
  soundBtn.setAttribute('aria-pressed', String(soundOn()));
  show(soundBtn, !watching);
  renderInvite(s);
  renderOffers(s);

  // Outcome
  const outcome = s.outcome;
  show($('outcome'), !!outcome);
  if (outcome) {
    let result;
    let tone;
    if (!outcome.winner) {
      result = t('outcome.draw');
      tone = 'draw';
    } else if (watching) {
      result = t(outcome.winner === 'white' ? 'outcome.white-wins' : 'outcome.black-wins');
      tone = 'draw';
    } else if (outcome.winner === human) {
      result = t('outcome.win');
      tone = 'win';
    } else {
      result = t('outcome.lose');
      tone = 'lose';
    }
    $('outcome').dataset.tone = tone;
    setText($('outcome-result'), `${result} (${outcome.score})`);
    if (outcome.reason === 'aborted') {
      $('outcome').dataset.tone = 'draw';
      setText($('outcome-result'), t('outcome.aborted'));
    }
    let reasonKey = `reason.${outcome.reason}`;
    /** @type {Record<string, string> | undefined} */
    let params;
    const loser = outcome.winner ? other(outcome.winner) : null;
    if (outcome.reason === 'resignation' || outcome.reason === 'time-forfeit') {
      const base = outcome.reason === 'resignation' ? 'reason.side-resigned' : 'reason.time-forfeit';
      if (watching) {
        reasonKey = base;
        params = { side: t(`side.${loser || 'white'}`) };
      } else if (outcome.reason === 'resignation') {
        reasonKey = loser === human ? 'reason.you-resigned' : 'reason.opponent-resigned';
      } else {
        reasonKey = loser === human ? 'reason.time-forfeit-you' : 'reason.time-forfeit-opponent';
      }
    }
    // Under empty-throne-ring=draw the closed ring draws instead of losing.
    if (outcome.reason === 'ring-without-queen' && !outcome.winner) reasonKey = 'reason.ring-without-queen-draw';
    setText($('outcome-reason'), t(reasonKey, params));
    // The screen-reader mode says the end at once (an assertive region), worded as shown.
    const said = [t('outcome.title'), $('outcome-result').textContent, $('outcome-reason').textContent];
    announceEnd(`${app.id}:${s.moves.length}:${outcome.reason}`, said.join('. ').replace(/\.\./g, '.'));
  }
  renderRematch(s);

  // Status line
  const map = legalFrom();
  const lines = [];
  const info = () => {
    for (const i of app.info) lines.push(t(i.key, i.params));
  };
  if (app.notice) {
    lines.push(t(app.notice.key, app.notice.params));
  } else if (outcome) {
    // The outcome box says how it ended; say what the computer's last move was.
    if (!watching) info();
  } else if (app.thinking) {
    info();
    lines.push(t('status.thinking'));
  } else if (watching) {
    lines.push(t(s.to_move === 'white' ? 'status.white-to-move' : 'status.black-to-move'));
    if (s.must_return && s.chooser !== s.to_move) lines.push(t('return.captor-chooses-watching'));
    else if (s.must_return && !friend && s.to_move !== human) lines.push(t('return.computer'));
  } else if (friend && app.busy) {
    lines.push(t('status.sending'));
  } else if (friend && s.chooser !== human) {
    info();
    const waiting = s.seats && !(s.seats.white.taken && s.seats.black.taken);
    lines.push(t(waiting ? 'status.waiting-join' : 'status.opponent-turn'));
    if (s.must_return && s.to_move === human) lines.push(t('return.opponent-places-yours'));
  } else if (s.computer_to_move) {
    lines.push(t('status.computer-turn'));
    // Under queen-placer=captor the computer places the person's captured queen.
    if (s.must_return && s.to_move === human) lines.push(t('return.computer-places-yours'));
  } else if (app.hintPending) {
    lines.push(t('status.hint-thinking'));
  } else if (app.busy) {
    lines.push(t('status.sending'));
  } else if (s.must_return) {
    info();
    // The screen-reader mode has no board to click: the entry is the way to play.
    if (blindOn()) lines.push(t('blind.status-return'));
    else lines.push(app.selected ? t('return.selected', { piece: pieceName(app.selected) }) : t('return.choose'));
  } else if (canPass()) {
    info();
    lines.push(t('status.must-pass'));
  } else if (app.ply !== null) {
    // Stepped back through the moves: still the player's turn, played from the present.
    info();
    lines.push(t('status.your-turn-past'));
  } else {
    info();
    if (app.hint) lines.push(hintText(app.hint));
    if (app.selected) {
      lines.push(t(map.has(app.selected) ? 'status.selected' : 'status.no-moves', { cell: app.selected }));
    } else {
      lines.push(t(blindOn() ? 'blind.status-turn' : 'status.your-turn'));
    }
  }
  // The first move's deadline (between people with a clock): the game is aborted past it.
  const deadline = s.clock && !outcome ? s.clock.first_move_deadline_ms : null;
  tickCountdown(!!deadline);
  if (deadline) {
    const left = deadline - (s.clock ? s.clock.now_ms : 0) - (performance.now() - app.clockAt);
    const seconds = Math.max(0, Math.ceil(left / 1000));
    lines.push(s.chooser === mySide()
      ? t('status.first-move-you', { seconds })
      : t('status.first-move', { side: t(`side.${s.chooser}`), seconds }));
  }
  setText($('status'), lines.join(' '));
  show($('status'), lines.length > 0);
  renderSteps(s);
  renderPremove();

  // Return box: the person must return a piece
  // (or, under queen-placer=captor, place the computer's captured queen)
  const mustReturnNow = !watching && !outcome && s.must_return && s.chooser === human;
  show($('return-box'), mustReturnNow);
  if (mustReturnNow) {
    const froms = [...map.keys()];
    const queenFirst = froms.some((c) => (pieceAt(c) || {}).kind === 'queen');
    const forComputer = s.to_move !== human;
    const captor = friend ? 'return.captor-title-friend' : 'return.captor-title';
    setText($('return-box').querySelector('h2'), t(forComputer ? captor : 'return.title'));
    let explain = t('return.explain');
    if (forComputer) explain = t(friend ? 'return.captor-explain-friend' : 'return.captor-explain');
    else if (queenFirst) explain = `${explain} ${t('return.queen-first')}`;
    setText($('return-explain'), explain);
    setText($('return-pieces'), t('return.pieces', { pieces: froms.map(pieceName).join(', ') }));
    let where;
    if (queenFirst) {
      where = ruleValue(s.rules_parts, 'queen-return') === 'not-throne' ? 'return.where-queen-not-throne' : 'return.where-queen';
    } else {
      where = ruleValue(s.rules_parts, 'guard-return') === 'next-ring' ? 'return.where-guard-next-ring' : 'return.where-guard';
    }
    setText($('return-where'), t(where));
  }

  // Error line
  show($('error'), !!app.error);
  if (app.error) setText($('error'), errorText(app.error));

  // Move entry and actions
  const canPlay = interactive();
  show($('entry-form'), !watching && !outcome);
  disable($('move-input'), !canPlay);
  disable($('entry-btn'), !canPlay);
  // A finished game has nothing left to undo, offer or resign: the whole group goes, as
  // each of its buttons does (Undo included: the server's can_undo is false by then).
  show($('actions'), !watching && !outcome);
  show($('undo-btn'), !friend && !outcome);
  disable($('undo-btn'), app.busy || !s.can_undo);
  const offers = s.offers || { draw: null, takeback: null, rematch: null };
  const takeback = $('takeback-btn');
  show(takeback, friend && !outcome);
  disable(takeback, app.busy || !!offers.takeback || !hasMoved(s, human));
  const draw = $('draw-btn');
  show(draw, friend && !outcome);
  disable(draw, app.busy || !!offers.draw);
  const passBtn = $('pass-btn');
  show(passBtn, !watching && !outcome && canPass());
  disable(passBtn, !canPlay);
  show($('hint-btn'), !outcome && !friend);
  disable($('hint-btn'), !canPlay || !!app.hint);
  // In the first two plies between people, Abort stands where Resign will be.
  const canAbort = !!s.can_abort && !watching && !outcome;
  show($('abort-btn'), canAbort);
  disable($('abort-btn'), app.busy);
  const resignBtn = $('resign-btn');
  show(resignBtn, !outcome && !canAbort);
  disable(resignBtn, app.busy || !!outcome);
  setText(resignBtn, t(app.resignArmed ? 'actions.resign-confirm' : 'actions.resign'));
  resignBtn.classList.toggle('armed', app.resignArmed);
  show($('resign-cancel'), app.resignArmed && !outcome && !canAbort);

  renderMoves(s);
  renderReview();
  const captured = s.captured || [];
  show($('captured-list'), captured.length > 0);
  if (captured.length) setText($('captured-list'), t('status.captured-list', { cells: captured.join(', ') }));

  // Tools
  $('record-link').setAttribute('href', `/api/games/${app.id}/record`);
  // The analysis board: for a finished game, and for a watcher of one going on (a player
  // does not get the engine's help during the game).
  $('analyse-link').setAttribute('href', `/analysis?game=${app.id}`);
  show($('analyse-link'), !!outcome || !app.token);
  /** @type {HTMLInputElement} */ ($('position-text')).value = s.position;
  const note = $('copy-note');
  if (note && note.dataset.key) setText(note, t(note.dataset.key));
  restoreFocus();
}

/** The side that made the first move of the game (moves alternate: count back from the
 * side to move). */
function firstMover(/** @type {GameState} */ s) {
  return s.moves.length % 2 === 0 ? s.to_move : other(s.to_move);
}

/** Whether `side` has made a move in the game (something to take back). */
function hasMoved(/** @type {GameState} */ s, /** @type {'white' | 'black'} */ side) {
  return s.moves.length >= (firstMover(s) === side ? 1 : 2);
}

/** The move list: numbered pairs, White's move first. */
function renderMoves(/** @type {GameState} */ s) {
  const list = $('moves');
  const moves = s.moves || [];
  show($('moves-empty'), moves.length === 0);
  const shown = app.ply === null ? moves.length : app.ply;
  const key = `${moves.join(' ')}|${s.to_move}|${shown}`;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.textContent = '';
  // Who made the first move: moves alternate, so count back from the side to move.
  const first = firstMover(s);
  /** @type {[number, number | null, number | null][]} */
  const rows = [];
  let i = 0;
  let num = 1;
  if (first === 'black' && moves.length) {
    rows.push([num++, null, 0]);
    i = 1;
  }
  for (; i < moves.length; i += 2) rows.push([num++, i, i + 1 < moves.length ? i + 1 : null]);
  /** @param {number | null} index @param {'white' | 'black'} side */
  const cell = (index, side) => {
    if (index === null || index >= moves.length) {
      const span = document.createElement('span');
      span.className = `mv mv-${side} mv-none`;
      span.setAttribute('dir', 'ltr');
      span.textContent = rows.length && side === 'white' ? '…' : '';
      return span;
    }
    // Each move is a button: a click shows the game just after it.
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `mv mv-${side}`;
    button.setAttribute('dir', 'ltr');
    button.dataset.ply = String(index + 1);
    button.textContent = moves[index];
    if (index === moves.length - 1) button.classList.add('last');
    if (index + 1 === shown) {
      button.classList.add('current');
      button.setAttribute('aria-current', 'step');
    }
    button.classList.add(side === (mySide() || s.human) ? 'by-human' : 'by-computer');
    return button;
  };
  for (const [n, w, b] of rows) {
    const li = document.createElement('li');
    const numEl = document.createElement('span');
    numEl.className = 'num';
    numEl.setAttribute('dir', 'ltr');
    numEl.textContent = `${n}.`;
    li.append(numEl, cell(w, 'white'), cell(b, 'black'));
    list.appendChild(li);
  }
  const current = /** @type {HTMLElement | null} */ (list.querySelector('.current'));
  if (app.ply === null || !current) list.scrollTop = list.scrollHeight;
  else current.scrollIntoView({ block: 'nearest' });
}

/** The buttons that step through the game, and the line that says where the board is. */
function renderSteps(/** @type {GameState} */ s) {
  const total = s.moves.length;
  const shown = app.ply === null ? total : app.ply;
  disable($('nav-first'), shown === 0);
  disable($('nav-prev'), shown === 0);
  disable($('nav-next'), shown === total);
  disable($('nav-last'), shown === total);
  $('flip-btn').setAttribute('aria-pressed', String(app.flipped));
  const note = $('nav-note');
  show(note, app.ply !== null);
  if (app.ply !== null) {
    setText(note, app.ply === 0 ? t('nav.viewing-start') : t('nav.viewing', { ply: app.ply, total }));
  }
}

/** @type {ReturnType<typeof setInterval> | null} redraws the first move's countdown */
let countdown = null;

/** Keeps the first move's countdown ticking while a deadline stands (no clock runs then). */
function tickCountdown(/** @type {boolean} */ on) {
  if (on && !countdown) countdown = setInterval(render, 500);
  if (!on && countdown) {
    clearInterval(countdown);
    countdown = null;
  }
}

/** The queued premove, or the cue that it was dropped. */
function renderPremove() {
  const box = $('premove');
  const pm = app.premove;
  const dropped = app.premoveDropped;
  show(box, !!pm || !!dropped);
  box.classList.toggle('dropped', !pm && !!dropped);
  show($('premove-cancel'), !!pm);
  if (pm) setText($('premove-text'), t('premove.queued', { move: `${pm.from}-${pm.to}` }));
  else if (dropped) setText($('premove-text'), t('premove.dropped', { move: dropped }));
}

/** The "New game" panel: the level for the computer, the name for a friend. */
function renderOpponentChoice() {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById('new-game'));
  if (!form) return;
  const radio = /** @type {RadioNodeList | null} */ (form.elements.namedItem('opponent'));
  const friend = !!radio && radio.value === 'friend';
  show($('level-choice'), !friend);
  show($('name-row'), friend);
  const hint = $('opponent-hint');
  const key = friend ? 'new-game.opponent.friend-hint' : 'new-game.opponent.computer-hint';
  hint.dataset.i18n = key;
  setText(hint, t(key));
  const name = /** @type {HTMLInputElement} */ ($('name-input'));
  if (!name.dataset.filled) {
    name.dataset.filled = '1';
    if (!name.value) name.value = readName();
  }
}

/** Who plays which side: a bar above the board (the opponent) and one below (oneself). */
function renderBars() {
  const s = app.state;
  const bars = /** @type {const} */ ([['bar-top', 'top'], ['bar-bottom', 'bottom']]);
  const on = !!(app.id && s);
  const area = board().parentElement;
  if (area) area.classList.toggle('with-bars', on);
  for (const [id, where] of bars) {
    const bar = $(id);
    show(bar, on);
    if (!s) continue;
    const side = where === 'bottom' ? viewSide() : other(viewSide());
    const mine = side === mySide();
    const friend = s.opponent === 'friend';
    const computer = !friend && side !== s.human;
    const seat = s.seats ? s.seats[side] : null;
    // The seat's account, if an account plays it (a deleted one is "deleted player").
    const player = s.players ? s.players[side] : null;
    bar.dataset.side = side;
    bar.classList.toggle('to-move', !s.outcome && s.chooser === side);
    const waiting = friend && !!seat && !seat.taken;
    bar.classList.toggle('waiting', waiting);
    let name;
    let note = '';
    if (computer) {
      name = t('player.computer');
      if (s.level) note = t('player.level', { level: t(`level.${s.level}`) });
    } else if (waiting) {
      name = t('player.waiting');
    } else if (mine) {
      name = (seat && seat.name) || t('player.you');
      if (seat && seat.name) note = t('player.you-note');
    } else if (player && player.deleted) {
      name = t('player.deleted');
    } else if (player && player.username) {
      name = player.username;
    } else if (seat && seat.name) {
      name = seat.name;
    } else {
      name = app.token && friend ? t('player.friend') : t(`side.${side}`);
    }
    if (player && player.rating !== null) {
      // A rated game: the rating at its start, `?` while provisional, left to right.
      const rating = `\u2066${player.rating}${player.provisional ? '?' : ''}\u2069`;
      note = note ? `${note} · ${rating}` : rating;
    }
    setText(bar.querySelector('.player-name'), name);
    setText(bar.querySelector('.player-note'), note);
    const dot = /** @type {HTMLElement} */ (bar.querySelector('.presence'));
    const present = app.presence ? app.presence[side] : !!(seat && seat.present);
    show(dot, friend && !!seat && seat.taken);
    // One's own dot is this page's stream. The other's is the server's word, which only
    // an open stream keeps current: while it is down, the dot says it is not known.
    const known = mine || app.live;
    const online = mine ? app.live : present;
    dot.classList.toggle('online', known && online);
    dot.classList.toggle('unknown', !known);
    const label = t(!known ? 'presence.unknown' : online ? 'presence.online' : 'presence.offline');
    if (dot.getAttribute('aria-label') !== label) {
      dot.setAttribute('aria-label', label);
      dot.setAttribute('title', label);
    }
    /** @type {HTMLElement} */ (bar.querySelector('.clock')).dataset.clock = side;
  }
}

/** The invitation: while a friend game waits for its second player. */
function renderInvite(/** @type {GameState} */ s) {
  const side = mySide();
  const open = !!(side && s.opponent === 'friend' && !s.outcome && s.seats && !s.seats[other(side)].taken);
  show($('invite'), open);
  if (!open || !side) return;
  setText($('invite-text'), t('invite.text', { side: t(`side.${other(side)}`) }));
  const link = /** @type {HTMLInputElement} */ ($('invite-link'));
  const url = `${location.origin}/g/${app.id}`;
  if (link.value !== url) link.value = url;
  const note = $('invite-note');
  if (note.dataset.key) setText(note, t(note.dataset.key));
}

/** Offers between the players: one to answer (accept, decline), or one's own, waiting. */
function renderOffers(/** @type {GameState} */ s) {
  const side = mySide();
  const offers = s.offers;
  const box = $('offer-box');
  if (!side || s.opponent !== 'friend' || !offers) {
    show(box, false);
    return;
  }
  /** @type {('takeback' | 'draw' | 'rematch')[]} */
  const kinds = s.outcome ? ['rematch'] : ['takeback', 'draw'];
  const incoming = kinds.find((k) => offers[k] && offers[k] !== side);
  const outgoing = kinds.find((k) => offers[k] === side);
  const kind = incoming || outgoing;
  show(box, !!kind);
  if (!kind) return;
  box.dataset.kind = kind;
  box.classList.toggle('incoming', !!incoming);
  setText($('offer-text'), t(`offer.${kind}-${incoming ? 'in' : 'out'}`));
  show($('offer-answer'), !!incoming);
  disable($('offer-accept'), app.busy);
  disable($('offer-decline'), app.busy);
}

/** After the game: a rematch, colours swapped (or the way to one already agreed). */
function renderRematch(/** @type {GameState} */ s) {
  const side = mySide();
  const row = $('rematch-row');
  const next = s.rematch_game || null;
  show(row, !!s.outcome && (!!side || !!next));
  const btn = $('rematch-btn');
  const mineOffered = !!(s.offers && s.offers.rematch && s.offers.rematch === side);
  show(btn, !!side && !next);
  disable(btn, app.busy || mineOffered);
  const link = $('rematch-link');
  show(link, !!next);
  if (next) link.setAttribute('href', `/g/${next}`);
}
