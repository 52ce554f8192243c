// Pieces several pages share: racers' progress bars, the results table, room settings.

import { cardTotal } from "./board.js";
import { elapsedText, h, ordinal } from "./dom.js";

const STATUS_TEXT = {
  playing: "racing",
  won: "won",
  lost: "stuck",
  resigned: "resigned",
  timeout: "out of time",
};

/** Every racer's progress as a bar of foundation cards, with moves and place. */
export function racersPanel(players, { game, you = null } = {}) {
  const total = cardTotal(game);
  const list = h("ol", { class: "racers", "aria-label": "racers" });
  for (const p of players) list.append(racerItem(p, total, you));
  return list;
}

/** One racer: name, tags, status, the bar, cards, moves and time. */
function racerItem(p, total, you) {
  const cards = p.foundation_cards ?? 0;
  const pct = Math.round((100 * cards) / total);
  const waiting = !p.status || p.status === "waiting";
  const status = waiting ? (p.ready ? "ready" : "not ready") : p.status;
  return h(
    "li",
    {
      class: `racer racer-${status.replace(" ", "-")}${p.player_id === you ? " you" : ""}`,
      dataset: { player: p.player_id },
      key: p.player_id,
    },
    racerLine(p, status, you),
    h(
      "div",
      {
        class: "bar",
        role: "progressbar",
        "aria-valuemin": "0",
        "aria-valuemax": String(total),
        "aria-valuenow": String(cards),
        "aria-label": `${p.name ?? "racer"}: ${cards} of ${total} cards on foundations`,
      },
      h("div", { class: "bar-fill", style: { width: `${pct}%` } }),
    ),
    h(
      "div",
      { class: "racer-meta" },
      h("span", { class: "racer-cards" }, `${cards}/${total} cards`),
      h("span", { class: "racer-moves" }, `${p.moves ?? 0} moves`),
      p.elapsed_ms != null && p.status !== "playing"
        ? h("span", {}, elapsedText(p.elapsed_ms))
        : null,
    ),
  );
}

/** The racer's name, "you", "offline", and their place and status. */
function racerLine(p, status, you) {
  return h(
    "div",
    { class: "racer-line" },
    h("span", { class: "racer-name" }, p.name ?? "?"),
    p.player_id === you ? h("span", { class: "tag" }, "you") : null,
    p.connected === false
      ? h("span", { class: "tag tag-off", title: "disconnected" }, "offline")
      : null,
    h(
      "span",
      { class: "racer-status" },
      p.place ? `${ordinal(p.place)} · ` : "",
      STATUS_TEXT[status] ?? status,
    ),
  );
}

/** The final standings: place, name, result, cards, time. */
export function resultsTable(standings, { game, you = null } = {}) {
  const total = cardTotal(game);
  const rows = [...standings].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
  return h(
    "table",
    { class: "results" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "Place"),
        h("th", {}, "Racer"),
        h("th", {}, "Result"),
        h("th", {}, "Cards"),
        h("th", {}, "Time"),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((r) =>
        h(
          "tr",
          {
            class: r.player_id === you ? "you" : null,
            dataset: { player: r.player_id ?? "" },
            key: r.player_id,
          },
          h("td", { class: "place" }, r.place ? ordinal(r.place) : "—"),
          h("td", {}, r.name ?? r.player_id ?? "?"),
          h("td", {}, STATUS_TEXT[r.status] ?? r.status ?? ""),
          h("td", {}, `${r.foundation_cards ?? 0}/${total}`),
          h("td", {}, elapsedText(r.elapsed_ms)),
        ),
      ),
    ),
  );
}

/** A one-line summary of a room's settings. */
export function settingsText(room) {
  const parts = [room.game === "squadron" ? "Squadron" : "Stalactites"];
  if (room.game !== "squadron" && room.step) parts.push(stepText(room.step));
  if (room.seats) parts.push(room.seats === 1 ? "solo" : `${room.seats} seats`);
  if (room.time_limit_s) parts.push(`${Math.round(room.time_limit_s / 60)} min`);
  parts.push(room.undo ? "undo on" : "no undo");
  if (room.spectator_delay_s) parts.push(`spectators ${room.spectator_delay_s} s behind`);
  return parts.join(" · ");
}

export function stepText(step) {
  return { choice: "step of your choice", ones: "by ones", twos: "by twos" }[step] ?? step;
}

/** Merge a progress or finished event into a player list (by player_id). */
export function mergePlayer(players, update) {
  const found = players.find((p) => p.player_id === update.player_id);
  const fields = { ...update };
  delete fields.type;
  delete fields.seq;
  if (found) Object.assign(found, fields);
  else players.push(fields);
}
