// @ts-check
// What the foundations want, read from a board state for display and for the assists: the
// card each takes next, and whether playing a card to one can cost the player a choice (the
// auto-play assist plays only those that cannot). Legality stays the server's: these never
// offer a move, they only choose among the moves the server listed.

import { cardInfo } from "./cards.js";
import { t } from "../shared/i18n.js";
import { pileCards } from "./moves.js";

const RANKS = "A23456789TJQK";
const SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

const rankOf = (code) => RANKS.indexOf(code[0]) + 1; // 1 (ace) to 13 (king)
const rankAt = (n) => RANKS[(((n - 1) % 13) + 13) % 13];

/**
 * The card foundation `i` takes next, as {label: "7" or "5♥", words}, or null when it is
 * complete. Stalactites builds regardless of suit (base rank b and k cards: rank b + step·k,
 * both steps shown while the step is open); Squadron builds up in suit from any ace.
 */
export function nextCard(state, i) {
  const pile = state.foundations?.[i] ?? [];
  if (pile.length >= 13) return null;
  if (state.game === "squadron") {
    if (!pile.length) return { label: t("card.rank.A"), words: t("board.anyAce") };
    const code = `${rankAt(rankOf(pile[pile.length - 1]) + 1)}${pile[0][1]}`;
    const info = cardInfo(code);
    return { label: `${info.rank}${SYMBOLS[code[1]]}`, words: info.name };
  }
  if (!pile.length) return null;
  const steps = state.step === "twos" ? [2] : state.step === "ones" ? [1] : [1, 2];
  const ranks = steps.map((s) => rankAt(rankOf(pile[0]) + s * pile.length));
  return {
    label: ranks.map((r) => t(`card.rank.${r}`)).join("/"),
    words: ranks.map((r) => t(`card.name.${r}`)).join(` ${t("board.or")} `),
  };
}

/**
 * Whether the legal move `move` (parsed, to a foundation) loses no choice, so the auto-play
 * assist may make it. Stalactites: the step is fixed and the card is the last of its rank
 * off the foundations (every foundation takes one card of each rank, so the last one has
 * exactly one place and nothing else can go there). Squadron: an ace, or a card whose two
 * lower cards of its suit (two decks) are both on foundations, so no column card could ever
 * want to be built on it.
 */
export function safeToFoundation(state, move) {
  if (move.dst[0] !== "f" || move.count !== 1 || move.src === "s") return false;
  const cards = pileCards(state, move.src);
  const code = cards[cards.length - 1];
  if (!code) return false;
  const placed = (state.foundations ?? []).flat();
  if (state.game === "squadron") {
    const rank = rankOf(code);
    if (rank === 1) return true;
    const lower = `${rankAt(rank - 1)}${code[1]}`;
    return placed.filter((c) => c === lower).length >= 2;
  }
  if (state.step !== "ones" && state.step !== "twos") return false;
  const sameRank = placed.filter((c) => c[0] === code[0]).length;
  return sameRank === 3;
}
