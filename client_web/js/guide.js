// The guided first game: a solo Stalactites room on one known deal (GUIDED_DEAL, step of the
// player's choice), whose first moves are pointed out one at a time: a play to a foundation
// (which fixes the step), a park in a cell, and the card that park uncovers. The guide reads
// only the board the server sent: a step is done once its card has left its column.

import { cardLabel } from "./cards.js";
import { pileName } from "./board.js";
import { h } from "./dom.js";
import { pileCards } from "./moves.js";
import { t } from "./i18n.js";

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
};

// The moves pointed out, in order: [from, to, the catalogue's text for it].
const STEPS = [
  ["t2", "f2", "guide.first"],
  ["t5", "c1", "guide.cell"],
  ["t5", "f2", "guide.freed"],
];

/** The guide's step on this board: {key, params, hint (pile names)} or the free play after. */
export function guideStep(state, steps = STEPS, done = new Set()) {
  if (!state) return { key: "guide.wait", params: {}, hint: new Set() };
  for (const [index, [src, dst, key]] of steps.entries()) {
    if (done.has(index)) continue;
    const cards = pileCards(state, src);
    const card = cards[cards.length - 1];
    const onto = pileCards(state, dst);
    const params = {
      card: card ? cardLabel(card) : "",
      from: pileName(src),
      to: pileName(dst),
      top: onto.length ? cardLabel(onto[onto.length - 1]) : "",
    };
    return { index, key, params, hint: new Set([src, dst]) };
  }
  return { key: "guide.free", params: {}, hint: new Set() };
}

/** The guide's panel: the step's words, or the end's. */
export function guideView(step, status) {
  const key = status === "won" ? "guide.won" : status && status !== "playing" ? "guide.lost" : step.key;
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

/** Which steps are done: a step's card has left its column, in order of the steps. */
export class GuideProgress {
  constructor(steps = STEPS) {
    this.steps = steps;
    this.done = new Set();
    this.cards = new Map(); // step index -> the card it moves, once seen
  }

  /** Update from a board the server confirmed; returns the step now shown. */
  step(state) {
    const now = guideStep(state, this.steps, this.done);
    if (now.index === undefined || !state) return now;
    const [src] = this.steps[now.index];
    const cards = pileCards(state, src);
    const seen = this.cards.get(now.index);
    if (seen === undefined) this.cards.set(now.index, cards[cards.length - 1]);
    else if (!cards.includes(seen)) {
      this.done.add(now.index);
      return this.step(state);
    }
    return now;
  }
}
