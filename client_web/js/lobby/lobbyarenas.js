// @ts-check
// The lobby's arenas: those running now and those starting soon (GET /api/arenas?status=),
// each with its terms, the time left (or to its start), its entrants and a link to its page;
// and "Create an arena", folded away. The panel asks for its lists itself, every few
// seconds, and draws them in place (render.js patches by key); the lobby only places it.

import { DURATIONS_MIN, TIME_LIMITS_MIN, createBody, lobbyOrder } from "../arena/arenas.js";
import { arenaError, createArena, listArenas } from "../arena/arenas_api.js";
import { lobbyItem } from "../arena/arenaviews.js";
import { serverNow, syncClock } from "../shared/clock.js";
import { h } from "../shared/dom.js";
import { checkbox, field, formError, formValues, select, textInput } from "../shared/forms.js";
import { t } from "../shared/i18n.js";
import { patch } from "../shared/render.js";
import { ensurePlayer } from "../shared/session.js";

const REFRESH_MS = 10000;
const TICK_MS = 1000;
const LISTS = ["running", "scheduled"];

export class ArenasPanel {
  constructor() {
    this.lists = { running: null, scheduled: null }; // {arenas} or {error}; null until heard
    this.body = h("div", { class: "room-list arena-lists", "aria-live": "polite" });
    this.el = h(
      "section",
      { class: "panel panel-arenas" },
      h("h2", {}, t("arenas.title")),
      h("p", { class: "hint" }, t("arenas.intro")),
      this.body,
      h("details", { class: "arena-create" }, h("summary", {}, t("arenas.create")), this.form()),
    );
    syncClock();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.ticker = setInterval(() => this.draw(), TICK_MS); // the times left
  }

  stop() {
    clearInterval(this.timer);
    clearInterval(this.ticker);
  }

  async refresh() {
    await Promise.all(LISTS.map((status) => this.fetch(status)));
    this.draw();
  }

  async fetch(status) {
    try {
      const answer = await listArenas(status);
      this.lists[status] = { arenas: lobbyOrder(answer.arenas ?? [], status) };
    } catch (error) {
      this.lists[status] = { error: t("arenas.unavailable", { why: arenaError(error) }) };
    }
  }

  draw() {
    const now = serverNow();
    patch(
      this.body,
      LISTS.map((status) => listView(this.lists[status], status, now)),
    );
  }

  form() {
    const game = select("game", GAMES(), "stalactites");
    const stepField = field(t("lobby.step"), select("step", STEPS(), "choice"));
    game.addEventListener("change", () => (stepField.hidden = game.value === "squadron"));
    const minutes = (n) => [String(n), t("unit.minutes", { n })];
    return h(
      "form",
      { class: "create", onsubmit: (e) => this.create(e) },
      field(t("arenas.name"), textInput("name", "", { maxlength: "60", required: true })),
      h("div", { class: "field-row" }, field(t("lobby.game"), game), stepField),
      h(
        "div",
        { class: "field-row" },
        field(t("arenas.duration"), select("duration_min", DURATIONS_MIN.map(minutes), "60")),
        field(t("arenas.raceTime"), select("minutes", TIME_LIMITS_MIN.map(minutes), "5")),
        field(t("arenas.seats"), select("seats", SEATS(), "2")),
      ),
      h("label", { class: "check" }, checkbox("rated", true), " ", t("arenas.rated")),
      h("button", { class: "btn", type: "submit" }, t("arenas.createButton")),
    );
  }

  async create(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = createBody(formValues(form));
    if (!body.name) return formError(form, t("arenas.needName"));
    try {
      if (!(await ensurePlayer())) return formError(form, arenaError({ code: "unauthorized" }));
      const made = await createArena(body);
      location.hash = `#/arena/${encodeURIComponent(made.arena.arena_id)}`;
    } catch (error) {
      formError(form, arenaError(error));
    }
  }
}

const GAMES = () => [
  ["stalactites", t("game.stalactites")],
  ["squadron", t("game.squadron")],
];
const STEPS = () => [
  ["choice", t("lobby.stepChoice")],
  ["ones", t("lobby.stepOnes")],
  ["twos", t("lobby.stepTwos")],
];
const SEATS = () => [2, 3, 4].map((n) => [String(n), String(n)]);

/** One list under its heading: its arenas, or that there are none, or why it is missing. */
function listView(list, status, now) {
  const heading = h("h3", {}, t(status === "running" ? "arenas.running" : "arenas.soon"));
  let body = null;
  if (list?.error) body = h("p", { class: "muted" }, list.error);
  else if (list && !list.arenas.length) {
    const none = status === "running" ? "arenas.noRunning" : "arenas.noSoon";
    body = h("p", { class: "muted" }, t(none));
  } else if (list)
    body = h(
      "ul",
      {},
      list.arenas.map((arena) => lobbyItem(arena, now)),
    );
  return h("div", { class: "arena-list", dataset: { list: status }, key: status }, heading, body);
}
