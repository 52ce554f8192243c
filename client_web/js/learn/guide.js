// @ts-check
// The guided first game: a solo Stalactites room on one known deal (GUIDED_DEAL, step of the
// player's choice), whose first moves are pointed out one at a time: a play to a foundation
// (which fixes the step), a park in a cell, and the card that park uncovers. The guide reads
// only the board the server sent: a step is done once its card has left its column.

import { cardLabel } from "../board/cards.js";
import { pileName } from "../board/board.js";
import { h } from "../shared/dom.js";
import { pileCards } from "../board/moves.js";
import { t } from "../shared/i18n.js";

export const GUIDED_DEAL = "ms:6";
export const GUIDED_SETTINGS = {
  game: "stalactites",
  deal: GUIDED_DEAL,
  step: "choice",
  seats: 1,
  countdown_s: 0,
  time_limit_s: 1800,
  undo: true,
  spectator_delay_s: 0,
  private: true, // a newcomer's first game is theirs: never in the lobby's "Racing now"
};

// The moves pointed out on GUIDED_DEAL, in order: [the card, from, to, the catalogue's text].
const STEPS = [
  ["7H", "t2", "f2", "guide.first"],
  ["7D", "t5", "c1", "guide.cell"],
  ["8C", "t5", "f2", "guide.freed"],
];

/**
 * The guide's step on this board: the first whose card is still on its column, as
 * {key, params, hint (pile names)}, or the free play after them. It reads only the board, so a
 * reload (or an undo) finds the same step.
 */
export function guideStep(state, steps = STEPS) {
  if (!state) return { key: "guide.wait", params: {}, hint: new Set() };
  for (const [card, src, dst, key] of steps) {
    if (!pileCards(state, src).includes(card)) continue;
    const onto = pileCards(state, dst);
    const params = {
      card: cardLabel(card),
      from: pileName(src),
      to: pileName(dst),
      top: onto.length ? cardLabel(onto[onto.length - 1]) : "",
    };
    return { key, params, hint: new Set([src, dst]) };
  }
  return { key: "guide.free", params: {}, hint: new Set() };
}

/** The guide's panel: the step's words, or the end's. */
export function guideView(step, status) {
  const over = status && status !== "playing" && status !== "waiting";
  const key = status === "won" ? "guide.won" : over ? "guide.lost" : step.key;
  const done = key === "guide.won" || key === "guide.lost";
  return [
    h("h2", {}, t("guide.title")),
    h("p", { class: "guide-text", dataset: { step: key } }, t(key, step.params)),
    done
      ? h(
          "p",
          { class: "end-actions" },
          h("a", { class: "btn", href: "#/rules/stalactites" }, t("lobby.rulesStalactites")),
          h("a", { class: "btn btn-primary", href: "#/" }, t("guide.toLobby")),
        )
      : null,
  ];
}
