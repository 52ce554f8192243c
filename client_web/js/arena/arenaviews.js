// @ts-check
// Arenas' views, drawn from plain data (arenas.js): an arena's terms, the standings table
// (rank, name with a flame on a winning streak and a mark while racing berserk, points,
// races, wins, berserk rate, performance), the
// podium, and the lobby's line of one arena.

import {
  clockOf,
  lineState,
  performanceText,
  recurringName,
  shownLines,
  termsOf,
} from "./arenas.js";
import { h, tableScroll } from "../shared/dom.js";
import { clockText, num, ordinal, t } from "../shared/i18n.js";

/** The arena's name: a scheduled one's in the page's language, else as its organiser wrote it. */
export function arenaName(arena) {
  const named = recurringName(arena);
  if (!named) return arena.name;
  const [key, params] = named;
  return t(key, { ...params, game: t(params.game) });
}

/** "Stalactites · by ones · 5 min races · lasts 60 min · rated". */
export const termsText = (arena) =>
  termsOf(arena)
    .map(([key, params]) => t(key, params))
    .join(" · ");

/** The clock's words and time: ["Ends in", "41:07"] (the time empty once it is up). */
export function clockWords(arena, status, now) {
  const { key, ms } = clockOf(arena, status, now);
  const counting = key === "arenas.startsIn" || key === "arenas.endsIn";
  return [t(key), counting ? clockText(ms) : ""];
}

/** The flame of a streak on fire: the next win counts double. */
function flame(line) {
  if (!line.fire) return null;
  const said = t("arenas.fire");
  return h("span", { class: "arena-fire", title: said, role: "img", "aria-label": said }, "🔥");
}

/** The mark of a racer racing berserk now: half the time, no undo. */
function berserkMark(line) {
  if (!line.berserk) return null;
  const said = t("arenas.berserkNow");
  return h("span", { class: "arena-berserk", title: said, role: "img", "aria-label": said }, "⚔");
}

function nameCell(line) {
  const said = lineState(line);
  return h(
    "td",
    { class: "racer-name" },
    line.name,
    flame(line),
    berserkMark(line),
    line.mine ? h("span", { class: "tag" }, t("racers.you")) : null,
    said ? h("span", { class: "arena-state muted" }, t(...said)) : null,
  );
}

/** The standings' table of `lines` (each marked `mine` and `apart` as shownLines does);
 * `live`: the live table, which a phone shows as rank, player and points. */
export function standingsTable(lines, label, live = false) {
  if (!lines.length) return h("p", { class: "muted standings-empty" }, t("arenas.noStandings"));
  const head = ["rank", "player", "score", "races", "wins", "berserk", "performance"];
  const rows = lines.map((line) =>
    h(
      "tr",
      {
        class: [line.mine ? "you" : "", line.apart ? "apart" : ""].join(" ").trim() || null,
        dataset: { player: line.player_id },
        key: line.player_id,
      },
      h("td", { class: "place" }, num(line.rank)),
      nameCell(line),
      h("td", { class: "points" }, num(line.score)),
      h("td", { class: "col-races" }, num(line.races)),
      h("td", { class: "col-wins" }, num(line.wins)),
      h(
        "td",
        { class: "col-berserk" },
        num(line.berserk_rate ?? 0, { style: "percent", maximumFractionDigits: 0 }),
      ),
      h("td", { class: "col-performance" }, performanceText(line)),
    ),
  );
  const table = h(
    "table",
    { class: `results standings arena-standings${live ? " live" : ""}` },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((key) => h("th", { class: `col-${key}` }, t(`arenas.${key}`))),
      ),
    ),
    h("tbody", {}, rows),
  );
  return tableScroll(table, label);
}

/** The live top ten and your line. */
export const liveTable = (state) =>
  standingsTable(shownLines(state.top, state.you), t("arenas.standings"), true);

/** The end: the three best, and the entrant's own final line. */
export function podiumView(podium, you) {
  const places = podium.map((line, i) =>
    h(
      "li",
      {
        class: `podium-place podium-${i + 1}`,
        dataset: { player: line.player_id },
        key: line.player_id,
      },
      h("span", { class: "podium-medal" }, ordinal(i + 1)),
      h("strong", { class: "podium-name" }, line.name),
      h("span", { class: "podium-score" }, t("arenas.points", { n: line.score })),
    ),
  );
  const mine = you
    ? h(
        "p",
        { class: "podium-you", role: "status" },
        t("arenas.yourResult", { place: ordinal(you.rank), n: you.score }),
      )
    : null;
  return h(
    "div",
    { class: "arena-podium" },
    h("h2", {}, t("arenas.podium")),
    podium.length
      ? h("ol", { class: "podium" }, places)
      : h("p", { class: "muted" }, t("arenas.noStandings")),
    mine,
  );
}

/** One arena in the lobby's lists: its name and terms, when, entrants, and its link. */
export function lobbyItem(arena, now) {
  const [when, time] = clockWords(arena, arena.status, now);
  const open = t("arenas.open");
  return h(
    "li",
    { class: "room-item", dataset: { arena: arena.arena_id }, key: arena.arena_id },
    h(
      "div",
      {},
      h("strong", { class: "arena-name" }, arenaName(arena)),
      h("div", { class: "muted" }, termsText(arena)),
      h(
        "div",
        { class: "muted" },
        h("span", { class: "arena-when" }, time ? `${when} ${time}` : when),
        " · ",
        t("arenas.entrants", { n: arena.entrants }),
      ),
    ),
    h(
      "a",
      {
        class: "btn btn-small",
        href: `#/arena/${encodeURIComponent(arena.arena_id)}`,
        "aria-label": `${open}: ${arenaName(arena)}`,
      },
      open,
    ),
  );
}
