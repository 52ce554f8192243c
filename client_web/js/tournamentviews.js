// The tournament page's tables: standings, and the rounds played so far.

import { elapsedText, h, ordinal } from "./dom.js";
import { stepText } from "./widgets.js";

/** One line: game, step, rounds, round time, break, entrants. */
export function tournamentSummary(t) {
  const parts = [t.game === "squadron" ? "Squadron" : "Stalactites"];
  if (t.game !== "squadron" && t.step) parts.push(stepText(t.step));
  const rounds = t.rounds === 1 ? "1 round" : `${t.rounds} rounds`;
  parts.push(`${rounds} of ${Math.round((t.round_time_s ?? 0) / 60)} min`);
  if (t.break_s) parts.push(`${t.break_s} s breaks`);
  parts.push(`${t.entrants ?? 0}/${t.max_players ?? "?"} entrants`);
  return parts.join(" · ");
}

/** Rank, name, points, rounds won and total time; you are marked. */
export function standingsTable(rows, you) {
  if (!rows.length) return h("p", { class: "muted standings-empty" }, "No standings yet.");
  const sorted = [...rows].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  const head = ["Rank", "Player", "Points", "Rounds won", "Total time"];
  return h(
    "table",
    { class: "results standings" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((text) => h("th", {}, text)),
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
}

/** Every round begun: the winner and points once finished, a link to watch or replay. */
export function roundsList(rounds, you) {
  if (!rounds.length) return null;
  const items = [...rounds]
    .sort((a, b) => a.round - b.round)
    .map((r) => {
      const link = r.finished
        ? h("a", { class: "btn btn-small", href: `#/replay/${r.room_id}` }, "Replay")
        : h("a", { class: "btn btn-small", href: `#/watch/${r.room_id}` }, "Watch");
      const lines = (r.results ?? [])
        .slice(0, 3)
        .map((line) =>
          h(
            "span",
            { class: line.player_id === you ? "round-line-you" : null },
            `${ordinal(line.place)} `,
            line.name,
            ` (${line.points} pts)`,
          ),
        );
      const summary = r.finished ? lines : [h("span", { class: "muted" }, "in play")];
      return h(
        "li",
        { class: "round-item", dataset: { round: String(r.round) }, key: r.round },
        h("strong", {}, `Round ${r.round}`),
        h("span", { class: "round-results" }, summary),
        link,
      );
    });
  return [h("h2", {}, "Rounds"), h("ol", { class: "rounds" }, items)];
}
