// @ts-check
// The replay's parts, drawn from plain data: one racer's board as it stood at a race time,
// with its foundation cards, last action and the list of the racer's actions with their
// times (the current one lit, undone ones struck through); and the runs read from a record.

import { renderBoard } from "../board/board.js";
import { cardTotal } from "../board/cards.js";
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { parseMove } from "../board/moves.js";
import { actionsOf, runOf, stepAt } from "./timeline.js";
import { raceTime } from "./timelineview.js";
import { actionText } from "./analysisview.js";

/** A racer's board at race time `ms`; `onPick(ms)` shows the race at an action's time. */
export function replayBoard(run, ms, { game, compact, onPick }) {
  const step = stepAt(run.steps, ms);
  const last = step.index > 0 ? step : null;
  const cards =
    step.cards == null
      ? null
      : h(
          "span",
          { class: "replay-cards", dataset: { cards: String(step.cards) } },
          t("replay.cards", { n: step.cards, total: cardTotal(game) }),
        );
  const lastText = last
    ? t("replay.last", { action: actionText(last.action), time: raceTime(last.at_ms) })
    : null;
  const head = h(
    "header",
    { class: "replay-head" },
    h("strong", { class: "replay-name" }, run.name),
    cards,
    lastText ? h("span", { class: "last-move" }, lastText) : null,
  );
  const move = last ? parseMove(last.action) : null;
  const body = step.state
    ? renderBoard(step.state, { compact, targets: new Set(move ? [move.dst] : []) })
    : h("p", { class: "muted" }, t("replay.unknownBoard"));
  return h(
    "article",
    { class: "replay-board", dataset: { player: run.player_id }, key: run.player_id },
    head,
    body,
    actionList(run, step.index, onPick),
  );
}

/** A racer's actions with their times: the current one marked, undone ones struck through. */
function actionList(run, current, onPick) {
  const items = run.steps.slice(1).map((s) => {
    const classes = [s.index === current && "current", s.index > current && "later"];
    if (s.undone) classes.push("undone");
    const label = t("replay.pick", { action: actionText(s.action), time: raceTime(s.at_ms) });
    return h(
      "li",
      { class: classes.filter(Boolean).join(" "), dataset: { index: String(s.index) } },
      h(
        "button",
        { class: "action-pick", onclick: () => onPick(s.at_ms), "aria-label": label },
        h("span", { class: "action-time" }, raceTime(s.at_ms)),
        h("span", { class: "action-text" }, actionText(s.action)),
        s.undone ? h("span", { class: "action-undone" }, t("replay.undone")) : null,
      ),
    );
  });
  return h(
    "div",
    { class: "replay-actions" },
    h("h3", {}, t("replay.actions", { n: items.length })),
    items.length
      ? h("ol", { class: "action-list" }, items)
      : h("p", { class: "muted" }, t("replay.noActions")),
  );
}

/** Scroll a list (only the list, not the page) to its current item. */
export function scrollToCurrent(list) {
  const item = list.querySelector("li.current");
  if (!item) {
    list.scrollTop = 0;
    return;
  }
  const top = item.offsetTop; // the list is positioned: offsets are within it
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - item.offsetHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

/** Each player's run from a record answer: their timed actions and the boards along them. */
export function runsOf(data, room) {
  const names = new Map((room?.players ?? []).map((p) => [p.player_id, p.name]));
  const initial = data?.initial_state ?? null;
  return (data?.players ?? []).map((entry, i) => {
    const { actions, timed } = actionsOf(entry);
    return {
      player_id: entry.player_id ?? `p${i + 1}`,
      name: entry.name ?? names.get(entry.player_id) ?? t("replay.racer", { n: i + 1 }),
      steps: runOf(initial, actions),
      timed,
    };
  });
}
