// @ts-check
// Pieces several pages share: racers' progress bars, the results table, room settings.

import { cardTotal } from "../board/cards.js";
import { h } from "./dom.js";
import { elapsedText, num, ordinal, t } from "./i18n.js";
import { racerName } from "./ghost.js";

/** A racer's status (playing, won, lost, resigned, timeout, ready, not ready) in words. */
export function statusText(status) {
  return status ? t(`status.${status.replace(" ", "_")}`) : "";
}

/**
 * Every racer's progress as a bar of foundation cards, with moves and place.
 * @param {any[]} players
 * @param {{ game?: string, you?: string | null, gaps?: boolean }} [options]
 */
export function racersPanel(players, { game, you = null, gaps = false } = {}) {
  const total = cardTotal(game);
  const list = h("ol", { class: "racers", "aria-label": t("racers.label") });
  for (const p of players) {
    const item = racerItem(p, total, you);
    const out = (q) => q.status === "resigned"; // out of the race: nobody's gap
    const racing = players.filter((q) => !out(q) || q.player_id === you);
    if (gaps && racing.length > 1 && !out(p)) item.append(gapLine(p, racing, you));
    list.append(item);
  }
  return list;
}

/** How far a racer is from you (or, for you, from the best of the others), in cards. */
function gapLine(p, players, you) {
  const cards = (q) => q?.foundation_cards ?? 0;
  const mine = players.find((q) => q.player_id === you);
  const others = players.filter((q) => q.player_id !== you);
  let text;
  if (p.player_id === you) {
    const best = Math.max(...others.map(cards));
    const d = cards(p) - best;
    if (d > 0) text = t("racers.youLead", { n: d });
    else text = d < 0 ? t("racers.youTrail", { n: -d }) : t("racers.youLevel");
  } else {
    const d = cards(p) - cards(mine);
    if (d > 0) text = t("racers.ahead", { n: d });
    else text = d < 0 ? t("racers.behind", { n: -d }) : t("racers.level");
  }
  const d = p.player_id === you ? 0 : cards(p) - cards(mine);
  const kind = d > 0 ? "ahead" : d < 0 ? "behind" : "level";
  return h("div", { class: `racer-gap gap-${kind}` }, text);
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
        "aria-label": t("racers.bar", { name: shownName(p), n: cards, total }),
      },
      h("div", { class: "bar-fill", style: { width: `${pct}%` } }),
    ),
    h(
      "div",
      { class: "racer-meta" },
      h("span", { class: "racer-cards" }, t("racers.cards", { n: cards, total })),
      h("span", { class: "racer-moves" }, t("racers.moves", { n: p.moves ?? 0 })),
      p.elapsed_ms != null && p.status !== "playing"
        ? h("span", {}, elapsedText(p.elapsed_ms))
        : null,
    ),
  );
}

/** A racer's name as text: "ghost of NAME" for a ghost's seat. */
function shownName(p) {
  return p.ghost_of ? t("ghost.of", { name: p.ghost_of }) : (p.name ?? "?");
}

/** The racer's name, "you", "offline", and their place and status. */
function racerLine(p, status, you) {
  return h(
    "div",
    { class: "racer-line" },
    racerName(p),
    botTag(p),
    p.player_id === you ? h("span", { class: "tag" }, t("racers.you")) : null,
    p.connected === false
      ? h("span", { class: "tag tag-off", title: t("racers.disconnected") }, t("racers.offline"))
      : null,
    h(
      "span",
      { class: "racer-status" },
      p.place ? `${ordinal(p.place)} · ` : "",
      statusText(status),
    ),
  );
}

/** "BOT" beside a racer whose account is a declared bot (`bot: true`: bots.js marks them). */
export function botTag(p) {
  if (!p?.bot) return null;
  return h("span", { class: "tag tag-bot", title: t("racers.botHint") }, t("profile.bot"));
}

/** A rating's change: "1000 → 1012 (+12)"; null when the race was not rated. */
export function ratingChange(before, after) {
  if (before == null || after == null) return null;
  const delta = num(after - before, { signDisplay: "exceptZero" });
  const kind = after > before ? "up" : after < before ? "down" : "same";
  return h(
    "span",
    { class: `rating-change rating-${kind}` },
    `${num(before)} → ${num(after)} `,
    h("span", { class: "rating-delta" }, `(${delta})`),
  );
}

// The final results' table says its roles: on a phone its rows are laid out as blocks
// (style.css), which would otherwise lose a table's meaning for screen readers.
const COLUMN = { role: "columnheader" };
const cell = (kind, content) => h("td", { role: "cell", class: kind }, content);

/** The final standings: place, name, result, cards, time (and the rating, when rated);
 * `action(row)`, when given, adds a last cell to each row (such as "Race this run"). Where
 * the table has not the width (a phone), each racer's row stacks its cells on two or three
 * lines (style.css), so time and rating are never hidden in a sideways scroll.
 * @param {any[]} standings
 * @param {{ game?: string, you?: string | null, action?: ((row: any) => any) | null }} [options]
 */
export function resultsTable(standings, { game, you = null, action = null } = {}) {
  const total = cardTotal(game);
  const rows = [...standings].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
  const rated = rows.some((r) => r.rated && r.rating_after != null);
  return h(
    "table",
    { class: "results results-final", role: "table" },
    h(
      "thead",
      { role: "rowgroup" },
      h(
        "tr",
        { role: "row" },
        h("th", COLUMN, t("results.place")),
        h("th", COLUMN, t("results.racer")),
        h("th", COLUMN, t("results.result")),
        h("th", COLUMN, t("results.cards")),
        h("th", COLUMN, t("results.time")),
        rated ? h("th", COLUMN, t("results.rating")) : null,
        action ? h("th", COLUMN, h("span", { class: "sr-only" }, t("ghost.column"))) : null,
      ),
    ),
    h(
      "tbody",
      { role: "rowgroup" },
      rows.map((r) =>
        h(
          "tr",
          {
            role: "row",
            class: r.player_id === you ? "you" : null,
            dataset: { player: r.player_id ?? "" },
            key: r.player_id,
          },
          cell("place", r.place ? ordinal(r.place) : "—"),
          cell("name", [racerName(r), r.bot ? " " : null, botTag(r)]),
          cell("result", statusText(r.status)),
          cell("cards", [t("results.of", { n: r.foundation_cards ?? 0, total }), tieBreak(r)]),
          cell("time", elapsedText(r.elapsed_ms)),
          rated ? cell("rating", ratingChange(r.rating_before, r.rating_after)) : null,
          action ? cell("row-action", action(r)) : null,
        ),
      ),
    ),
  );
}

/** Where equal cards were placed by the time of the last card, that time (the tie-break). */
function tieBreak(r) {
  if (r.last_card_ms == null) return null;
  const text = t("results.lastCard", { time: elapsedText(r.last_card_ms) });
  return h("small", { class: "tie-break" }, " ", text);
}

/** A one-line summary of a room's settings. */
export function settingsText(room) {
  const parts = [gameName(room.game)];
  if (room.game !== "squadron" && room.step) parts.push(stepText(room.step));
  if (room.seats)
    parts.push(room.seats === 1 ? t("settings.solo") : t("settings.seats", { n: room.seats }));
  if (room.time_limit_s)
    parts.push(t("unit.minutes", { n: Math.round(room.time_limit_s / 30) / 2 }));
  parts.push(room.undo ? t("settings.undo") : t("settings.noUndo"));
  if (room.berserk) parts.push(`⚔ ${t("settings.berserk")}`); // an arena racer's half the time
  if (room.autoplay) parts.push(t("settings.autoplay"));
  if (room.rated) parts.push(t("settings.rated"));
  if (room.tournament) {
    parts.push(t("settings.round", { name: room.tournament.name, n: room.tournament.round }));
  }
  if (room.deal_chosen) parts.push(t("settings.chosenDeal")); // its creator may have studied it
  if (room.boards_held)
    parts.push(t("settings.held")); // a race that counts: no delay shown
  else if (room.spectator_delay_s) parts.push(t("settings.delay", { n: room.spectator_delay_s }));
  return parts.join(" · ");
}

/** A room's step policy in words: choice, ones or twos. */
export function stepText(step) {
  return t(`step.${step}`);
}

/** The game's name: Stalactites or Squadron. */
export function gameName(game) {
  return t(game === "squadron" ? "game.squadron" : "game.stalactites");
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
