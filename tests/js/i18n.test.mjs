// The catalogues (client_web/js/lang/*.js) and the formatting of i18n.js: every language has
// exactly the English keys with the same placeholders, nothing is left in English, plurals
// and ordinals follow each language's rules, and numbers and times go through Intl.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, test } from "node:test";

import {
  CATALOGUES,
  LANGUAGES,
  catalogueDate,
  clockText,
  dateTime,
  elapsedText,
  hasDateWords,
  LANGUAGE_NAMES,
  list,
  loadLanguage,
  num,
  ordinal,
  pickLanguage,
  setLanguage,
  t,
  tParts,
} from "../../client_web/js/shared/i18n.js";

await Promise.all(LANGUAGES.map(loadLanguage));
const en = CATALOGUES.en;
const placeholders = (value) => {
  const texts = typeof value === "object" ? Object.values(value) : [value];
  return new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
};

afterEach(() => setLanguage("en"));

test("English, Polish and Kazakh are offered, each named as its catalogue names it", () => {
  assert.deepEqual(LANGUAGES, ["en", "pl", "kk"]);
  for (const lang of LANGUAGES) assert.equal(LANGUAGE_NAMES[lang], CATALOGUES[lang]["lang.name"]);
});

test("loading a language gives its catalogue; an unknown language is English", async () => {
  assert.equal(await loadLanguage("pl"), CATALOGUES.pl);
  assert.equal(await loadLanguage("fr"), CATALOGUES.en);
});

test("every catalogue has exactly the English catalogue's keys", () => {
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(CATALOGUES[lang]).sort(), Object.keys(en).sort(), lang);
  }
});

test("no catalogue names a key twice (a second one would silently replace the first)", () => {
  for (const lang of LANGUAGES) {
    const url = new URL(`../../client_web/js/lang/${lang}.js`, import.meta.url);
    const keys = [...readFileSync(url, "utf8").matchAll(/^  "([^"]+)":/gm)].map((m) => m[1]);
    const twice = keys.filter((key, i) => keys.indexOf(key) !== i);
    assert.deepEqual(twice, [], lang);
  }
});

test("every text has the placeholders its English text has, no more, no fewer", () => {
  for (const lang of LANGUAGES) {
    for (const [key, value] of Object.entries(CATALOGUES[lang])) {
      if (key === "ordinal") continue;
      assert.deepEqual(placeholders(value), placeholders(en[key]), `${lang}.${key}`);
    }
  }
});

test("plural texts have the forms their language needs", () => {
  const needs = { en: ["one", "other"], pl: ["one", "few", "many", "other"], kk: ["one", "other"] };
  for (const lang of LANGUAGES) {
    for (const [key, value] of Object.entries(CATALOGUES[lang])) {
      if (typeof value !== "object" || key === "ordinal") continue;
      for (const form of needs[lang]) assert.ok(value[form], `${lang}.${key} has ${form}`);
    }
  }
});

// Words that are the same in Polish: the abbreviation "min".
const SAME_WORDS = new Set(["pl.unit.minutes", "pl.mod.ms", "pl.profile.bot"]); // (ms, BOT: the same in Polish)

test("no Polish or Kazakh text is left in English (only notation and numbers may match)", () => {
  for (const lang of ["pl", "kk"]) {
    for (const [key, value] of Object.entries(CATALOGUES[lang])) {
      if (SAME_WORDS.has(`${lang}.${key}`)) continue;
      const same = JSON.stringify(value) === JSON.stringify(en[key]);
      const words = JSON.stringify(value)
        .replace(/\{\w+\}/g, "")
        .match(/\p{L}{2,}/gu);
      assert.ok(!(same && words), `${lang}.${key} is still English: ${JSON.stringify(value)}`);
    }
  }
});

test("t() fills placeholders, with numbers as the language writes them", () => {
  assert.equal(t("race.seatsTaken", { n: 1, seats: 2 }), "1 of 2 seats taken.");
  setLanguage("pl");
  assert.equal(t("race.seatsTaken", { n: 1, seats: 2 }), "Zajęte miejsca: 1 z 2.");
  assert.equal(t("tour.entrants", { n: 1500, max: 20000 }), "zapisanych: 1500/20\u00a0000");
});

test("plural forms: one move, 2 ruchy, 5 ruchów, 22 ruchy; Kazakh nouns stay singular", () => {
  assert.equal(t("racers.moves", { n: 1 }), "1 move");
  assert.equal(t("racers.moves", { n: 6 }), "6 moves");
  setLanguage("pl");
  const pl = [1, 2, 5, 12, 22, 25].map((n) => t("racers.moves", { n }));
  assert.deepEqual(pl, ["1 ruch", "2 ruchy", "5 ruchów", "12 ruchów", "22 ruchy", "25 ruchów"]);
  setLanguage("kk");
  assert.equal(t("racers.moves", { n: 5 }), "5 жүріс");
});

test("places: 1st 2nd 3rd 11th 22nd; 1. 2.; 1-ші 6-шы 10-шы", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 22].map(ordinal), [
    "1st",
    "2nd",
    "3rd",
    "4th",
    "11th",
    "12th",
    "22nd",
  ]);
  setLanguage("pl");
  assert.deepEqual([1, 2, 10].map(ordinal), ["1.", "2.", "10."]);
  setLanguage("kk"); // with a non-breaking hyphen, U+2011
  assert.deepEqual([1, 2, 6, 9, 10, 20, 21].map(ordinal), [
    "1\u2011ші",
    "2\u2011ші",
    "6\u2011шы",
    "9\u2011шы",
    "10\u2011шы",
    "20\u2011шы",
    "21\u2011ші",
  ]);
});

test("numbers, units, lists and times go through Intl", () => {
  assert.equal(num(2147483647), "2,147,483,647");
  assert.equal(clockText(65_000), "1:05");
  assert.equal(clockText(3_725_000), "1:02:05");
  assert.equal(elapsedText(65_300), "1:05.3");
  assert.equal(elapsedText(null), "—");
  assert.equal(list(["Ada", "Bo", "Cy"]), "Ada, Bo and Cy");
  assert.equal(list(["Ada"]), "Ada");
  setLanguage("pl");
  assert.equal(num(2147483647), "2\u00a0147\u00a0483\u00a0647");
  assert.equal(elapsedText(65_300), "1:05,3");
  assert.equal(list(["Ada", "Bo", "Cy"]), "Ada, Bo i Cy");
  assert.equal(t("unit.minutes", { n: 15 }), "15 min");
  setLanguage("kk");
  assert.equal(t("unit.minutes", { n: 15 }), "15 мин");
  assert.equal(num(2147483647), "2\u00a0147\u00a0483\u00a0647");
  assert.equal(elapsedText(65_300), "1:05,3");
  assert.equal(list(["Ada", "Bo"]), "Ada және Bo");
  assert.equal(clockText(-5), "0:00");
});

test("a moment is written as a date and a time of the language", () => {
  const moment = Date.UTC(2026, 11, 1, 10, 56);
  assert.match(dateTime(moment), /2026/);
  setLanguage("pl");
  assert.match(dateTime(moment), /gru 2026/);
});

test("the language: the one saved, else the browser's first we have, else English", () => {
  assert.equal(pickLanguage("kk", ["pl-PL"]), "kk");
  assert.equal(pickLanguage(null, ["pl-PL", "en-GB"]), "pl");
  assert.equal(pickLanguage(null, ["ru-RU", "kk-KZ"]), "kk");
  assert.equal(pickLanguage(null, ["de-DE"]), "en");
  assert.equal(pickLanguage("xx", undefined), "en");
  assert.equal(setLanguage("fr"), "en");
});

test("tParts keeps a node placeholder as a part of its own", () => {
  const node = { nodeType: 1 };
  assert.deepEqual(tParts("fair.how", { hash: node }).at(-1), node);
  assert.equal(typeof tParts("fair.how", { hash: node })[0], "string");
});

test("a missing key is reported and falls back to English, then to the key", () => {
  const errors = [];
  const error = console.error;
  console.error = (text) => errors.push(text);
  try {
    setLanguage("pl");
    delete CATALOGUES.pl["race.over"]; // for this test only
    assert.equal(t("race.over"), "Race over");
    assert.equal(t("no.such.key"), "no.such.key");
  } finally {
    CATALOGUES.pl["race.over"] = "Wyścig skończony";
    console.error = error;
  }
  assert.deepEqual(errors, ["missing text: pl.race.over", "missing text: pl.no.such.key"]);
});

test("dates use Intl where it has the language's month names, else the catalogue's", () => {
  const moment = new Date(2025, 11, 1, 9, 5).getTime();
  assert.equal(hasDateWords("en"), true);
  const intl = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
  assert.equal(dateTime(moment), intl.format(moment));
  const fallback = {
    en: "Dec 1, 2025, 09:05",
    pl: "1 gru 2025, 09:05",
    kk: "2025 ж. 1 жел., 09:05",
  };
  for (const lang of LANGUAGES) {
    setLanguage(lang);
    assert.equal(catalogueDate(moment), fallback[lang], lang);
    assert.equal(CATALOGUES[lang]["date.months"].split(" ").length, 12, lang);
  }
});
