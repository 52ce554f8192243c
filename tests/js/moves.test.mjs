// Move notation and the legal list as the client reads it (client_web/js/board/moves.js): which
// cards can move and where comes only from the server's `legal`; moving cards on a copy of a
// board is how a move is drawn before it is answered. Checked against docs/rules.md on small
// positions (tests/js/rules.mjs writes the rules out for them).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  applyMove,
  dealFromStock,
  LegalIndex,
  parseMove,
  pileCards,
} from "../../client_web/js/board/moves.js";
import { played, squadronLegal, stalactitesLegal } from "./rules.mjs";

/** A Stalactites position: ms:1's bases, short columns, one cell taken, the step not fixed. */
const STALACTITES = {
  game: "stalactites",
  step: null,
  foundations: [["6S"], ["9C"], ["2H", "3D"], ["6H"]],
  cells: ["KC", null],
  tableau: [
    ["JD", "7D"],
    ["2D", "TS"],
    ["9H", "8D"],
    ["JC"],
    [],
    ["5D", "4H"],
    ["7H"],
    ["5H", "4S"],
  ],
};

/** A Squadron position with a run of three clubs, an empty column, a free cell, a waste. */
const SQUADRON = {
  game: "squadron",
  foundations: [["AH"], [], [], [], [], [], [], []],
  cells: ["2H", null, "QD"],
  tableau: [
    ["KS", "9C", "8C", "7C"],
    ["TC"],
    [],
    ["KD"],
    ["5S"],
    ["4S"],
    ["JS"],
    ["6H"],
    ["3H"],
    ["QS"],
  ],
  waste: ["AD"],
  stock_count: 3,
};

test("move notation: from-to, with :n for a run of n cards, and s-w for the stock", () => {
  assert.deepEqual(parseMove("t3-f1"), { text: "t3-f1", src: "t3", dst: "f1", count: 1 });
  assert.deepEqual(parseMove("t2-t7:3"), { text: "t2-t7:3", src: "t2", dst: "t7", count: 3 });
  assert.deepEqual(parseMove("s-w"), { text: "s-w", src: "s", dst: "w", count: 1 });
  assert.deepEqual(parseMove("c1-t10"), { text: "c1-t10", src: "c1", dst: "t10", count: 1 });
});

test("text that is not a move is not read as one", () => {
  for (const bad of ["", "t3", "t3-", "-f1", "t3 f1", "T3-F1", "t3-f1:", "t3-f1:x", "t3-f1-c2"]) {
    assert.equal(parseMove(bad), null, bad);
  }
  assert.equal(
    new LegalIndex(["t1-c1", "nonsense"]).size,
    1,
    "a bad entry is dropped, not guessed",
  );
});

/** Every pile a move can start from, in either game. */
function piles(state) {
  const names = ["s", "w"];
  state.tableau.forEach((_, i) => names.push(`t${i + 1}`));
  state.cells.forEach((_, i) => names.push(`c${i + 1}`));
  state.foundations.forEach((_, i) => names.push(`f${i + 1}`));
  return names;
}

function checkAgreesWithRules(state, legal) {
  const index = new LegalIndex(legal);
  for (const src of piles(state)) {
    for (const count of [1, 2, 3]) {
      const rule = legal.map(parseMove).filter((m) => m.src === src && m.count === count);
      assert.equal(index.canMove(src, count), rule.length > 0, `${src} ×${count} can move`);
      assert.deepEqual(
        index.targets(src, count),
        new Set(rule.map((m) => m.dst)),
        `${src} ×${count}`,
      );
    }
  }
  for (const text of legal) {
    if (text === "s-w") continue;
    assert.deepEqual(applyMove(state, parseMove(text)), played(state, text), `drawing ${text}`);
  }
}

test("Stalactites: the lit places and the drawn result of each move agree with the rules", () => {
  const legal = stalactitesLegal(STALACTITES);
  // By ones 7D goes on 6S and 6H, by twos on... nothing (8 is wanted): the step is still open.
  assert.ok(legal.includes("t1-f1") && legal.includes("t1-f4"));
  assert.ok(legal.includes("t6-f3"), "4H on 2H 3D: by ones");
  assert.ok(!legal.some((m) => /^t\d-t/.test(m)), "no column-to-column move in Stalactites");
  checkAgreesWithRules(STALACTITES, legal);
});

test("Stalactites by twos: a fixed step changes the list, and the client follows the list", () => {
  const byTwos = { ...structuredClone(STALACTITES), step: "twos" };
  byTwos.foundations[2] = ["2H"];
  const legal = stalactitesLegal(byTwos);
  assert.ok(!legal.includes("t1-f1"), "7 is not 6 + 2");
  for (const move of ["t3-f1", "t3-f4", "t4-f2", "t6-f3", "t8-f3"]) {
    assert.ok(legal.includes(move), move);
  }
  assert.ok(!legal.includes("c1-f2"), "KC is not J + 2");
  checkAgreesWithRules(byTwos, legal);
});

test("Squadron: runs move as one within the supermove limit, and the rest agrees with the rules", () => {
  const legal = squadronLegal(SQUADRON);
  // 9C 8C 7C onto TC: one free cell, one empty column besides the destination: (1+1)*2 = 4.
  assert.ok(legal.includes("t1-t2:3"), "the three clubs onto TC");
  // Onto the empty column itself: (1+1)*2^0 = 2, so a run of two may go, not of three.
  assert.ok(legal.includes("t1-t3:2") && !legal.includes("t1-t3:3"));
  checkAgreesWithRules(SQUADRON, legal);
});

test("a column key with no run length given plays the longest run that fits there", () => {
  const index = new LegalIndex(squadronLegal(SQUADRON));
  assert.equal(index.find("t1", "t2").text, "t1-t2:3");
  assert.equal(index.find("t1", "t3").text, "t1-t3:2", "the empty column takes at most two");
  assert.equal(index.find("t1", "t2", 1), null, "7C alone does not go on TC");
  assert.equal(index.find("t1", "t4"), null);
});

test("f and c send a card to the first foundation or cell that takes it, in pile order", () => {
  const index = new LegalIndex(["t1-f10", "t1-f2", "t1-c3", "t1-c1", "t2-t3:2", "t2-t3"]);
  assert.equal(index.findKind("t1", "f").text, "t1-f2", "f2 before f10: numbers, not text");
  assert.equal(index.findKind("t1", "c").text, "t1-c1");
  assert.equal(index.findKind("t2", "t").text, "t2-t3:2", "the longest run first");
  assert.equal(index.findKind("t1", "t"), null);
});

test("a stock deal is not drawn in advance: the card dealt is unknown until the server says", () => {
  assert.equal(applyMove(SQUADRON, parseMove("s-w")), null);
});

test("a move the board cannot show is not drawn (more cards than the pile holds, a full cell)", () => {
  assert.equal(applyMove(STALACTITES, parseMove("t4-f1:2")), null);
  assert.equal(applyMove(STALACTITES, parseMove("t1-c1")), null, "cell 1 holds KC");
  assert.equal(applyMove(STALACTITES, parseMove("c2-f1")), null, "cell 2 is empty");
});

test("drawing a move changes a copy: the confirmed board stays as the server sent it", () => {
  const before = structuredClone(STALACTITES);
  applyMove(STALACTITES, parseMove("t1-c2"));
  assert.deepEqual(STALACTITES, before);
});

test("a replay deals the known stock's last card onto the waste, one at a time", () => {
  const state = { ...structuredClone(SQUADRON), stock: ["8H", "4S"], stock_count: 2 };
  const once = dealFromStock(state);
  assert.deepEqual(once.waste, ["AD", "4S"]);
  assert.equal(once.stock_count, 1);
  const twice = dealFromStock(once);
  assert.deepEqual(twice.waste, ["AD", "4S", "8H"]);
  assert.equal(dealFromStock(twice), null, "the stock is empty");
  assert.equal(dealFromStock(SQUADRON), null, "a player's board never knows the stock");
});

test("a pile's cards by name, bottom to top; a cell gives none or one", () => {
  assert.deepEqual(pileCards(STALACTITES, "t1"), ["JD", "7D"]);
  assert.deepEqual(pileCards(STALACTITES, "f3"), ["2H", "3D"]);
  assert.deepEqual(pileCards(STALACTITES, "c1"), ["KC"]);
  assert.deepEqual(pileCards(STALACTITES, "c2"), []);
  assert.deepEqual(pileCards(SQUADRON, "w"), ["AD"]);
  assert.deepEqual(pileCards(SQUADRON, "t10"), ["QS"]);
});
