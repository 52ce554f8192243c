// @ts-check
// The client's words, in English, Polish and Kazakh: one catalogue per language
// (client_web/js/lang/*.js, the same keys in each) and every number, time and date through
// Intl. t(key, params) gives a string: {name} in the text is replaced by params.name (numbers
// formatted for the language), and a value that is an object of plural forms
// ({one, few, many, other}) is chosen by params.n with Intl.PluralRules.
// Only the chosen language's catalogue is fetched (loadLanguage, before the first page is
// drawn, and again on a switch): the others are never loaded for nothing.

export const LANGUAGES = ["en", "pl", "kk"];
/** Each language's name in itself, for the switch (each catalogue's lang.name). */
export const LANGUAGE_NAMES = { en: "English", pl: "Polski", kk: "Қазақша" };

const LOADERS = {
  en: () => import("../lang/en.js"),
  pl: () => import("../lang/pl.js"),
  kk: () => import("../lang/kk.js"),
};

/** The catalogues loaded so far, by language. */
export const CATALOGUES = {};

let current = "en";

/** Fetch a language's catalogue (once); resolves to it. */
export async function loadLanguage(lang) {
  const known = LANGUAGES.includes(lang) ? lang : "en";
  CATALOGUES[known] ??= (await LOADERS[known]()).default;
  return CATALOGUES[known];
}

/**
 * The language to use: the one saved, else the browser's first we have, else English.
 * @param {string | null} saved
 * @param {readonly string[]} [browser]
 */
export function pickLanguage(saved, browser = []) {
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of browser ?? []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

let markSet;
const set = new Promise((resolve) => {
  markSet = resolve;
});

/** Resolves once a language is in use: for code outside the pages (a test asking the page
 * for its words) that may run before main.js has fetched the chosen catalogue. */
export const languageSet = () => set;

/** Use a language whose catalogue is loaded (see loadLanguage); an unknown one is English. */
export function setLanguage(lang) {
  current = LANGUAGES.includes(lang) ? lang : "en";
  if (globalThis.document) document.documentElement.lang = current;
  markSet();
  return current;
}

export const language = () => current;

const words = () => CATALOGUES[current] ?? {};

/** Whether the current language's catalogue has a text for the key. */
export const has = (key) => Object.hasOwn(words(), key);

/** @typedef {[string, Record<string, any>]} Phrase a catalogue key and its parameters */

/** A key's text in the current language, with its {placeholders} filled. */
export function t(key, params = {}) {
  let value = words()[key];
  if (value === undefined) {
    globalThis.console?.error(`missing text: ${current}.${key}`);
    value = CATALOGUES.en?.[key] ?? key;
  }
  if (typeof value === "object") value = pluralForm(value, params.n ?? 0);
  return fill(value, params);
}

/** The text as parts, where a placeholder may be a node: [string, node, string, ...]. */
export function tParts(key, params = {}) {
  const strings = {};
  const nodes = {};
  for (const [name, v] of Object.entries(params)) {
    if (typeof v === "object" && v !== null) nodes[name] = v;
    else strings[name] = v;
  }
  const marked = t(key, { ...strings, ...marks(nodes) });
  return marked
    .split(/\u0001(\w+)\u0001/)
    .map((part, i) => (i % 2 ? nodes[part] : part))
    .filter((part) => part !== "");
}

function marks(nodes) {
  return Object.fromEntries(Object.keys(nodes).map((name) => [name, `\u0001${name}\u0001`]));
}

function pluralForm(forms, n) {
  const rule = new Intl.PluralRules(current).select(n);
  return forms[rule] ?? forms.other;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const v = params[name];
    if (v === undefined || v === null) return whole;
    return typeof v === "number" ? num(v) : String(v);
  });
}

/**
 * A number as the language writes it (2 147 483 647 and 9,5 in Polish and Kazakh): Intl's
 * digits and grouping, with the group and decimal marks of the catalogue (num.group,
 * num.decimal), as a browser's Intl may lack a language's number data (Chromium's, Kazakh's).
 */
export function num(n, options = {}) {
  const marks = {
    group: words()["num.group"],
    decimal: words()["num.decimal"],
  };
  return new Intl.NumberFormat(current, options)
    .formatToParts(n)
    .map((part) => marks[part.type] ?? part.value)
    .join("");
}

/** A place in a race: 1st / 1. / 1-ші, from the catalogue's ordinal forms. */
export function ordinal(n) {
  const forms = words().ordinal;
  const rule = new Intl.PluralRules(current, { type: "ordinal" }).select(n);
  return fill(forms[rule] ?? forms.other, { n: String(n) });
}

/** A list: "Ada, Bo and Cy", "Ada, Bo i Cy", "Ada, Bo және Cy" (the catalogue's list.and). */
export function list(items) {
  const names = items.map(String);
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${t("list.and")} ${names[names.length - 1]}`;
}

const two = () => ({ minimumIntegerDigits: 2, useGrouping: false });

/** Milliseconds left as m:ss (or h:mm:ss), never negative. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = num(total % 60, two());
  if (hours > 0) return `${num(hours)}:${num(minutes, two())}:${seconds}`;
  return `${num(minutes)}:${seconds}`;
}

/** An elapsed time in milliseconds as m:ss.t (the tenths with the language's decimal mark). */
export function elapsedText(ms) {
  if (ms === null || ms === undefined) return "—";
  const tenths = Math.floor(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  const shown = num(seconds, { ...two(), minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${num(minutes)}:${shown}`;
}

/** A moment (unix milliseconds) as a date and time in the language: Intl's medium date and
 * short time where Intl knows the language's month names, else the catalogue's own. */
export function dateTime(ms) {
  if (!hasDateWords(current)) return catalogueDate(ms);
  return new Intl.DateTimeFormat(current, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(ms),
  );
}

const dateWords = new Map();

/** Whether this browser's Intl has the language's date words. Chromium's ICU has none for
 * Kazakh: it answers with the root pattern ("2025 M12 1 11:53", a month "M01"). */
export function hasDateWords(lang) {
  if (!dateWords.has(lang)) {
    const month = new Intl.DateTimeFormat(lang, { month: "short" }).format(new Date(2020, 0, 15));
    dateWords.set(lang, !/^M\d{1,2}$/.test(month));
  }
  return dateWords.get(lang);
}

/** A moment in the catalogue's `date.format` with its `date.months` (local time, 24 h). */
export function catalogueDate(ms) {
  const d = new Date(ms);
  const months = t("date.months").split(" ");
  const time = `${num(d.getHours(), two())}:${num(d.getMinutes(), two())}`;
  return t("date.format", {
    day: String(d.getDate()),
    month: months[d.getMonth()],
    year: String(d.getFullYear()),
    time,
  });
}
