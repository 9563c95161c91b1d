// agon-web: the game page and the rules page.
// Plain ES2020, no framework. Every visible string comes from the catalogue
// (/i18n/{lang}.json); move notation is not translated.
'use strict';

(() => {
  const START_POSITION = 'Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w';
  const LANGS = ['en', 'pt', 'pl', 'tr', 'ms', 'ar'];
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const MOVE_RE = /^([a-l](?:1[01]|[1-9]))([->])([a-l](?:1[01]|[1-9]))$/;
  const WATCH_POLL_MS = 5000;
  const MAX_BUSY_RETRIES = 30;

  const $ = (id) => document.getElementById(id);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const other = (side) => (side === 'white' ? 'black' : 'white');

  // ---------------------------------------------------------------- strings

  let strings = {};
  let fallback = {};
  const catalogues = new Map();

  function has(key) {
    return Object.prototype.hasOwnProperty.call(strings, key) ||
      Object.prototype.hasOwnProperty.call(fallback, key);
  }

  function t(key, params) {
    let s = strings[key];
    if (typeof s !== 'string' || s === '') s = fallback[key];
    if (typeof s !== 'string') s = key;
    if (params) {
      s = s.replace(/\{(\w+)\}/g, (m, name) =>
        (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m));
    }
    return isolateNotation(s);
  }

  // In right-to-left text a move like f4>l1 would be reordered (and its > mirrored):
  // keep each move a left-to-right island with the Unicode isolates LRI ... PDI.
  const NOTATION_RE = /[a-l](?:1[01]|[1-9])[->][a-l](?:1[01]|[1-9])/g;
  function isolateNotation(s) {
    if (document.documentElement.dir !== 'rtl') return s;
    return s.replace(NOTATION_RE, (m) => `\u2066${m}\u2069`);
  }

  async function loadCatalogue(lang) {
    if (catalogues.has(lang)) return catalogues.get(lang);
    const res = await fetch(`/i18n/${lang}.json`, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`catalogue ${lang}: ${res.status}`);
    const cat = await res.json();
    catalogues.set(lang, cat);
    return cat;
  }

  function currentLang() {
    const lang = document.documentElement.lang;
    return LANGS.includes(lang) ? lang : 'en';
  }

  function applyStatic() {
    for (const el of document.querySelectorAll('[data-i18n]')) {
      const key = el.dataset.i18n;
      if (has(key)) el.textContent = t(key);
    }
    for (const el of document.querySelectorAll('[data-i18n-attr]')) {
      for (const pair of el.dataset.i18nAttr.split(';')) {
        const [attr, key] = pair.split(':').map((x) => x && x.trim());
        if (attr && key && has(key)) el.setAttribute(attr, t(key));
      }
    }
  }

  async function switchLang(lang) {
    if (!LANGS.includes(lang)) return;
    document.cookie = `agon_lang=${lang}; path=/; max-age=31536000; SameSite=Lax`;
    let cat;
    try {
      cat = await loadCatalogue(lang);
    } catch (e) {
      app.error = { name: 'network' };
      render();
      return;
    }
    strings = cat;
    document.documentElement.lang = lang;
    document.documentElement.dir = cat['meta.dir'] === 'rtl' ? 'rtl' : 'ltr';
    const select = $('lang-select');
    if (select) select.value = lang;
    // A ?lang= in the address would override the cookie on the next load.
    const url = new URL(location.href);
    if (url.searchParams.has('lang')) {
      url.searchParams.delete('lang');
      history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    }
    applyStatic();
    render();
  }

  async function initStrings() {
    const lang = currentLang();
    const select = $('lang-select');
    if (select) {
      select.value = lang;
      select.addEventListener('change', () => switchLang(select.value));
    }
    try {
      fallback = await loadCatalogue('en');
    } catch (e) {
      fallback = {};
    }
    try {
      strings = lang === 'en' ? fallback : await loadCatalogue(lang);
    } catch (e) {
      strings = fallback;
    }
  }

  // ---------------------------------------------------------------- API

  class ApiError extends Error {
    constructor(status, name, message, retryAfter) {
      super(message || name);
      this.status = status;
      this.name = name;
      this.retryAfter = retryAfter;
    }
  }

  async function api(method, path, body) {
    let res;
    try {
      const init = { method, cache: 'no-store', credentials: 'same-origin', headers: {} };
      if (body !== undefined) {
        init.headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      res = await fetch(path, init);
    } catch (e) {
      throw new ApiError(0, 'network');
    }
    let data = null;
    try {
      data = await res.json();
    } catch (e) {
      data = null;
    }
    if (!res.ok) {
      const name = (data && typeof data.error === 'string') ? data.error : (res.status >= 500 ? 'network' : 'unknown');
      throw new ApiError(res.status, name, data && data.message, res.headers.get('Retry-After'));
    }
    return data;
  }

  // POST, waiting and retrying while the server answers 503 server-busy. With
  // retryLost, also retries a few times when the server could not be reached (asking the
  // computer twice is harmless: the second answer is not-computer-turn).
  async function post(path, body, retryLost = false) {
    let lost = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        return await api('POST', path, body);
      } catch (e) {
        if (retryLost && (e.status === 0 || e.status === 502 || e.status === 504) && lost < 5) {
          lost++;
          await sleep(1000 * lost);
          continue;
        }
        if (e.status === 503 && attempt < MAX_BUSY_RETRIES) {
          const seconds = Math.min(60, Math.max(1, parseInt(e.retryAfter, 10) || 1));
          app.notice = { key: 'status.busy-retry', params: { seconds } };
          render();
          await sleep(seconds * 1000);
          app.notice = null;
          continue;
        }
        throw e;
      }
    }
  }

  function errorText(err) {
    const name = err && err.name ? err.name : 'unknown';
    if (name === 'empty-entry') return t('entry.empty');
    if (has(`illegal.${name}`) && (err.status === 422 || !has(`error.${name}`))) return t(`illegal.${name}`);
    if (has(`error.${name}`)) return t(`error.${name}`);
    return t('error.unknown', { name });
  }

  // ---------------------------------------------------------------- state

  const app = {
    page: 'game',
    id: null,          // game id shown, or null on the start page
    token: null,       // this browser's token for the game, or null (watching)
    state: null,       // the last game state from the server
    selected: null,    // the selected cell
    hint: null,        // the engine's suggestion for this position ({move, from, to, win_in})
    hintPending: false, // a hint is being searched
    busy: false,       // a request is running: controls are disabled
    thinking: false,   // the computer is searching
    notice: null,      // {key, params}: a transient message (server busy)
    error: null,       // the last error ({name, status})
    info: [],          // [{key, params}]: what just happened (computer's move, captures)
    resignArmed: false,
    resignTimer: null,
    copyTimer: null,
    pollTimer: null,
    startSvg: null,
    boardKey: null,    // what the board currently shows (to avoid redrawing)
    generation: 0,     // bumped when the shown game changes; stale answers are dropped
    refocus: null,     // where the keyboard focus goes back once idle ('board' or an id)
    newGameError: null, // the error shown in the "New game" panel
  };

  function tokenKey(id) {
    return `agon-token:${id}`;
  }

  function readToken(id) {
    try {
      return localStorage.getItem(tokenKey(id));
    } catch (e) {
      return null;
    }
  }

  function parseMove(text) {
    const m = MOVE_RE.exec(text);
    return m ? { from: m[1], kind: m[2], to: m[3], text } : null;
  }

  // Pieces from the position text: cell -> {side, kind, captured}.
  function parsePieces(position) {
    const pieces = new Map();
    const board = String(position || '').split(' ')[0];
    for (const token of board.split(/[,/]/)) {
      const m = /^([QGqg])([a-l]\d{1,2})(\*?)$/.exec(token.trim());
      if (!m) continue;
      pieces.set(m[2], {
        side: m[1] === m[1].toUpperCase() ? 'white' : 'black',
        kind: m[1].toLowerCase() === 'q' ? 'queen' : 'guard',
        captured: m[3] === '*',
      });
    }
    return pieces;
  }

  function humanToMove() {
    const s = app.state;
    return !!(s && !s.outcome && !s.computer_to_move && s.to_move === s.human);
  }

  function interactive() {
    return !!(app.token && !app.busy && humanToMove());
  }

  // from-cell -> [{from, kind, to, text}]
  function legalMap() {
    const map = new Map();
    if (!app.state) return map;
    for (const text of app.state.legal_moves || []) {
      const mv = parseMove(text);
      if (!mv) continue;
      if (!map.has(mv.from)) map.set(mv.from, []);
      map.get(mv.from).push(mv);
    }
    return map;
  }

  function ownPieceAt(cell) {
    if (!app.state) return false;
    const p = parsePieces(app.state.position).get(cell);
    return !!(p && p.side === app.state.human);
  }

  // ---------------------------------------------------------------- board

  const board = () => $('board');

  function setBoard(svgText, key) {
    const el = board();
    if (!el) return;
    if (key && key === app.boardKey) return;
    const hadFocus = el.contains(document.activeElement);
    if (hadFocus && !app.refocus) app.refocus = 'board';
    el.innerHTML = svgText;
    app.boardKey = key || null;
    const svg = el.querySelector('svg');
    if (svg) {
      svg.removeAttribute('width');
      svg.removeAttribute('height');
      // The drawing's own title and label are the position text: the board container
      // carries a translated label instead, and the focusable pieces and cells their names.
      const title = svg.querySelector(':scope > title');
      if (title) title.remove();
      svg.removeAttribute('role');
      svg.removeAttribute('aria-label');
      for (const text of svg.querySelectorAll('text')) text.setAttribute('aria-hidden', 'true');
    }
    decorate();
  }

  function cellPolygon(cell) {
    return board().querySelector(`polygon.cell[data-cell="${cell}"]`);
  }

  function cellCentre(poly) {
    const nums = poly.getAttribute('points').trim().split(/[\s,]+/).map(Number);
    let x = 0;
    let y = 0;
    const n = nums.length / 2;
    for (let i = 0; i < nums.length; i += 2) {
      x += nums[i];
      y += nums[i + 1];
    }
    return { x: x / n, y: y / n };
  }

  function marksGroup(svg) {
    let g = svg.querySelector('g.ui-marks');
    if (!g) {
      g = document.createElementNS(SVG_NS, 'g');
      g.setAttribute('class', 'ui-marks');
      svg.appendChild(g);
    }
    return g;
  }

  function addOutline(g, poly, cls) {
    const p = document.createElementNS(SVG_NS, 'polygon');
    p.setAttribute('points', poly.getAttribute('points'));
    p.setAttribute('class', cls);
    g.appendChild(p);
    return p;
  }

  const DECOR = ['selected', 'target', 'movable', 'returnable', 'own'];

  function makeFocusable(el, cell) {
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    el.setAttribute('aria-label', t('a11y.cell', { cell }));
  }

  function decorate() {
    const el = board();
    const svg = el && el.querySelector('svg');
    if (!svg) return;
    for (const node of svg.querySelectorAll('[data-cell]')) {
      node.classList.remove(...DECOR);
      if (node.hasAttribute('tabindex')) {
        node.removeAttribute('tabindex');
        node.removeAttribute('role');
        node.removeAttribute('aria-label');
      }
    }
    const marks = marksGroup(svg);
    marks.textContent = '';
    el.classList.toggle('interactive', interactive());
    el.classList.toggle('readonly', !!(app.state && !app.token));
    if (!interactive()) return;

    const map = legalMap();
    const mustReturn = !!app.state.must_return;
    const moveClass = mustReturn ? 'returnable' : 'movable';
    const human = app.state.human;

    if (!mustReturn) {
      for (const g of svg.querySelectorAll(`g.piece.${human}[data-cell]`)) {
        if (!g.classList.contains('captured')) g.classList.add('own');
      }
    }
    for (const from of map.keys()) {
      for (const node of svg.querySelectorAll(`[data-cell="${from}"]`)) node.classList.add(moveClass);
      const piece = svg.querySelector(`g.piece[data-cell="${from}"]`);
      makeFocusable(piece || cellPolygon(from), from);
    }
    if (mustReturn) {
      for (const from of map.keys()) {
        const poly = cellPolygon(from);
        if (poly) addOutline(marks, poly, 'mark-returnable');
      }
    }
    if (app.hint) {
      const from = cellPolygon(app.hint.from);
      const to = cellPolygon(app.hint.to);
      if (from) addOutline(marks, from, 'mark-hint');
      if (to) addOutline(marks, to, 'mark-hint mark-hint-to');
      if (from && to && app.hint.from !== app.hint.to) {
        const a = cellCentre(from);
        const b = cellCentre(to);
        const line = document.createElementNS(SVG_NS, 'line');
        line.setAttribute('x1', a.x.toFixed(2));
        line.setAttribute('y1', a.y.toFixed(2));
        line.setAttribute('x2', b.x.toFixed(2));
        line.setAttribute('y2', b.y.toFixed(2));
        line.setAttribute('class', 'mark-hint-arrow');
        marks.appendChild(line);
      }
    }
    if (app.selected) {
      for (const node of svg.querySelectorAll(`[data-cell="${app.selected}"]`)) node.classList.add('selected');
      const spoly = cellPolygon(app.selected);
      if (spoly) addOutline(marks, spoly, 'mark-selected');
      for (const mv of map.get(app.selected) || []) {
        const poly = cellPolygon(mv.to);
        if (!poly) continue;
        for (const node of svg.querySelectorAll(`[data-cell="${mv.to}"]`)) node.classList.add('target');
        addOutline(marks, poly, 'mark-target');
        const c = cellCentre(poly);
        const dot = document.createElementNS(SVG_NS, 'circle');
        dot.setAttribute('cx', c.x.toFixed(2));
        dot.setAttribute('cy', c.y.toFixed(2));
        dot.setAttribute('r', '5.5');
        dot.setAttribute('class', 'mark-dot');
        marks.appendChild(dot);
        makeFocusable(poly, mv.to);
      }
    }
    const focused = document.activeElement;
    if (focused && el.contains(focused) && focused.dataset && focused.dataset.cell && isFocusVisible(focused)) {
      showFocusRing(focused.dataset.cell);
    }
  }

  function isFocusVisible(node) {
    try {
      return node.matches(':focus-visible');
    } catch (e) {
      return true;
    }
  }

  function showFocusRing(cell) {
    const svg = board().querySelector('svg');
    if (!svg) return;
    for (const old of svg.querySelectorAll('.mark-focus')) old.remove();
    if (!cell) return;
    const poly = cellPolygon(cell);
    if (poly) addOutline(marksGroup(svg), poly, 'mark-focus');
  }

  function onCell(cell) {
    if (!interactive()) return;
    const map = legalMap();
    const state = app.state;
    app.error = null;
    if (map.has(cell)) {
      app.selected = app.selected === cell ? null : cell;
      render();
      return;
    }
    if (state.must_return) {
      // Only the returnable pieces and their destinations can be clicked.
      const hit = app.selected && (map.get(app.selected) || []).find((mv) => mv.to === cell);
      if (hit) playMove(hit.text);
      return;
    }
    if (app.selected) {
      const hit = (map.get(app.selected) || []).find((mv) => mv.to === cell);
      if (hit) {
        playMove(hit.text);
      } else if (ownPieceAt(cell) && !parsePieces(state.position).get(cell).captured) {
        app.selected = cell;
        render();
      } else {
        // Not a marked cell: send it anyway, the server says why it is illegal.
        playMove(`${app.selected}-${cell}`);
      }
      return;
    }
    if (ownPieceAt(cell)) {
      app.selected = cell;
      render();
    }
  }

  function initBoardEvents() {
    const el = board();
    if (!el) return;
    el.addEventListener('click', (ev) => {
      const node = ev.target.closest('[data-cell]');
      if (!node || !el.contains(node)) return;
      onCell(node.dataset.cell);
    });
    el.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      const node = ev.target.closest('[data-cell]');
      if (!node || !el.contains(node)) return;
      ev.preventDefault();
      const cell = node.dataset.cell;
      onCell(cell);
      // After choosing a piece, go on to its first destination; otherwise keep the
      // keyboard user where they were after the redraw.
      const next = (app.selected === cell && el.querySelector('polygon.cell.target[tabindex="0"]')) ||
        el.querySelector(`[data-cell="${cell}"][tabindex="0"]`);
      if (next) next.focus();
    });
    el.addEventListener('focusin', (ev) => {
      const node = ev.target.closest && ev.target.closest('[data-cell]');
      showFocusRing(node && isFocusVisible(ev.target) ? node.dataset.cell : null);
    });
    el.addEventListener('focusout', () => showFocusRing(null));
  }

  // ---------------------------------------------------------------- actions

  function setBusy(on) {
    if (on) rememberFocus();
    app.busy = on;
    render();
  }

  // A control that is disabled while a request runs loses the keyboard focus: remember
  // it, and give the focus back (or to the move entry) once the page is idle again.
  function rememberFocus() {
    const a = document.activeElement;
    if (!a || a === document.body) return;
    if (board() && board().contains(a)) app.refocus = 'board';
    else if (a.id) app.refocus = a.id;
  }

  function restoreFocus() {
    if (!app.refocus || app.busy || app.thinking) return;
    const s = app.state;
    if (s && app.token && s.computer_to_move && !s.outcome) return; // its reply comes next
    const want = app.refocus;
    app.refocus = null;
    const usable = (el) => el && !el.disabled && !el.closest('[hidden]');
    if (want === 'board') {
      const first = board().querySelector('[tabindex="0"]');
      if (first) {
        first.focus();
        return;
      }
    }
    const el = want === 'board' ? null : $(want);
    for (const cand of [el, $('move-input'), $('new-game-btn')]) {
      if (usable(cand)) {
        cand.focus({ preventScroll: true });
        return;
      }
    }
  }

  function noteCaptures(state, byHuman) {
    const caps = state.last_captures || [];
    if (caps.length) {
      app.info.push({ key: byHuman ? 'status.you-captured' : 'status.computer-captured', params: { cells: caps.join(', ') } });
    }
  }

  function applyState(state) {
    const prev = app.state;
    app.state = state;
    if (!prev || prev.position !== state.position) {
      app.selected = null;
      app.hint = null;
    }
  }

  // The engine's suggestion for the person's move: shown on the board and in the status
  // line until the position changes. Asking changes nothing in the game.
  async function askHint() {
    if (!interactive() || app.hint) return;
    const gen = app.generation;
    const position = app.state.position;
    app.error = null;
    app.hintPending = true;
    setBusy(true);
    try {
      const hint = await post(`/api/games/${app.id}/hint`, { token: app.token }, true);
      if (gen !== app.generation || !app.state || app.state.position !== position) return;
      app.hint = hint;
    } catch (e) {
      if (gen !== app.generation) return;
      app.error = e;
      if (e.name === 'not-your-turn' || e.name === 'game-over') await refresh();
    } finally {
      if (gen === app.generation) {
        app.hintPending = false;
        app.busy = false;
        render();
      }
    }
  }

  function hintText(hint) {
    if (hint.win_in === 1) return t('status.hint-wins', { move: hint.move });
    if (hint.win_in) return t('status.hint-forced', { move: hint.move, n: hint.win_in });
    return t('status.hint', { move: hint.move });
  }

  async function playMove(text) {
    if (!app.state || !app.token) return;
    const id = app.id;
    const gen = app.generation;
    app.selected = null;
    app.error = null;
    app.info = [];
    disarmResign();
    setBusy(true);
    try {
      const state = await post(`/api/games/${id}/moves`, { token: app.token, move: text, reply: false });
      if (gen !== app.generation) return;
      applyState(state);
      noteCaptures(state, true);
    } catch (e) {
      if (gen !== app.generation) return;
      app.error = e;
      // The page's state was stale (another tab moved): take the server's.
      if (e.name === 'not-your-turn' || e.name === 'game-over') await refresh();
    }
    app.busy = false;
    render();
    await maybeComputer();
  }

  async function maybeComputer() {
    const s = app.state;
    if (!s || !app.token || s.outcome || !s.computer_to_move || app.thinking) return;
    const id = app.id;
    const gen = app.generation;
    rememberFocus();
    app.thinking = true;
    app.busy = true;
    render();
    try {
      const state = await post(`/api/games/${id}/computer`, { token: app.token }, true);
      if (gen !== app.generation) return;
      applyState(state);
      app.info = [];
      if (state.last_move) app.info.push({ key: 'status.computer-moved', params: { move: state.last_move } });
      noteCaptures(state, false);
    } catch (e) {
      if (gen !== app.generation) return;
      if (e.name === 'not-computer-turn' || e.name === 'game-over') {
        await refresh();
      } else {
        app.error = e;
      }
    } finally {
      if (gen === app.generation) {
        app.thinking = false;
        app.busy = false;
        render();
      }
    }
    // The computer may have to move again (it never does twice in a row today,
    // but a state is the only truth).
    if (gen === app.generation && app.state && app.state.computer_to_move && !app.error) {
      await maybeComputer();
    }
  }

  async function refresh() {
    if (!app.id) return;
    const gen = app.generation;
    try {
      const state = await api('GET', `/api/games/${app.id}`);
      if (gen !== app.generation) return;
      applyState(state);
    } catch (e) {
      if (gen !== app.generation) return;
      app.error = e;
    }
  }

  // Undo or resign: one request with the token, then the state it answers.
  async function tokenAction(action) {
    const gen = app.generation;
    app.error = null;
    app.info = [];
    disarmResign();
    setBusy(true);
    try {
      const state = await post(`/api/games/${app.id}/${action}`, { token: app.token });
      if (gen !== app.generation) return false;
      applyState(state);
    } catch (e) {
      if (gen !== app.generation) return false;
      app.error = e;
    }
    app.busy = false;
    render();
    return true;
  }

  async function undo() {
    if (!app.state || !app.token || app.busy) return;
    if (await tokenAction('undo')) await maybeComputer();
  }

  function disarmResign() {
    app.resignArmed = false;
    if (app.resignTimer) clearTimeout(app.resignTimer);
    app.resignTimer = null;
  }

  async function resign() {
    if (!app.state || !app.token || app.busy || app.state.outcome) return;
    if (!app.resignArmed) {
      app.resignArmed = true;
      app.resignTimer = setTimeout(() => {
        disarmResign();
        render();
      }, 6000);
      render();
      return;
    }
    await tokenAction('resign');
  }

  async function copyPosition() {
    if (!app.state) return;
    const input = $('position-text');
    const note = $('copy-note');
    let copied = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(app.state.position);
        copied = true;
      }
    } catch (e) {
      copied = false;
    }
    if (!copied) {
      input.focus();
      input.select();
    }
    note.dataset.key = copied ? 'actions.copied' : 'actions.copy-manual';
    note.textContent = t(note.dataset.key);
    note.hidden = false;
    if (app.copyTimer) clearTimeout(app.copyTimer);
    app.copyTimer = setTimeout(() => {
      note.hidden = true;
      delete note.dataset.key;
    }, 5000);
  }

  async function createGame(ev) {
    ev.preventDefault();
    if (app.busy) return;
    const form = $('new-game');
    const side = form.elements.side.value || 'white';
    const level = form.elements.level.value || 'easy';
    const errEl = $('new-game-error');
    errEl.hidden = true;
    app.newGameError = null;
    // Playing Black (perhaps by lot), the computer makes the first move right away.
    app.thinking = side !== 'white';
    setBusy(true);
    let answer;
    try {
      answer = await post('/api/games', { side, level });
    } catch (e) {
      app.busy = false;
      app.thinking = false;
      app.newGameError = e;
      render();
      return;
    }
    try {
      localStorage.setItem(tokenKey(answer.id), answer.token);
      localStorage.setItem('agon-last-game', answer.id);
    } catch (e) {
      // Private mode without storage: the game still works until the page is left.
    }
    history.pushState({ game: answer.id }, '', `/g/${answer.id}`);
    enterGame(answer.id, answer.token);
    app.state = answer.state;
    app.busy = false;
    if (answer.state.last_move) {
      app.info.push({ key: 'status.computer-moved', params: { move: answer.state.last_move } });
    }
    render();
    await maybeComputer();
  }

  // ---------------------------------------------------------------- routing

  function enterGame(id, token) {
    app.generation++;
    app.id = id;
    app.token = token || null;
    app.state = null;
    app.selected = null;
    app.error = null;
    app.info = [];
    app.thinking = false;
    app.busy = false;
    app.boardKey = null;
    disarmResign();
    stopPolling();
  }

  async function showStart() {
    enterGame(null, null);
    render();
    if (!app.startSvg) {
      try {
        const res = await fetch(`/api/board.svg?position=${encodeURIComponent(START_POSITION)}`);
        if (res.ok) app.startSvg = await res.text();
      } catch (e) {
        app.startSvg = null;
      }
    }
    if (!app.id && app.startSvg) setBoard(app.startSvg, 'start');
  }

  async function openGame(id) {
    enterGame(id, readToken(id));
    const gen = app.generation;
    render();
    try {
      const state = await api('GET', `/api/games/${id}`);
      if (gen !== app.generation) return;
      app.state = state;
      if (app.token) {
        try {
          localStorage.setItem('agon-last-game', id);
        } catch (e) {
          // ignore
        }
      }
    } catch (e) {
      if (gen !== app.generation) return;
      app.error = e;
      if (e.name === 'unknown-game') {
        app.id = null;
        app.newGameError = e;
        await showStartKeepingError(e);
        return;
      }
    }
    render();
    await maybeComputer();
    schedulePoll();
  }

  async function showStartKeepingError(e) {
    await showStart();
    app.newGameError = e;
    render();
  }

  function route() {
    const m = /^\/g\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
    if (m) {
      openGame(m[1]);
    } else {
      app.newGameError = null;
      showStart();
    }
  }

  // A watcher sees the game move on without reloading.
  function schedulePoll() {
    stopPolling();
    if (!app.id || app.token || !app.state || app.state.outcome) return;
    const gen = app.generation;
    app.pollTimer = setTimeout(async () => {
      if (gen !== app.generation) return;
      if (!document.hidden) {
        try {
          const state = await api('GET', `/api/games/${app.id}`);
          if (gen !== app.generation) return;
          if (state.position !== app.state.position || JSON.stringify(state.outcome) !== JSON.stringify(app.state.outcome) ||
              state.moves.length !== app.state.moves.length) {
            app.state = state;
            render();
          }
        } catch (e) {
          // keep polling quietly
        }
      }
      schedulePoll();
    }, WATCH_POLL_MS);
  }

  function stopPolling() {
    if (app.pollTimer) clearTimeout(app.pollTimer);
    app.pollTimer = null;
  }

  // ---------------------------------------------------------------- render

  function show(el, on) {
    if (el) el.hidden = !on;
  }

  function setText(el, text) {
    if (el && el.textContent !== text) el.textContent = text;
  }

  function render() {
    if (app.page !== 'game') return;
    const s = app.state;
    const inGame = !!app.id;
    show($('new-game'), !inGame);
    show($('game'), inGame && !!s);
    show($('loading'), inGame && !s && !app.error);

    // New game panel
    const startBtn = $('start-btn');
    if (startBtn) startBtn.disabled = app.busy;
    const ngErr = $('new-game-error');
    if (ngErr) {
      show(ngErr, !inGame && !!app.newGameError);
      if (app.newGameError) {
        setText(ngErr, app.newGameError.name === 'unknown-game' ? t('game.not-found') : errorText(app.newGameError));
      }
    }
    let last = null;
    try {
      last = localStorage.getItem('agon-last-game');
    } catch (e) {
      last = null;
    }
    const contRow = $('continue-row');
    if (contRow) {
      const ok = !inGame && last && readToken(last) && !(app.newGameError && app.newGameError.name === 'unknown-game');
      show(contRow, !!ok);
      if (ok) $('continue-link').setAttribute('href', `/g/${last}`);
    }

    // Thinking indicator (under the board)
    show($('thinking'), app.thinking);
    board().classList.toggle('is-thinking', app.thinking);

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

    setBoard(s.svg, `${app.id}:${s.moves.length}:${s.position}:${s.last_move}`);
    decorate();

    const watching = !app.token;
    const human = s.human;
    setText($('game-info'), watching
      ? t('game.players', { side: t(`side.${human}`), level: t(`level.${s.level}`) })
      : t('game.you-play', { side: t(`side.${human}`), level: t(`level.${s.level}`) }));
    show($('watch-note'), watching);
    document.body.classList.toggle('watching', watching);

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
      const reasonKey = outcome.reason === 'resignation' && !watching ? 'reason.you-resigned' : `reason.${outcome.reason}`;
      setText($('outcome-reason'), t(reasonKey));
    }

    // Status line
    const map = legalMap();
    const lines = [];
    if (app.notice) {
      lines.push(t(app.notice.key, app.notice.params));
    } else if (outcome) {
      // The outcome box says how it ended; say what the computer's last move was.
      if (!watching) for (const i of app.info) lines.push(t(i.key, i.params));
    } else if (app.thinking) {
      for (const i of app.info) lines.push(t(i.key, i.params));
      lines.push(t('status.thinking'));
    } else if (watching) {
      lines.push(t(s.to_move === 'white' ? 'status.white-to-move' : 'status.black-to-move'));
      if (s.must_return && s.to_move !== human) lines.push(t('return.computer'));
    } else if (s.computer_to_move) {
      lines.push(t('status.computer-turn'));
    } else if (app.hintPending) {
      lines.push(t('status.hint-thinking'));
    } else if (app.busy) {
      lines.push(t('status.sending'));
    } else if (s.must_return) {
      for (const i of app.info) lines.push(t(i.key, i.params));
      const pieces = parsePieces(s.position);
      lines.push(app.selected
        ? t('return.selected', { piece: `${t(`piece.${(pieces.get(app.selected) || {}).kind || 'guard'}`)} ${app.selected}` })
        : t('return.choose'));
    } else {
      for (const i of app.info) lines.push(t(i.key, i.params));
      if (app.hint) lines.push(hintText(app.hint));
      if (app.selected) {
        lines.push(t(map.has(app.selected) ? 'status.selected' : 'status.no-moves', { cell: app.selected }));
      } else {
        lines.push(t('status.your-turn'));
      }
    }
    setText($('status'), lines.join(' '));
    show($('status'), lines.length > 0);

    // Return box: the human must return a piece
    const mustReturnNow = !watching && !outcome && s.must_return && s.to_move === human;
    show($('return-box'), mustReturnNow);
    if (mustReturnNow) {
      const pieces = parsePieces(s.position);
      const froms = [...map.keys()];
      const queenFirst = froms.some((c) => (pieces.get(c) || {}).kind === 'queen');
      setText($('return-explain'), queenFirst ? `${t('return.explain')} ${t('return.queen-first')}` : t('return.explain'));
      const list = froms.map((c) => `${t(`piece.${(pieces.get(c) || {}).kind || 'guard'}`)} ${c}`).join(', ');
      setText($('return-pieces'), t('return.pieces', { pieces: list }));
      setText($('return-where'), t(queenFirst ? 'return.where-queen' : 'return.where-guard'));
    }

    // Error line
    show($('error'), !!app.error);
    if (app.error) setText($('error'), errorText(app.error));

    // Move entry and actions
    const canPlay = interactive();
    show($('entry-form'), !watching && !outcome);
    $('move-input').disabled = !canPlay;
    $('entry-btn').disabled = !canPlay;
    show($('actions'), !watching);
    $('undo-btn').disabled = app.busy || !s.can_undo;
    show($('hint-btn'), !outcome);
    $('hint-btn').disabled = !canPlay || !!app.hint;
    const resignBtn = $('resign-btn');
    show(resignBtn, !outcome);
    resignBtn.disabled = app.busy || !!outcome;
    setText(resignBtn, t(app.resignArmed ? 'actions.resign-confirm' : 'actions.resign'));
    resignBtn.classList.toggle('armed', app.resignArmed);
    show($('resign-cancel'), app.resignArmed && !outcome);

    // Move list: numbered pairs, White's move first.
    renderMoves(s);
    const captured = s.captured || [];
    show($('captured-list'), captured.length > 0);
    if (captured.length) setText($('captured-list'), t('status.captured-list', { cells: captured.join(', ') }));

    // Tools
    $('record-link').setAttribute('href', `/api/games/${app.id}/record`);
    $('position-text').value = s.position;
    const note = $('copy-note');
    if (note && note.dataset.key) setText(note, t(note.dataset.key));
    restoreFocus();
  }

  function renderMoves(s) {
    const list = $('moves');
    const moves = s.moves || [];
    show($('moves-empty'), moves.length === 0);
    const key = `${moves.join(' ')}|${s.to_move}`;
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.textContent = '';
    // Who made the first move: moves alternate, so count back from the side to move.
    const first = moves.length % 2 === 0 ? s.to_move : other(s.to_move);
    const rows = [];
    let i = 0;
    let num = 1;
    if (first === 'black' && moves.length) {
      rows.push([num++, null, 0]);
      i = 1;
    }
    for (; i < moves.length; i += 2) rows.push([num++, i, i + 1 < moves.length ? i + 1 : null]);
    const cell = (index, side) => {
      const span = document.createElement('span');
      span.className = `mv mv-${side}`;
      span.setAttribute('dir', 'ltr');
      if (index === null || index === undefined || index >= moves.length) {
        span.classList.add('mv-none');
        span.textContent = rows.length && side === 'white' ? '…' : '';
        return span;
      }
      span.textContent = moves[index];
      if (index === moves.length - 1) span.classList.add('last');
      span.classList.add(side === s.human ? 'by-human' : 'by-computer');
      return span;
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
    list.scrollTop = list.scrollHeight;
  }

  // ---------------------------------------------------------------- init

  function initGamePage() {
    initBoardEvents();
    $('new-game').addEventListener('submit', createGame);
    $('entry-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const input = $('move-input');
      const text = input.value.trim().toLowerCase().replace(/\s+/g, '');
      if (!interactive()) return;
      if (!text) {
        app.error = { name: 'empty-entry' };
        render();
        return;
      }
      input.value = '';
      playMove(text);
    });
    $('hint-btn').addEventListener('click', askHint);
    $('undo-btn').addEventListener('click', undo);
    $('resign-btn').addEventListener('click', resign);
    $('resign-cancel').addEventListener('click', () => {
      disarmResign();
      render();
      $('resign-btn').focus();
    });
    $('copy-btn').addEventListener('click', copyPosition);
    $('new-game-btn').addEventListener('click', () => {
      history.pushState({}, '', '/');
      app.newGameError = null;
      showStart();
      const first = document.querySelector('#new-game input:checked');
      if (first) first.focus();
    });
    $('continue-link').addEventListener('click', (ev) => {
      ev.preventDefault();
      const href = $('continue-link').getAttribute('href');
      history.pushState({}, '', href);
      route();
    });
    window.addEventListener('popstate', route);
    route();
  }

  async function initRulesPage() {
    let last = null;
    try {
      last = localStorage.getItem('agon-last-game');
    } catch (e) {
      last = null;
    }
    if (last && readToken(last)) {
      for (const a of document.querySelectorAll('.back a')) a.setAttribute('href', `/g/${last}`);
    }
    const fig = $('rules-board');
    if (fig) {
      try {
        const res = await fetch(`/api/board.svg?position=${encodeURIComponent(START_POSITION)}`);
        if (res.ok) {
          fig.innerHTML = await res.text();
          const svg = fig.querySelector('svg');
          if (svg) {
            svg.removeAttribute('width');
            svg.removeAttribute('height');
          }
        }
      } catch (e) {
        // the picture is a bonus
      }
    }
  }

  async function init() {
    app.page = document.body.dataset.page || 'game';
    await initStrings();
    if (document.documentElement.dir === 'rtl') applyStatic();
    if (app.page === 'game') initGamePage();
    else initRulesPage();
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', init);
  } else {
    init();
  }
})();
