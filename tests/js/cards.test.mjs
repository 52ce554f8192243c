// Card notation (docs/rules.md, "Notation"): rank A23456789TJQK + suit CDHS, e.g. TD = ten of
// diamonds. The client draws cards from it and never judges a move with it.

import assert from "node:assert/strict";
import { test } from "node:test";

import { cardInfo } from "../../client_web/js/board/cards.js";
import { loadLanguage } from "../../client_web/js/shared/i18n.js";

await loadLanguage("en"); // the names of cards are in English here

const RANKS = [..."A23456789TJQK"];
const SUITS = [..."CDHS"];

test("TD is the ten of diamonds, drawn as 10 with the diamond symbol", () => {
  assert.deepEqual(cardInfo("TD"), {
    code: "TD",
    rank: "10",
    symbol: "♦",
    suit: "d",
    name: "ten of diamonds",
  });
});

test("every one of the 52 codes names a different card", () => {
  const names = new Set();
  for (const rank of RANKS) {
    for (const suit of SUITS) {
      const info = cardInfo(rank + suit);
      assert.ok(info, `${rank}${suit} is a card`);
      names.add(info.name);
    }
  }
  assert.equal(names.size, 52);
});

test("the four suits have four symbols and four colour classes, so colour is never the only cue", () => {
  const seen = SUITS.map((suit) => cardInfo(`A${suit}`));
  assert.deepEqual(
    seen.map((c) => c.symbol),
    ["♣", "♦", "♥", "♠"],
  );
  assert.deepEqual(
    seen.map((c) => c.suit),
    ["c", "d", "h", "s"],
  );
});

test("face cards and the ace keep their letter; only the ten is spelt out as 10", () => {
  assert.deepEqual(
    ["AS", "JH", "QC", "KD", "9S"].map((code) => cardInfo(code).rank),
    ["A", "J", "Q", "K", "9"],
  );
  assert.equal(cardInfo("KD").name, "king of diamonds");
});

test("anything that is not rank plus suit is no card", () => {
  for (const bad of ["", "T", "10D", "1D", "TX", "td", "XD", null, undefined, 42, ["T", "D"]]) {
    assert.equal(cardInfo(bad), null, `${JSON.stringify(bad)} is not a card`);
  }
});
