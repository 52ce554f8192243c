// @ts-check
// The lobby's tournaments: those starting soon (taking entries) and those running, from
// GET /api/tournaments?status=scheduled|running, asked for with the room lists and drawn in
// place (render.js patches by key).

import { errorText, listTournaments } from "../shared/api.js";
import { h } from "../shared/dom.js";
import { dateTime, t } from "../shared/i18n.js";
import { tournamentSummary } from "../tournament/tournamentviews.js";

export const TOURNAMENT_LISTS = ["scheduled", "running"];

/** The list's answer as the page's state: {tournaments} or {error}. */
export async function fetchTournaments(status) {
  try {
    const answer = await listTournaments(status);
    return { tournaments: answer?.tournaments ?? [] };
  } catch (error) {
    return { error: t("lobby.tournamentsUnavailable", { why: errorText(error) }) };
  }
}

/** Soonest start first; those the organiser starts by hand after them, newest first. */
function bySoonest(a, b) {
  if (a.starts_at === null && b.starts_at === null) return 0;
  if (a.starts_at === null) return 1;
  if (b.starts_at === null) return -1;
  return a.starts_at - b.starts_at;
}

/** One list, under its own heading. */
export function tournamentList(list, status) {
  const heading = h("h3", {}, t(status === "scheduled" ? "lobby.soon" : "lobby.running"));
  if (!list) return h("div", { class: "tournament-list" }, heading);
  let body;
  if (list.error) body = h("p", { class: "muted" }, list.error);
  else if (!list.tournaments.length) {
    const none = status === "scheduled" ? "lobby.noSoon" : "lobby.noRunning";
    body = h("p", { class: "muted" }, t(none));
  } else {
    const shown = status === "scheduled" ? [...list.tournaments].sort(bySoonest) : list.tournaments;
    body = h("ul", {}, shown.map(tournamentItem));
  }
  return h("div", { class: "tournament-list", dataset: { list: status } }, heading, body);
}

function when(tm) {
  if (tm.status === "scheduled") {
    return tm.starts_at === null
      ? t("lobby.startsByOrganiser")
      : t("lobby.startsAtTime", { when: dateTime(tm.starts_at) });
  }
  const round = t("tour.roundOf", { n: tm.round ?? 1, total: tm.rounds });
  return tm.status === "break" ? `${round} · ${t("tour.status.break")}` : round;
}

function tournamentItem(tm) {
  const id = tm.tournament_id;
  const open = tm.status === "scheduled" ? t("lobby.enterTournament") : t("lobby.followTournament");
  return h(
    "li",
    { class: "room-item", dataset: { tournament: id }, key: id },
    h(
      "div",
      {},
      h("strong", { class: "tournament-name" }, tm.name),
      tm.deals_chosen ? h("span", { class: "tag" }, t("lobby.dealsChosen")) : null,
      h("div", { class: "muted" }, tournamentSummary(tm)),
      h("div", { class: "muted" }, when(tm)),
    ),
    h(
      "a",
      {
        class: "btn btn-small",
        href: `#/tournament/${encodeURIComponent(id)}`,
        "aria-label": `${open}: ${tm.name}`,
      },
      open,
    ),
  );
}
