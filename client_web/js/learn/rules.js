// @ts-check
// The rules pages, #/rules/stalactites and #/rules/squadron: each rule in words (the
// catalogue's rules.* texts, which say what docs/rules.md says) beside a small board drawn
// by the client's own board code, with the move it shows lit as on the race page; then, in
// words alone, how a race places its racers and how ratings change.

import { renderBoard } from "../board/board.js";
import { h, replace } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { gameName } from "../shared/widgets.js";

const lit = (selected, ...targets) => ({
  selected: selected && { pile: selected[0], count: selected[1] ?? 1 },
  targets: new Set(targets),
});

// [key, board state, marks]: the text is rules.<game>.<key>.title and .text.
/** @typedef {[string, object, object]} RuleSection */
/** @type {RuleSection[]} */
const STALACTITES = [
  [
    "deal",
    {
      foundations: [["6S"], ["9C"], ["2H"], ["6H"]],
      cells: [null, null],
      tableau: [
        ["JD", "5S", "6D"],
        ["2D", "KC", "8S"],
        ["9H", "4D", "8D"],
        ["JC", "AH", "QS"],
        ["5D", "TH", "6C"],
        ["7H", "3C", "3D"],
        ["7C", "QH", "8C"],
        ["5H", "9S", "TC"],
      ],
    },
    {},
  ],
  [
    "ones",
    {
      foundations: [["6S", "7H", "8C"]],
      cells: [],
      tableau: [
        ["KD", "9D"],
        ["4C", "TS"],
      ],
    },
    lit(["t1"], "f1"),
  ],
  [
    "twos",
    {
      foundations: [["6S", "8H", "TC"]],
      cells: [],
      tableau: [
        ["3D", "QD"],
        ["5H", "JS"],
      ],
    },
    lit(["t1"], "f1"),
  ],
  [
    "first",
    {
      foundations: [["9C"], ["6C"]],
      cells: [null, null],
      tableau: [
        ["5H", "7H"],
        ["2S", "8D"],
      ],
    },
    lit(["t1"], "f2"),
  ],
  [
    "wrap",
    {
      foundations: [
        ["JS", "QH", "KC"],
        ["9D", "JC", "KH"],
      ],
      cells: [],
      tableau: [["AD"], ["2C"]],
    },
    lit(["t1"], "f1"),
  ],
  [
    "cells",
    { foundations: [["4S"]], cells: ["8H", null], tableau: [["TC", "JD", "5C"]] },
    lit(["t1"], "c2"),
  ],
  [
    "never",
    { foundations: [["7S", "8D"]], cells: ["9H", null], tableau: [["3C", "QS"], []] },
    lit(["c1"], "f1"),
  ],
  [
    "end",
    { foundations: [["4D", "5S", "6C"]], cells: ["KH", "2S"], tableau: [["9H", "JD"], ["QC"]] },
    {},
  ],
];

/** @type {RuleSection[]} */
const SQUADRON = [
  [
    "deal",
    {
      game: "squadron",
      stock_count: 61,
      waste: [],
      cells: ["3D", "5H", "JC"],
      foundations: [[], [], [], []],
      tableau: [
        ["KH", "6H", "8S", "JH"],
        ["2C", "9D", "QS", "4H"],
        ["7C", "TS", "AD", "5S"],
        ["6C", "TD", "8H", "7D"],
      ],
    },
    {},
  ],
  [
    "foundations",
    {
      game: "squadron",
      stock_count: 0,
      waste: [],
      cells: [null],
      foundations: [["AH", "2H"], []],
      tableau: [
        ["9C", "3H"],
        ["KS", "AS"],
      ],
    },
    lit(["t1"], "f1"),
  ],
  [
    "tableau",
    {
      game: "squadron",
      stock_count: 0,
      waste: [],
      cells: [null],
      foundations: [],
      tableau: [["KD", "9S"], ["4C", "8S"], []],
    },
    lit(["t2"], "t1", "t3"),
  ],
  [
    "cells",
    {
      game: "squadron",
      stock_count: 0,
      waste: [],
      cells: ["QD", null],
      foundations: [],
      tableau: [["5C", "KD"], []],
    },
    lit(["c1"], "t1", "t2"),
  ],
  [
    "supermove",
    {
      game: "squadron",
      stock_count: 0,
      waste: [],
      cells: [null, null],
      foundations: [],
      tableau: [
        ["2H", "9C", "8C", "7C"],
        ["4D", "TC"],
      ],
    },
    lit(["t1", 3], "t2"),
  ],
  [
    "stock",
    {
      game: "squadron",
      stock_count: 5,
      waste: ["4S", "8H"],
      cells: [null],
      foundations: [],
      tableau: [["6D", "9H"]],
    },
    lit(["w"], "t1"),
  ],
  [
    "end",
    {
      game: "squadron",
      stock_count: 0,
      waste: [],
      cells: [null],
      foundations: [["AS", "2S", "3S"], ["AC"]],
      tableau: [["KH", "QH"]],
    },
    {},
  ],
];

export class RulesPage {
  constructor(app, game) {
    const sections = game === "squadron" ? SQUADRON : STALACTITES;
    const other = game === "squadron" ? "stalactites" : "squadron";
    replace(
      app,
      h(
        "article",
        { class: "panel rules", dataset: { game } },
        h("h1", {}, t("rules.title", { game: gameName(game) })),
        h("p", { class: "rules-intro" }, t(`rules.${game}.intro`)),
        sections.map(([key, state, marks]) => ruleSection(game, key, state, marks)),
        raceRules(),
        rulesFooter(game, other),
      ),
    );
  }

  destroy() {}
}

function ruleSection(game, key, state, marks) {
  const board = renderBoard(state, { compact: true, ...marks });
  board.setAttribute("aria-hidden", "true"); // a picture of the words beside it
  board.style.setProperty("--cols", String(widest(state)));
  return h(
    "section",
    { class: "rule", dataset: { rule: key } },
    h(
      "div",
      { class: "rule-text" },
      h("h2", {}, t(`rules.${game}.${key}.title`)),
      h("p", {}, t(`rules.${game}.${key}.text`)),
    ),
    h(
      "figure",
      { class: "rule-board" },
      board,
      h("figcaption", {}, t(`rules.${game}.${key}.caption`)),
    ),
  );
}

/** How a race places its racers and what it does to their ratings (docs/rules.md, "Places
 * and ratings"): the same words on both games' pages. */
function raceRules() {
  return h(
    "section",
    { class: "rules-race", dataset: { rule: "race" } },
    h("h2", {}, t("rules.race.title")),
    h("p", { class: "rules-places" }, t("rules.race.places")),
    h("p", { class: "rules-ratings" }, t("rules.race.ratings")),
    h("p", { class: "rules-unrated" }, t("rules.race.unrated")),
  );
}

/** The most piles side by side in a picture (at least 6, so that its cards stay small). */
function widest(state) {
  const top = (state.foundations?.length ?? 0) + (state.cells?.length ?? 0);
  const stock = state.game === "squadron" ? 2 + (state.cells?.length ?? 0) : top + 1;
  return Math.max(6, state.tableau?.length ?? 0, stock, state.foundations?.length ?? 0);
}

function rulesFooter(game, other) {
  const learn =
    game === "stalactites"
      ? h("a", { class: "btn btn-primary", href: "#/learn" }, t("lobby.learn"))
      : null;
  return h(
    "div",
    { class: "end-actions" },
    learn,
    h("a", { class: "btn", href: `#/rules/${other}` }, t("rules.other", { game: gameName(other) })),
    h("a", { class: "btn", href: "#/help" }, t("nav.keys")),
    h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
  );
}
