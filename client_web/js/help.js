// The key scheme, shown at #/help (and documented in docs/client.md).

import { h, replace } from "./dom.js";

const KEYS = [
  ["1 … 8", "pick a column (Squadron: 1 … 9 and 0 for column 10)"],
  ["q  w  e", "pick cell 1, 2 or 3"],
  ["x", "pick the waste (Squadron)"],
  ["f", "send the picked card to a foundation"],
  ["c", "send the picked card to a free cell"],
  ["a column key", "with a card picked: onto that column (Squadron)"],
  ["Enter or Space", "the picked card's first move (a foundation first, then a cell)"],
  ["d", "deal a card from the stock (Squadron)"],
  ["o  /  t", "declare the step: by ones / by twos (Stalactites, player's choice)"],
  ["u or Backspace", "undo, where the room allows it"],
  ["r", "ready (in the waiting room)"],
  ["Esc", "drop the picked card"],
  ["?", "show or hide the keys"],
];

/** The key table, for the help page and the race page's key panel. */
export function keysTable() {
  return h(
    "table",
    { class: "keys" },
    h(
      "tbody",
      {},
      KEYS.map(([key, what]) => h("tr", {}, h("th", {}, h("kbd", {}, key)), h("td", {}, what))),
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
        h("h1", {}, "Playing"),
        h(
          "p",
          {},
          "Click a card, then click where it goes; the places it can go light up. Or drag it there. Double-click sends a card to a foundation (or else a free cell).",
        ),
        h("h2", {}, "Keys"),
        h(
          "p",
          {},
          "For example 3 then f plays column 3's card to a foundation; 5 then c puts column 5's card in a cell.",
        ),
        keysTable(),
        h("button", { class: "btn", onclick: () => history.back() }, "Back"),
      ),
    );
  }

  destroy() {}
}
