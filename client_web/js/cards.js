// Card notation for display only: rank + suit, e.g. "TD" is the ten of diamonds.
// The client knows how to draw a card, never which moves are legal.

const RANKS = {
  A: ["A", "ace"],
  2: ["2", "two"],
  3: ["3", "three"],
  4: ["4", "four"],
  5: ["5", "five"],
  6: ["6", "six"],
  7: ["7", "seven"],
  8: ["8", "eight"],
  9: ["9", "nine"],
  T: ["10", "ten"],
  J: ["J", "jack"],
  Q: ["Q", "queen"],
  K: ["K", "king"],
};

// Four suits, four colours, and always the symbol: colour is never the only cue.
const SUITS = {
  C: ["♣", "clubs"],
  D: ["♦", "diamonds"],
  H: ["♥", "hearts"],
  S: ["♠", "spades"],
};

/** Parse "TD" into what drawing needs; null for anything else. */
export function cardInfo(text) {
  if (typeof text !== "string" || text.length !== 2) return null;
  const rank = RANKS[text[0]];
  const suit = SUITS[text[1]];
  if (!rank || !suit) return null;
  return {
    code: text,
    rank: rank[0],
    symbol: suit[0],
    suit: text[1].toLowerCase(),
    name: `${rank[1]} of ${suit[1]}`,
  };
}
