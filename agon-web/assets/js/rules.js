// The rules page: the start board as a figure, and the way back to the last game.

import { lastGame } from './state.js';
import { fetchStartBoard } from './api.js';
import { fitSvg } from './board.js';

export async function initRulesPage() {
  const last = lastGame();
  if (last) {
    for (const a of document.querySelectorAll('.back a')) a.setAttribute('href', `/g/${last}`);
  }
  const fig = document.getElementById('rules-board');
  if (!fig) return;
  // The picture is a bonus: without it the text still explains the board.
  const svg = await fetchStartBoard();
  if (svg) {
    fig.innerHTML = svg;
    fitSvg(fig.querySelector('svg'));
  }
}
