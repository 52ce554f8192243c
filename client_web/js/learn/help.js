// @ts-check
// The key scheme, shown at #/help (and documented in docs/client.md). The keys themselves are
// notation, the same in every language; what they do is in the catalogue (keys.*).

import { h, replace } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

const KEYS = [
  ["1 … 8", "keys.column"],
  ["q  w  e", "keys.cell"],
  ["x", "keys.waste"],
  ["f", "keys.foundation"],
  ["c", "keys.freeCell"],
  ["keys.aColumnKey", "keys.onto"],
  ["keys.enterSpace", "keys.auto"],
  ["d", "keys.deal"],
  ["o  /  t", "keys.step"],
  ["keys.undoKeys", "keys.undo"],
  ["h", "keys.hint"],
  ["r", "keys.ready"],
  ["Esc", "keys.drop"],
  ["?", "keys.toggle"],
];

/** The key table, for the help page and the race page's key panel. */
export function keysTable() {
  const keyText = (key) => (key.startsWith("keys.") ? t(key) : key);
  return h(
    "table",
    { class: "keys" },
    h(
      "tbody",
      {},
      KEYS.map(([key, what]) =>
        h("tr", {}, h("th", {}, h("kbd", {}, keyText(key))), h("td", {}, t(what))),
      ),
    ),
  );
}

export class HelpPage {
  constructor(app) {
    replace(
      app,
      h(
        "section",
        { class: "panel narrow help" },
        h("h1", {}, t("help.title")),
        h("p", {}, t("help.mouse")),
        h(
          "p",
          {},
          t("help.rulesLink"),
          " ",
          h("a", { href: "#/rules/stalactites" }, t("game.stalactites")),
          ", ",
          h("a", { href: "#/rules/squadron" }, t("game.squadron")),
          ".",
        ),
        h("h2", {}, t("help.keys")),
        h("p", {}, t("help.example")),
        keysTable(),
        h("p", { class: "muted" }, t("help.notation")),
        h("button", { class: "btn", onclick: () => history.back() }, t("common.back")),
      ),
    );
  }

  destroy() {}
}
