// The page's strings: every visible text comes from the catalogue of the page's language
// (/i18n/{lang}.json), English filling any gap. Move notation is not translated.

import { app, redraw } from './state.js';

/** @typedef {Record<string, string>} Catalogue */

/** @type {Catalogue} */
let strings = {};
/** @type {Catalogue} */
let fallback = {};
/** @type {Map<string, Catalogue>} */
const catalogues = new Map();

// The parameters that hold a move: in right-to-left text a move like f4>l1 would be
// reordered (and its > mirrored), so each is kept a left-to-right island with the Unicode
// isolates LRI ... PDI. (The catalogues isolate the moves in their own text.)
const MOVE_PARAMS = new Set(['move']);

/** @param {Catalogue} cat @param {string} key */
const own = (cat, key) => Object.prototype.hasOwnProperty.call(cat, key);

/** Whether the catalogue (or English) has `key`. */
export function has(/** @type {string} */ key) {
  return own(strings, key) || own(fallback, key);
}

/**
 * The text of `key` with its `{name}` parameters filled in.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params) {
  let s = strings[key];
  if (typeof s !== 'string' || s === '') s = fallback[key];
  if (typeof s !== 'string') s = key;
  if (params) {
    const rtl = document.documentElement.dir === 'rtl';
    s = s.replace(/\{(\w+)\}/g, (m, /** @type {string} */ name) => {
      if (!Object.prototype.hasOwnProperty.call(params, name)) return m;
      const value = String(params[name]);
      return rtl && MOVE_PARAMS.has(name) ? `\u2066${value}\u2069` : value;
    });
  }
  return s;
}

/** @param {string} lang @returns {Promise<Catalogue>} */
async function loadCatalogue(lang) {
  const known = catalogues.get(lang);
  if (known) return known;
  const res = await fetch(`/i18n/${lang}.json`, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`catalogue ${lang}: ${res.status}`);
  /** @type {Catalogue} */
  const cat = await res.json();
  catalogues.set(lang, cat);
  return cat;
}

/** @returns {HTMLSelectElement | null} */
const languageSelect = () => /** @type {HTMLSelectElement | null} */ (document.getElementById('lang-select'));

/** The page's languages, as the server lists them in the language switch. */
export function languages() {
  const select = languageSelect();
  return select ? [...select.options].map((o) => o.value) : ['en'];
}

function currentLang() {
  const lang = document.documentElement.lang;
  return languages().includes(lang) ? lang : 'en';
}

/** Puts the catalogue's text into the elements marked data-i18n and data-i18n-attr. */
export function applyStatic() {
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const key = /** @type {HTMLElement} */ (el).dataset.i18n;
    if (key && has(key)) el.textContent = t(key);
  }
  for (const el of document.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of /** @type {HTMLElement} */ (el).dataset.i18nAttr?.split(';') ?? []) {
      const [attr, key] = pair.split(':').map((x) => x && x.trim());
      if (attr && key && has(key)) el.setAttribute(attr, t(key));
    }
  }
}

/** Switches the page to `lang` without a reload, and keeps the choice in a cookie. */
async function switchLang(/** @type {string} */ lang) {
  if (!languages().includes(lang)) return;
  document.cookie = `agon_lang=${lang}; path=/; max-age=31536000; SameSite=Lax`;
  let cat;
  try {
    cat = await loadCatalogue(lang);
  } catch {
    app.error = { name: 'network' };
    redraw();
    return;
  }
  strings = cat;
  document.documentElement.lang = lang;
  document.documentElement.dir = cat['meta.dir'] === 'rtl' ? 'rtl' : 'ltr';
  const select = languageSelect();
  if (select) select.value = lang;
  // A ?lang= in the address would override the cookie on the next load.
  const url = new URL(location.href);
  if (url.searchParams.has('lang')) {
    url.searchParams.delete('lang');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
  applyStatic();
  redraw();
}

/** Loads the page's catalogue (and English) and sets up the language switch. */
export async function initStrings() {
  const lang = currentLang();
  const select = languageSelect();
  if (select) {
    select.value = lang;
    select.addEventListener('change', () => switchLang(select.value));
  }
  try {
    fallback = await loadCatalogue('en');
  } catch {
    fallback = {};
  }
  try {
    strings = lang === 'en' ? fallback : await loadCatalogue(lang);
  } catch {
    strings = fallback;
  }
}
