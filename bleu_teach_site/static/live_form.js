// A live widget's form (the forms bleu_teach_site/live.py widget_html writes): reading its controls into the
// values Python takes, putting values back into them, its reference boxes (added, removed, set) and its steps.
// Nothing here calls Python or keeps anything; explorer.js uses it too.

/**
 * A live widget's form (live.py widget_html: its explorer's name and saved values in data-widget and data-state),
 * with what the lesson page keeps on it: the example's state (set for each form as the page starts,
 * live_widgets.js), the state drawn last, and whether a render is running, asked again or scheduled.
 * @typedef {HTMLFormElement & {
 *   dataset: DOMStringMap & { widget: string, state: string },
 *   exampleState: string, shownState?: string, rendering?: boolean, again?: boolean, scheduled?: boolean
 * }} WidgetForm
 */
/** A widget's control: the form template's inputs (text, number, range, tick box, hidden), menus and text areas. */
/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Control */

/**
 * A form's control by its name (null if it has none).
 * @param {HTMLFormElement} form
 * @param {string} name
 * @returns {Control | null}
 */
export function controlOf(form, name) {
  return /** @type {Control | null} */ (form.elements.namedItem(name));
}

/**
 * The form's values as bleu_teach.web.page.widget takes them, by the saved example's names.
 * @param {WidgetForm} form
 * @returns {Record<string, unknown>}
 */
export function stateOf(form) {
  const saved = JSON.parse(form.dataset.state);
  /** @type {Record<string, unknown>} */
  const state = {};
  for (const [key, value] of Object.entries(saved)) {
    const control = controlOf(form, key);
    if (key === "references") {
      // A box just added and not typed into yet is left out, so that adding one is no error.
      state.references = [.../** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input.reference"))]
        .filter((box) => !box.dataset.fresh).map((box) => box.value);
    }
    else if (!control) state[key] = value;
    else if (control.type === "checkbox") state[key] = /** @type {HTMLInputElement} */ (control).checked;
    else if (typeof value === "boolean") state[key] = control.value === "1";
    // A number box hides text it cannot read (1e999, 1.5) and reports "": Python says what is wrong instead.
    else if (control.validity?.badInput) state[key] = { unreadable: true };
    else state[key] = control.value;
  }
  return state;
}

/**
 * @param {HTMLFormElement} form
 * @returns {HTMLElement[]} the rows of its reference boxes
 */
function referenceRows(form) {
  return [.../** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".live-references .live-row"))];
}

/**
 * The form's button for this action.
 * @param {HTMLFormElement} form
 * @param {string} action
 * @returns {HTMLButtonElement}
 */
function actionButton(form, action) {
  return /** @type {HTMLButtonElement} */ (form.querySelector(`[data-action="${action}"]`));
}

/** @param {HTMLFormElement} form */
export function refreshReferenceButtons(form) {
  const box = /** @type {HTMLElement | null} */ (form.querySelector(".live-references"));
  if (!box) return;
  const count = referenceRows(form).length;
  actionButton(form, "add-reference").disabled = count >= Number(box.dataset.max);
  actionButton(form, "remove-reference").disabled = count <= 1;
}

/**
 * A new reference box: empty, and left out of the state until typed into (``fresh``), or holding ``text``.
 * @param {HTMLFormElement} form
 * @param {string | null} [text]
 */
export function addReference(form, text = null) {
  const rows = referenceRows(form);
  const box = /** @type {HTMLElement} */ (form.querySelector(".live-references"));
  if (rows.length >= Number(box.dataset.max)) return;
  const row = /** @type {HTMLElement} */ (rows[0].cloneNode(true));
  const number = rows.length + 1;
  const input = /** @type {HTMLInputElement} */ (row.querySelector("input"));
  const label = /** @type {HTMLLabelElement} */ (row.querySelector("label"));
  input.id = input.id.replace(/-\d+$/, `-${number}`);
  input.name = `reference-${number}`;
  input.value = text ?? "";
  if (text === null) input.dataset.fresh = "1";
  else delete input.dataset.fresh;
  label.htmlFor = input.id;
  label.textContent = `Reference ${number}`;
  box.append(row);
  refreshReferenceButtons(form);
  if (text === null) input.focus();
}

/**
 * Put these texts in the reference boxes, one box each (the explorer page's address bar sets them).
 * @param {HTMLFormElement} form
 * @param {string[]} texts
 */
export function setReferences(form, texts) {
  const most = Number(/** @type {HTMLElement} */ (form.querySelector(".live-references")).dataset.max);
  for (const row of referenceRows(form).slice(1)) row.remove(); // one box left, then one per text
  const first = /** @type {HTMLInputElement} */ (referenceRows(form)[0].querySelector("input"));
  first.value = texts[0] ?? "";
  delete first.dataset.fresh;
  for (const text of texts.slice(1, most)) addReference(form, text);
  refreshReferenceButtons(form);
}

/** @param {HTMLFormElement} form */
export function removeReference(form) {
  const rows = referenceRows(form);
  const remove = actionButton(form, "remove-reference");
  const focused = document.activeElement === remove; // a button that disables itself drops the focus
  if (rows.length > 1) /** @type {HTMLElement} */ (rows.at(-1)).remove();
  refreshReferenceButtons(form);
  if (remove.disabled && focused) actionButton(form, "add-reference").focus();
}

/**
 * Previous / Next (lesson 08's rank) cannot go past the number's ends: disabled there (the focus stays in the form).
 * @param {HTMLFormElement} form
 */
export function refreshSteps(form) {
  const buttons = /** @type {NodeListOf<HTMLButtonElement>} */ (form.querySelectorAll('button[data-action="step"]'));
  for (const button of buttons) {
    const control = /** @type {HTMLInputElement | null} */ (controlOf(form, String(button.dataset.control))); // number
    if (!control) continue;
    const value = Number(control.value);
    const end = Number(button.dataset.step) > 0 ? Number(control.max || Infinity) : Number(control.min || 1);
    const stuck = Number(button.dataset.step) > 0 ? value >= end : value <= end;
    if (stuck && document.activeElement === button) control.focus();
    button.disabled = stuck;
  }
}

/**
 * Show each slider's value beside it, and enable what a tick enables.
 * @param {HTMLFormElement} form
 */
export function syncControls(form) {
  refreshSteps(form);
  for (const range of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll('input[type="range"]'))) {
    const shown = form.querySelector(`output[for="${range.id}"]`);
    if (shown) shown.textContent = range.value;
  }
  // A control the declaration enables by a tick (the second reference's length by "Use a second reference").
  for (const control of /** @type {NodeListOf<Control>} */ (form.querySelectorAll("[data-enabled-by]"))) {
    const tick = /** @type {HTMLInputElement | null} */ (controlOf(form, String(control.dataset.enabledBy)));
    if (tick) control.disabled = !tick.checked;
  }
}

/**
 * Put these values (a state as stateOf makes it) into the form's controls.
 * @param {HTMLFormElement} form
 * @param {object} state
 */
export function applyValues(form, state) {
  for (const [key, value] of Object.entries(state)) {
    const control = controlOf(form, key);
    if (key === "references" && Array.isArray(value) && value.length) setReferences(form, value.map(String));
    else if (!control || control.type === "hidden" || (value !== null && typeof value === "object")) continue;
    else if (control.type === "checkbox") /** @type {HTMLInputElement} */ (control).checked = Boolean(value);
    else if (typeof value === "boolean") control.value = value ? "1" : "";
    else control.value = String(value);
  }
  syncControls(form);
}
