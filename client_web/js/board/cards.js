// @ts-check
// Card notation for display only: rank + suit, e.g. "TD" is the ten of diamonds.
// The client knows how to draw a card, never which moves are legal. The corner's rank and the
// card's name come from the language's catalogue (card.rank.T, card.name.T, card.suit.D).

import { t } from "../shared/i18n.js";

// Four suits, four colours, and always the symbol: colour is never the only cue.
const SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANKS = "A23456789TJQK";

/** Parse "TD" into what drawing needs; null for anything else. */
export function cardInfo(text) {
  if (typeof text !== "string" || text.length !== 2) return null;
  const [rank, suit] = text;
  if (!RANKS.includes(rank) || !SYMBOLS[suit]) return null;
  return {
    code: text,
    rank: t(`card.rank.${rank}`),
    symbol: SYMBOLS[suit],
    suit: suit.toLowerCase(),
    name: t("card.name", { rank: t(`card.name.${rank}`), suit: t(`card.suit.${suit}`) }),
  };
}

/** A card's short label as players read it: 7♥, 10♦. */
export function cardLabel(code) {
  const info = cardInfo(code);
  return info ? `${info.rank}${info.symbol}` : code;
}

/** The number of cards a finished board holds. */
export function cardTotal(game) {
  return game === "squadron" ? 104 : 52;
}
