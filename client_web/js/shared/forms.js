// @ts-check
// Small form helpers: labelled fields that read back typed values.

import { errorText } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { saveName, savedName } from "./storage.js";

export function field(label, input, hint = null) {
  return h(
    "label",
    { class: "field" },
    h("span", { class: "field-label" }, label),
    input,
    hint ? h("small", {}, hint) : null,
  );
}

export function select(name, options, value) {
  return h(
    "select",
    { name },
    options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)),
  );
}

export function numberInput(name, value, min, max, step = 1) {
  return h("input", {
    name,
    type: "number",
    value: String(value),
    min: String(min),
    max: String(max),
    step: String(step),
    inputmode: "numeric",
  });
}

export function textInput(name, value = "", attrs = {}) {
  return h("input", { name, type: "text", value, autocomplete: "off", ...attrs });
}

export function checkbox(name, checked) {
  return h("input", { name, type: "checkbox", checked });
}

/**
 * The form's named controls as {name: value}: numbers as numbers, checkboxes as booleans.
 * @param {HTMLFormElement} form
 * @returns {Record<string, any>}
 */
export function formValues(form) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const control of form.elements) {
    // An input, select, textarea or button: each has the name, type and value read here.
    const el = /** @type {HTMLInputElement} */ (control);
    if (!el.name) continue;
    if (el.type === "checkbox") out[el.name] = el.checked;
    else if (el.type === "number") out[el.name] = el.value === "" ? null : Number(el.value);
    else out[el.name] = el.value.trim();
  }
  return out;
}

/** Show an error message in a form's error line. */
export function formError(form, message) {
  let line = form.querySelector(".form-error");
  if (!line) {
    line = h("p", { class: "form-error", role: "alert" });
    form.append(line);
  }
  line.textContent = message ?? "";
}

/** A player name from the user, 1 to 24 characters; null (and an error shown) when not. */
export function checkedName(form, name) {
  const clean = (name ?? "").trim();
  if (clean.length < 1 || clean.length > 24) {
    formError(form, t("error.field.name"));
    return null;
  }
  return clean;
}

/**
 * A one-field form asking for the player's name; `take(name)` joins and may throw. With
 * `player` (the signed-in player's profile) the name may be left empty: null, the player's own.
 */
export function nameForm(buttonText, take, player = null) {
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const typed = formValues(form).name;
    const name = player && !typed ? null : checkedName(form, typed);
    if (!name && !player) return;
    if (name) saveName(name);
    try {
      await take(name);
    } catch (error) {
      formError(form, errorText(error));
    }
  };
  const input = textInput("name", player ? "" : savedName(), {
    maxlength: "24",
    required: !player,
    placeholder: player?.name ?? null,
  });
  return h(
    "form",
    { class: "inline-form", onsubmit: submit },
    field(t("form.yourName"), input, player ? t("form.nameOptional") : null),
    h("button", { class: "btn btn-primary", type: "submit" }, buttonText),
  );
}
