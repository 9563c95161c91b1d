// agon-web: the game page, the rules page, the account page, the lobby, the players' pages and the
// analysis board, as ES modules served as they are (no build step, no framework). The server fills the
// page in its language; this script loads the catalogue for switching languages and runs the page named
// by <body data-page>.
//
//   state.js   the page's state and the questions asked about it
//   api.js     the JSON API client and the start board
//   i18n.js    the catalogues, t(), the language switch
//   board.js   the SVG board and the marks drawn over it
//   focus.js   the keyboard focus across requests
//   panel.js   render(): the game panel and the board from the state
//   game.js    the game's requests and which game is shown, the states applied by version
//   live.js    the game's event stream (EventSource), reconnected whenever it drops
//   clock.js   the clocks counted down between the server's figures
//   sound.js   the sound on the opponent's move (Web Audio, off by default)
//   events.js  clicks, keys and controls
//   ruleset.js the "New game" panel's rule set, and rule sets described for people
//   rules.js   the rules page
//   account.js the account page (/account) and the header's sign-in link
//   lobby.js   the lobby (/lobby): quick pairing, seeks, challenges, games being played
//   players.js the player page (/@/{username}) and the leaderboard (/leaderboard)
//   analysis.js the analysis board (/analysis): the tree of moves, the engine's lines
//   review.js  the game review: its request and progress, the graph, the marked moves

import { app, onRedraw } from './state.js';
import { initStrings } from './i18n.js';
import { render } from './panel.js';
import { initGameEvents } from './events.js';
import { route } from './game.js';
import { initRulesPage } from './rules.js';
import { initAccountLink, initAccountPage } from './account.js';
import { initLobbyPage } from './lobby.js';
import { initPlayerPage, initLeaderboardPage } from './players.js';
import { initAnalysisPage } from './analysis.js';

async function init() {
  app.page = document.body.dataset.page || 'game';
  await initStrings();
  if (app.page === 'game') {
    onRedraw(render);
    initGameEvents();
    route();
  } else if (app.page === 'account') {
    initAccountPage();
  } else if (app.page === 'lobby') {
    initLobbyPage();
  } else if (app.page === 'player') {
    initPlayerPage();
  } else if (app.page === 'leaderboard') {
    initLeaderboardPage();
  } else if (app.page === 'analysis') {
    initAnalysisPage();
  } else {
    initRulesPage();
  }
  initAccountLink();
}

// A module runs once the document is parsed.
init();
