// The account page (/account) and the header's "Sign in" link: sign up with a passkey
// (then the recovery codes, shown once), sign in with a passkey or a recovery code, and
// the signed-in view (passkeys, new codes, sign out, delete). An account is optional:
// nothing else on the site asks for one.

import { api, ApiError } from './api.js';
import { t, has } from './i18n.js';
import { onRedraw, lastGame, readToken } from './state.js';

// The signed-in name as this browser last saw it, so that other pages can show it in
// the header without asking the server (the session cookie is HttpOnly).
const SEEN = 'agon_account';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));

/** @returns {string | null} */
function seenName() {
  try {
    return localStorage.getItem(SEEN);
  } catch {
    return null;
  }
}

/** @param {string | null} name */
function keepSeen(name) {
  try {
    if (name) localStorage.setItem(SEEN, name);
    else localStorage.removeItem(SEEN);
  } catch {
    // Storage refused (private mode): the header just says "Sign in".
  }
  showInHeader(name);
}

/** The header's link: the username when signed in, else "Sign in". */
function showInHeader(/** @type {string | null} */ name) {
  const link = document.getElementById('account-link');
  if (!link) return;
  if (name) {
    // Not translated: taken out of the language switch's reach.
    delete link.dataset.i18n;
    link.textContent = name;
  } else {
    link.dataset.i18n = 'header.account';
    link.textContent = t('header.account');
  }
}

/** @type {Promise<string | null> | null} */
let checked = null;

/** The name this browser saw signed in, checked with the server once a page. */
async function check() {
  const name = seenName();
  if (!name) return null;
  showInHeader(name);
  try {
    const me = await api('GET', '/api/me');
    keepSeen(me.username);
    return me.username;
  } catch (e) {
    // The session ended (or the account went): back to "Sign in". A lost connection
    // says nothing about the session.
    if (e instanceof ApiError && e.status === 401) {
      keepSeen(null);
      return null;
    }
    return name;
  }
}

/**
 * Who is signed in in this browser (null: a guest), asked of the server at most once a
 * page; a browser that never signed in asks nothing.
 * @returns {Promise<string | null>}
 */
export function signedIn() {
  if (!checked) checked = check();
  return checked;
}

/** The header on every page: the name this browser saw signed in, checked with the server. */
export async function initAccountLink() {
  if (document.body.dataset.page === 'account') return;
  await signedIn();
}

// ---------------------------------------------------------------- messages

/** @param {string} text */
function say(text) {
  $('account-status').textContent = text;
}

/** Shows the error of a failed step, in the page's language. */
function fail(/** @type {unknown} */ e) {
  let name = 'unknown';
  if (e instanceof ApiError) name = e.status === 429 ? 'rate-limited' : e.name;
  // The browser's own refusals: the person cancelled, or the time ran out.
  else if (e instanceof DOMException && (e.name === 'NotAllowedError' || e.name === 'AbortError')) name = 'cancelled';
  else if (e instanceof DOMException && e.name === 'InvalidStateError') name = 'passkey-taken';
  const key = `account.error.${name}`;
  const box = $('account-error');
  box.textContent = has(key) ? t(key) : t('account.error.unknown');
  box.hidden = false;
  say('');
}

function clearMessages() {
  $('account-error').hidden = true;
  say('');
}

// ---------------------------------------------------------------- WebAuthn

const passkeysWork = () => typeof PublicKeyCredential !== 'undefined'
  && typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function';

/**
 * A new passkey from the server's creation options, as the JSON the server reads.
 * @param {any} options
 */
async function createPasskey(options) {
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey ?? options);
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.create({ publicKey }));
  if (!credential) throw new DOMException('no passkey', 'NotAllowedError');
  return credential.toJSON();
}

/**
 * An assertion of one of the site's passkeys (the browser lets the person choose).
 * @returns {Promise<any>}
 */
async function usePasskey() {
  const { options } = await api('POST', '/api/account/signin/options');
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey ?? options);
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.get({ publicKey }));
  if (!credential) throw new DOMException('no passkey', 'NotAllowedError');
  return credential.toJSON();
}

// ---------------------------------------------------------------- views

/** @typedef {'signed-out' | 'codes' | 'signed-in'} View */

/** Shows one of the page's three views and moves the focus to its heading. */
function show(/** @type {View} */ view, focus = true) {
  for (const id of ['signed-out', 'codes', 'signed-in']) $(id).hidden = id !== view;
  const heading = { 'signed-out': 'account-title', codes: 'codes-title', 'signed-in': 'me-title' }[view];
  if (focus) $(heading).focus();
}

/** @param {number} ms */
const day = (ms) => new Date(ms).toLocaleDateString(document.documentElement.lang || undefined, { dateStyle: 'medium' });

/** The signed-in view, filled from the server. */
async function showMe(focus = true) {
  let me;
  let list;
  try {
    me = await api('GET', '/api/me');
    list = await api('GET', '/api/account/passkeys');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      keepSeen(null);
      show('signed-out', focus);
    } else {
      fail(e);
    }
    return;
  }
  keepSeen(me.username);
  $('me-title').textContent = t('account.signed-in-as', { name: me.username });
  $('codes-left').textContent = t('account.codes.left', { count: me.recovery_codes_left });
  const ul = $('passkey-list');
  ul.replaceChildren();
  for (const p of list.passkeys) {
    const li = document.createElement('li');
    const name = document.createElement('span');
    name.className = 'passkey-name';
    name.textContent = p.name;
    const when = document.createElement('span');
    when.className = 'account-help';
    when.textContent = t('account.passkeys.created', { date: day(p.created_ms) })
      + (p.last_used_ms ? ` · ${t('account.passkeys.used', { date: day(p.last_used_ms) })}` : '');
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'btn btn-small';
    remove.textContent = t('account.passkeys.remove');
    remove.setAttribute('aria-label', t('account.passkeys.remove-label', { name: p.name }));
    remove.addEventListener('click', () => removePasskey(p.id));
    li.append(name, when, remove);
    ul.append(li);
  }
  show('signed-in', focus);
}

/** Shows the recovery codes, once; the person confirms they kept them. */
function showCodes(/** @type {string[]} */ codes) {
  const list = $('codes-list');
  list.replaceChildren(...codes.map((code) => {
    const li = document.createElement('li');
    li.textContent = code;
    return li;
  }));
  const saved = input('codes-saved');
  saved.checked = false;
  button('codes-done').disabled = true;
  show('codes');
}

// ---------------------------------------------------------------- steps

/**
 * After a sign-in: the game this browser plays as a guest (its last, token held) becomes
 * the account's. Whether it did.
 * @returns {Promise<boolean>}
 */
async function claimLastGame() {
  const id = lastGame();
  const token = id ? readToken(id) : null;
  if (!id || !token) return false;
  try {
    await api('POST', `/api/games/${encodeURIComponent(id)}/claim`, { token });
    return true;
  } catch {
    // Over, or claimed by another account: the game stays as it was.
    return false;
  }
}

/**
 * Runs a step with its buttons off, its error shown.
 * @param {HTMLButtonElement | null} control
 * @param {() => Promise<void>} step
 */
async function run(control, step) {
  clearMessages();
  if (control) control.disabled = true;
  try {
    await step();
  } catch (e) {
    fail(e);
  } finally {
    if (control) control.disabled = false;
  }
}

/** @param {Event} e */
function submitter(e) {
  return /** @type {HTMLButtonElement | null} */ (/** @type {HTMLFormElement} */ (e.target).querySelector('button[type=submit]'));
}

async function signUp(/** @type {SubmitEvent} */ e) {
  e.preventDefault();
  await run(submitter(e), async () => {
    const username = input('signup-username').value.trim();
    const { options } = await api('POST', '/api/account/signup/options', { username });
    const credential = await createPasskey(options);
    const done = await api('POST', '/api/account/signup', { credential });
    keepSeen(done.username);
    input('signup-username').value = '';
    const claimed = await claimLastGame();
    showCodes(done.recovery_codes);
    if (claimed) say(t('account.claimed'));
  });
}

async function signIn() {
  await run(button('signin-passkey'), async () => {
    const credential = await usePasskey();
    const done = await api('POST', '/api/account/signin', { credential });
    keepSeen(done.username);
    const claimed = await claimLastGame();
    await showMe();
    if (claimed) say(t('account.claimed'));
  });
}

async function recover(/** @type {SubmitEvent} */ e) {
  e.preventDefault();
  await run(submitter(e), async () => {
    const username = input('recover-username').value.trim();
    const code = input('recover-code').value.trim();
    const done = await api('POST', '/api/account/recover', { username, code });
    keepSeen(done.username);
    input('recover-code').value = '';
    const claimed = await claimLastGame();
    await showMe();
    say(claimed ? `${t('account.recovered')} ${t('account.claimed')}` : t('account.recovered'));
  });
}

async function addPasskey(/** @type {SubmitEvent} */ e) {
  e.preventDefault();
  await run(submitter(e), async () => {
    const name = input('passkey-name').value.trim();
    const { options } = await api('POST', '/api/account/passkeys/options');
    const credential = await createPasskey(options);
    await api('POST', '/api/account/passkeys', name ? { credential, name } : { credential });
    input('passkey-name').value = '';
    await showMe(false);
    say(t('account.passkeys.added'));
  });
}

async function removePasskey(/** @type {string} */ id) {
  await run(null, async () => {
    await api('DELETE', `/api/account/passkeys/${encodeURIComponent(id)}`);
    await showMe(false);
    $('passkeys-title').setAttribute('tabindex', '-1');
    $('passkeys-title').focus();
    say(t('account.passkeys.removed'));
  });
}

async function newCodes() {
  await run(button('new-codes'), async () => {
    const done = await api('POST', '/api/account/recovery-codes');
    showCodes(done.recovery_codes);
  });
}

/** @param {string} path */
async function signOut(path) {
  await api('POST', path);
  keepSeen(null);
  show('signed-out');
  say(t('account.signed-out'));
}

async function deleteAccount() {
  if (!input('delete-confirm').checked) return;
  await run(button('delete-account'), async () => {
    const credential = await usePasskey();
    await api('DELETE', '/api/account', { credential });
    input('delete-confirm').checked = false;
    keepSeen(null);
    show('signed-out');
    say(t('account.deleted'));
  });
}

/** The account page. */
export async function initAccountPage() {
  document.getElementById('account-link')?.setAttribute('aria-current', 'page');
  if (!passkeysWork()) {
    $('no-passkeys').hidden = false;
    for (const id of ['signin-passkey']) button(id).disabled = true;
    for (const form of ['signup-form', 'add-passkey-form']) {
      const b = /** @type {HTMLButtonElement} */ ($(form).querySelector('button'));
      b.disabled = true;
    }
  }
  $('signup-form').addEventListener('submit', (e) => signUp(/** @type {SubmitEvent} */ (e)));
  $('recover-form').addEventListener('submit', (e) => recover(/** @type {SubmitEvent} */ (e)));
  $('add-passkey-form').addEventListener('submit', (e) => addPasskey(/** @type {SubmitEvent} */ (e)));
  button('signin-passkey').addEventListener('click', signIn);
  button('new-codes').addEventListener('click', newCodes);
  button('signout').addEventListener('click', () => run(button('signout'), () => signOut('/api/account/signout')));
  button('signout-everywhere').addEventListener('click', () => run(button('signout-everywhere'), () => signOut('/api/account/signout-everywhere')));
  button('delete-account').addEventListener('click', deleteAccount);
  input('delete-confirm').addEventListener('change', () => {
    button('delete-account').disabled = !input('delete-confirm').checked;
  });
  input('codes-saved').addEventListener('change', () => {
    button('codes-done').disabled = !input('codes-saved').checked;
  });
  button('codes-done').addEventListener('click', () => {
    // The codes leave the page: they are not shown again.
    $('codes-list').replaceChildren();
    showMe();
  });
  button('codes-copy').addEventListener('click', async () => {
    const codes = [...$('codes-list').querySelectorAll('li')].map((li) => li.textContent).join('\n');
    try {
      await navigator.clipboard.writeText(codes);
      say(t('account.codes.copied'));
    } catch {
      // No clipboard (permission refused): the codes are on screen to copy by hand.
    }
  });
  // A switch of language redraws the texts the script wrote (the name, the counts, dates).
  onRedraw(() => {
    if (!$('signed-in').hidden) showMe(false);
  });
  await showMe(false);
}
