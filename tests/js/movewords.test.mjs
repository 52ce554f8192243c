// Moves in words (client_web/js/replay/movewords.js) and what the analysis says with its figures
// (analysisview.js's movesText and verdictKey): cards named as players read them, places
// named as players say them, and the fewest moves a win needs only where that means something.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { movesText, verdictKey } from "../../client_web/js/replay/analysisview.js";
import { LANGUAGES, loadLanguage, setLanguage } from "../../client_web/js/shared/i18n.js";
import { describeAction, describeMove, stepWords } from "../../client_web/js/replay/movewords.js";
import { runOf } from "../../client_web/js/replay/timeline.js";

await Promise.all(LANGUAGES.map(loadLanguage));
setLanguage("en");
afterEach(() => setLanguage("en"));

const STALACTITES = {
  game: "stalactites",
  step: null,
  foundations: [["6S"], ["9C"], ["2H"], ["6H"]],
  cells: ["4C", null],
  tableau: [["JD", "7H"], ["2D", "TS"], ["9H", "3D"], ["JC"], ["5D", "7S"], ["KH"], [], []],
};

const SQUADRON = {
  game: "squadron",
  foundations: [[], [], [], [], [], [], [], []],
  cells: ["QD", null, null],
  tableau: [["KH", "TS", "9S", "8S"], ["6H", "JS"], [], ["2C"], [], [], [], [], [], []],
  waste: ["5C"],
  stock_count: 3,
};

test("a Stalactites move names its card, where it comes from and where it goes", () => {
  assert.equal(describeMove("t1-c2", STALACTITES), "7♥ from column 1 to a free cell");
  assert.equal(describeMove("t5-f1", STALACTITES), "7♠ from column 5 to foundation 1");
  assert.equal(describeMove("c1-f3", STALACTITES), "4♣ from a cell to foundation 3");
  assert.equal(describeMove("t2-f2", STALACTITES), "10♠ from column 2 to foundation 2");
});

test("Squadron's moves: onto a card, to an empty column, a run, the waste, the stock", () => {
  assert.equal(describeMove("c1-t3", SQUADRON), "Q♦ from a cell to the empty column 3");
  assert.equal(describeMove("t1-t2:3", SQUADRON), "10♠–8♠ from column 1 onto J♠ in column 2");
  assert.equal(describeMove("w-c2", SQUADRON), "5♣ from the waste to a free cell");
  assert.equal(describeMove("s-w", SQUADRON), "a card dealt from the stock");
  const after = { ...SQUADRON, waste: ["5C", "4S"] };
  assert.equal(describeMove("s-w", SQUADRON, after), "4♠ dealt from the stock");
});

test("a card the board does not show is 'a card'; notation that is not a move is left as is", () => {
  assert.equal(describeMove("t7-c2", STALACTITES), "a card from column 7 to a free cell");
  assert.equal(describeMove("t1-c1", null), "a card from column 1 to a free cell");
  assert.equal(describeMove("nonsense", STALACTITES), "nonsense");
  assert.ok(!/\bt\d|\bc\d|\bf\d/.test(describeMove("t1-f4", STALACTITES)), "no notation left");
});

test("undo and the declared step in words; a run's step read on the board before it", () => {
  assert.equal(describeAction("undo", STALACTITES), "undo");
  assert.equal(describeAction("step:twos", STALACTITES), "Building by twos");
  const steps = runOf(STALACTITES, [
    { action: "t1-c2", at_ms: 1000 },
    { action: "t1-f3", at_ms: 2000 },
  ]);
  assert.equal(stepWords(steps, 1), "7♥ from column 1 to a free cell");
  assert.equal(stepWords(steps, 2), "J♦ from column 1 to foundation 3", "the card uncovered");
  assert.equal(stepWords(steps, 3), "");
});

test("Polish and Kazakh say the same moves in their words", () => {
  setLanguage("pl");
  assert.equal(describeMove("t1-c2", STALACTITES), "7♥ z kolumny 1 do wolnej komórki");
  assert.equal(describeMove("t5-f1", STALACTITES), "7♠ z kolumny 5 na stos 1");
  setLanguage("kk");
  assert.equal(describeMove("t1-c2", STALACTITES), "7♥ 1‑бағаннан бос ұяшыққа");
});

const run = (moves, fewest) => ({ moves, fewest_moves: fewest });

test("the fewest moves a win needs are shown only when exact and the player won or came close", () => {
  const exact = { value: 51, exact: true, line: [] };
  assert.equal(movesText(run(60, exact), 52, 52), "60 (the fewest a win needs: 51)");
  assert.equal(movesText(run(48, exact), 40, 52), "48 (the fewest a win needs: 51)");
  assert.equal(movesText(run(5, exact), 6, 52), "5", "a resignation at move 5: no figure");
  const bound = { value: 708, exact: false, line: [] };
  assert.equal(movesText(run(300, bound), 104, 104), "300", "Squadron's upper bound: never");
  const none = { value: null, exact: true, line: [] };
  assert.equal(movesText(run(12, none), 30, 52), "12");
});

test("a run with no turning point: won, still winnable when they stopped, lost, undecided", () => {
  assert.equal(verdictKey(["won", "won", "won"], 52, 52), "noTurning");
  assert.equal(verdictKey(["won", "won", "won"], 9, 52), "stillWinnable");
  assert.equal(verdictKey(["lost", "lost"], 9, 52), "lostFromStart");
  assert.equal(verdictKey(["won", "unknown"], 9, 104), "undecided");
});
