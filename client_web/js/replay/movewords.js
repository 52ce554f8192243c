// @ts-check
// A move or an action in the words a player uses, with the cards it moves: "7♥ from column 1
// to a free cell", "5♣ from column 3 to foundation 1", "9♠–7♠ from column 2 onto 10♠ in
// column 7". Read on the board the move leaves (the server's state, or one drawn along a
// record by timeline.js); a card that board does not show is "a card". Pure: no DOM.

import { cardLabel } from "../board/cards.js";
import { t } from "../shared/i18n.js";
import { parseMove, pileCards } from "../board/moves.js";

const UNDO = "undo";
const STEP = "step:";

/**
 * A move's notation in words, read on `before` (the board it is played on). `after`, the
 * board it leaves, names the card a stock deal turned up. Anything that is not a move's
 * notation comes back as it is.
 */
export function describeMove(text, before, after = null) {
  const move = parseMove(text ?? "");
  if (!move) return text ?? "";
  if (move.src === "s") {
    const dealt = after?.waste?.at(-1);
    return dealt ? t("words.dealt", { card: cardLabel(dealt) }) : t("words.deal");
  }
  const cards = before ? pileCards(before, move.src) : [];
  const moved = cards.slice(cards.length - move.count);
  const from = place("from", move.src);
  const to = destination(move.dst, before);
  if (moved.length !== move.count || !moved.length) return t("words.unknown", { from, to });
  if (move.count === 1) return t("words.card", { card: cardLabel(moved[0]), from, to });
  return t("words.run", {
    first: cardLabel(moved[0]),
    last: cardLabel(moved.at(-1)),
    from,
    to,
  });
}

/** A record's action in words: a move (as describeMove), an undo, a declared step. */
export function describeAction(action, before, after = null) {
  if (action === UNDO) return t("replay.action.undo");
  if (action?.startsWith(STEP)) return t(`race.building.${action.slice(STEP.length)}`);
  return describeMove(action, before, after);
}

/** The action of run step `index` (timeline.js's runOf) in words, on the board before it. */
export function stepWords(steps, index) {
  const step = steps?.[index];
  if (!step) return "";
  return describeAction(step.action, steps[index - 1]?.state ?? null, step.state ?? null);
}

function place(side, name) {
  return t(`words.${side}.${name[0]}`, { n: Number(name.slice(1)) || 0 });
}

/** Where a move goes: a foundation, a free cell, a column (onto its top card when it has one). */
function destination(name, before) {
  if (name[0] !== "t") return place("to", name);
  const n = Number(name.slice(1)) || 0;
  if (!before) return t("words.to.t", { n });
  const top = pileCards(before, name).at(-1);
  return top ? t("words.onto", { card: cardLabel(top), n }) : t("words.toEmpty", { n });
}
