// What the foundations want (client_web/js/board/foundations.js): the card each takes next, read as
// docs/rules.md says, and which foundation plays the auto-play assist may make (none that loses a
// choice).

import assert from "node:assert/strict";
import { test } from "node:test";

import { nextCard, safeToFoundation } from "../../client_web/js/board/foundations.js";
import { parseMove } from "../../client_web/js/board/moves.js";
import { loadLanguage } from "../../client_web/js/shared/i18n.js";

await loadLanguage("en"); // the names of cards are in English here

const stalactites = (step, foundations, tableau = [], cells = [null, null]) => ({
  game: "stalactites",
  step,
  foundations,
  tableau,
  cells,
});

test("a Stalactites foundation takes base rank plus step times its cards, wrapping", () => {
  assert.equal(nextCard(stalactites("ones", [["6S", "7H"]]), 0).label, "8");
  assert.equal(nextCard(stalactites("twos", [["QD"]]), 0).label, "A"); // Q→A by twos
  assert.equal(nextCard(stalactites("ones", [["KC"]]), 0).label, "A"); // K→A by ones
  assert.equal(nextCard(stalactites(null, [["9C"]]), 0).label, "10/J"); // step still open
  const full = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"];
  assert.equal(nextCard(stalactites("ones", [full]), 0), null);
});

test("a Squadron foundation takes any ace when empty, then the next card of its suit", () => {
  const state = { game: "squadron", foundations: [[], ["AH", "2H"]] };
  assert.equal(nextCard(state, 0).label, "A");
  assert.equal(nextCard(state, 1).label, "3♥");
});

test("Stalactites auto-plays only the last card of a rank, and only once the step is fixed", () => {
  const three = [["5S"], ["5H"], ["5D"], ["9C"]];
  const board = (step) => stalactites(step, three, [["2C", "5C"]]);
  assert.equal(safeToFoundation(board("ones"), parseMove("t1-f4")), true);
  assert.equal(safeToFoundation(board(null), parseMove("t1-f4")), false);
  const two = stalactites("ones", [["5S"], ["5H"], ["9D"], ["4C"]], [["5C"]]);
  assert.equal(safeToFoundation(two, parseMove("t1-f4")), false); // another 5 is still out
  assert.equal(safeToFoundation(board("ones"), parseMove("t1-c1")), false); // not a foundation
});

test("Squadron auto-plays aces, and a card once both lower cards of its suit are home", () => {
  const state = (foundations, top) => ({
    game: "squadron",
    foundations,
    tableau: [[top]],
    cells: [null, null, null],
    waste: [],
  });
  assert.equal(safeToFoundation(state([[], []], "AS"), parseMove("t1-f1")), true);
  assert.equal(safeToFoundation(state([["AS"], []], "2S"), parseMove("t1-f1")), false);
  assert.equal(safeToFoundation(state([["AS"], ["AS"]], "2S"), parseMove("t1-f1")), true);
});
