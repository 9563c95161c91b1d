// Rule sets (RULES.md section 8) on the page: the "New game" panel's preset and options,
// composed into the text form the server takes, and a rule set described for people.
// The options, their values and each preset's values come from the server, written into
// the panel's controls (data-rule, data-preset-NAME).

import { t } from './i18n.js';

/** @typedef {{option: string, value: string}} RuleOption */
/** @typedef {{preset: string, options: RuleOption[], values: RuleOption[]}} RulesParts */

/** @returns {HTMLSelectElement | null} */
const presetSelect = () => /** @type {HTMLSelectElement | null} */ (document.getElementById('rules-preset'));

/** The panel's option controls: a select for each option, a number input for the limit. */
function controls() {
  return /** @type {(HTMLSelectElement | HTMLInputElement)[]} */ ([...document.querySelectorAll('#new-game [data-rule]')]);
}

/** A control's value as the text form writes it (an empty limit is `none`). */
function valueOf(/** @type {HTMLSelectElement | HTMLInputElement} */ el) {
  const v = el.value.trim();
  return el.dataset.rule === 'limit' && v === '' ? 'none' : v;
}

/** The value of a control's option in `preset`, as the text form writes it. */
function presetValue(/** @type {HTMLElement} */ el, /** @type {string} */ preset) {
  const v = el.getAttribute(`data-preset-${preset}`) || '';
  return el.dataset.rule === 'limit' && v === '' ? 'none' : v;
}

/** The preset chosen in the panel. */
function chosenPreset() {
  const select = presetSelect();
  return select ? select.value : 'standard';
}

/**
 * The rule set chosen in the panel: the preset and the options that differ from it.
 * @returns {{preset: string, options: RuleOption[]}}
 */
export function chosenRules() {
  const preset = chosenPreset();
  const options = [];
  for (const el of controls()) {
    const value = valueOf(el);
    if (el.dataset.rule && value !== presetValue(el, preset)) options.push({ option: el.dataset.rule, value });
  }
  return { preset, options };
}

/** The chosen rule set in the text form: `standard`, `ludii+capture=same-ring`. */
export function rulesText() {
  const { preset, options } = chosenRules();
  return preset + options.map((o) => `+${o.option}=${o.value}`).join('');
}

/** A value of an option, for people: "same ring only", "300 moves". */
export function valueName(/** @type {string} */ option, /** @type {string} */ value) {
  if (option === 'limit') return value === 'none' ? t('rule.limit.none') : t('rule.limit.plies', { n: value });
  return t(`rule.${option}.${value}`);
}

/**
 * A rule set for people: "Ludii", or "Standard, with capture: only along a ring; move
 * limit: 300 moves".
 * @param {{preset: string, options: RuleOption[]}} parts
 */
export function rulesPhrase(parts) {
  const preset = t(`preset.${parts.preset}`);
  if (!parts.options.length) return preset;
  // Mid-sentence, each option is named by its `rules.change.` form (no capital where the
  // language writes none): `rule.OPTION` is a label, capitalised.
  const changes = parts.options.map((o) => `${t(`rules.change.${o.option}`)}: ${valueName(o.option, o.value)}`);
  return t('rules.with-changes', { preset, changes: changes.join(t('rules.list-separator')) });
}

/** The value of `option` in a state's rule set (the standard value if it is not listed). */
export function ruleValue(/** @type {RulesParts | undefined} */ parts, /** @type {string} */ option) {
  const found = parts && parts.values.find((v) => v.option === option);
  return found ? found.value : '';
}

/** Shows the panel's choice: the changed options marked, the summary and the text form. */
export function renderRulesChoice() {
  const preset = chosenPreset();
  for (const el of controls()) {
    const row = el.closest('.rule-row');
    if (row) row.classList.toggle('changed', valueOf(el) !== presetValue(el, preset));
  }
  const parts = chosenRules();
  const summary = document.getElementById('rules-summary');
  if (summary) {
    const text = parts.options.length ? rulesPhrase(parts) : t(`new-game.rules.about-${preset}`);
    if (summary.textContent !== text) summary.textContent = text;
  }
  const code = document.getElementById('rules-text');
  if (code) code.textContent = rulesText();
}

/** Sets every option to the chosen preset's value. */
function applyPreset() {
  const preset = chosenPreset();
  for (const el of controls()) el.value = el.getAttribute(`data-preset-${preset}`) || '';
  renderRulesChoice();
}

/** Wires the panel's rule-set controls. */
export function initRulesChoice() {
  const select = presetSelect();
  if (!select) return;
  select.addEventListener('change', applyPreset);
  for (const el of controls()) {
    el.addEventListener('input', renderRulesChoice);
    el.addEventListener('change', renderRulesChoice);
  }
  // A reload may keep the browser's form values: show what they are.
  renderRulesChoice();
}
