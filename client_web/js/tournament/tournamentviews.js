// @ts-check
// The tournament page's tables: standings, and the rounds played so far.

import { h, tableScroll } from "../shared/dom.js";
import { elapsedText, ordinal, t } from "../shared/i18n.js";
import { gameName, stepText } from "../shared/widgets.js";

/** One line: game, step, rounds, round time, break, entrants. */
export function tournamentSummary(tm) {
  const parts = [gameName(tm.game)];
  if (tm.game !== "squadron" && tm.step) parts.push(stepText(tm.step));
  const minutes = t("unit.minutes", { n: Math.round((tm.round_time_s ?? 0) / 60) });
  parts.push(t("tour.rounds", { n: tm.rounds, minutes }));
  if (tm.break_s && tm.rounds > 1) parts.push(t("tour.breaks", { n: tm.break_s }));
  parts.push(t("tour.entrants", { n: tm.entrants ?? 0, max: tm.max_players ?? "?" }));
  return parts.join(" · ");
}

/** An entrant's line: entered and waiting for a round, or, once it is over, that it is over
 * (not "Your board opens when a round starts" on a finished tournament). */
export function entrantLine(tm) {
  const over = tm.status === "finished";
  return h(
    "p",
    { class: over ? "entrant-line muted" : "entrant-line ok" },
    t(over ? "race.tournamentOver" : "tour.entered"),
  );
}

/** Rank, name, points, rounds won and total time; you are marked. */
export function standingsTable(rows, you) {
  if (!rows.length) return h("p", { class: "muted standings-empty" }, t("tour.noStandings"));
  const sorted = [...rows].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  const head = ["tour.rank", "tour.player", "tour.points", "tour.roundsWon", "tour.totalTime"];
  const table = h(
    "table",
    { class: "results standings" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((key) => h("th", {}, t(key))),
      ),
    ),
    h(
      "tbody",
      {},
      sorted.map((r) =>
        h(
          "tr",
          {
            class: r.player_id === you ? "you" : null,
            dataset: { player: r.player_id },
            key: r.player_id,
          },
          h("td", { class: "place" }, String(r.rank ?? "")),
          h("td", {}, r.name ?? r.player_id),
          h("td", { class: "points" }, String(r.points ?? 0)),
          h("td", {}, String(r.rounds_won ?? 0)),
          h("td", {}, elapsedText(r.total_time_ms)),
        ),
      ),
    ),
  );
  return tableScroll(table, t("tour.standings"));
}

/** Every round begun: the winner and points once finished, a link to watch or replay. */
export function roundsList(rounds, you) {
  if (!rounds.length) return null;
  const items = [...rounds]
    .sort((a, b) => a.round - b.round)
    .map((r) => {
      const link = r.finished
        ? h("a", { class: "btn btn-small", href: `#/replay/${r.room_id}` }, t("join.replay"))
        : h("a", { class: "btn btn-small", href: `#/watch/${r.room_id}` }, t("lobby.watch"));
      const lines = (r.results ?? [])
        .slice(0, 3)
        .map((line) =>
          h(
            "span",
            { class: line.player_id === you ? "round-line-you" : null },
            `${ordinal(line.place)} `,
            line.name,
            " ",
            t("tour.pts", { n: line.points }),
          ),
        );
      const summary = r.finished ? lines : [h("span", { class: "muted" }, t("tour.inPlay"))];
      return h(
        "li",
        { class: "round-item", dataset: { round: String(r.round) }, key: r.round },
        h("strong", {}, t("tour.round", { n: r.round })),
        h("span", { class: "round-results" }, summary),
        link,
      );
    });
  return [h("h2", {}, t("lobby.rounds")), h("ol", { class: "rounds" }, items)];
}
