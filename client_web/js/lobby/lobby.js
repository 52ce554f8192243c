// @ts-check
// The lobby: a quick race first (quickrace.js); create a room, share it, find waiting and
// live rooms, enter a tournament or an arena (lobbyarenas.js).
// The forms are made once; the room lists are the page's state, asked for every few seconds
// and drawn by one scheduled render, in place.

import {
  createRoom,
  createTournament,
  errorText,
  joinRoom,
  listRooms,
  roomsOf,
} from "../shared/api.js";
import { h, replace } from "../shared/dom.js";
import { list as listText, t } from "../shared/i18n.js";
import { patch, scheduled } from "../shared/render.js";
import {
  checkbox,
  checkedName,
  field,
  formError,
  formValues,
  numberInput,
  select,
  textInput,
} from "../shared/forms.js";
import {
  guideOffered,
  saveGuideOffered,
  saveName,
  saveRoomSeat,
  savedName,
  saveTournamentSeat,
} from "../shared/storage.js";
import { quickRacePanel } from "./quickrace.js";
import { ensurePlayer, onPlayer } from "../shared/session.js";
import { settingsText } from "../shared/widgets.js";
import { friendPanel, todayCard } from "./lobbydaily.js";
import { startsAt, startsAtField } from "./tournamentstart.js";
import { fetchTournaments, TOURNAMENT_LISTS, tournamentList } from "./lobbytournaments.js";
import { ArenasPanel } from "./lobbyarenas.js";

const REFRESH_MS = 5000;
const GAMES = () => [
  ["stalactites", t("game.stalactites")],
  ["squadron", t("game.squadron")],
];
const STEPS = () => [
  ["choice", t("lobby.stepChoice")],
  ["ones", t("lobby.stepOnes")],
  ["twos", t("lobby.stepTwos")],
];

export class LobbyPage {
  constructor(app) {
    this.app = app;
    // status -> {rooms} or {error}; null until the first answer
    this.lists = { waiting: null, racing: null };
    this.tournaments = { scheduled: null, running: null }; // likewise, {tournaments} or {error}
    this.renderer = scheduled(() => this.render());
    this.waiting = h("div", { class: "room-list", "aria-live": "polite" });
    this.live = h("div", { class: "room-list", "aria-live": "polite" });
    this.tournamentLists = h("div", { class: "room-list tournament-lists", "aria-live": "polite" });
    this.arenas = new ArenasPanel();
    replace(
      app,
      h(
        "div",
        { class: "lobby" },
        quickRacePanel(),
        todayCard(),
        friendPanel(),
        guideOffered() ? null : learnPanel(true),
        h(
          "section",
          { class: "panel panel-create" },
          h("h1", {}, t("lobby.start")),
          this.createForm(),
        ),
        guideOffered() ? learnPanel(false) : null,
        h("section", { class: "panel" }, h("h2", {}, t("lobby.waiting")), this.waiting),
        h("section", { class: "panel" }, h("h2", {}, t("lobby.racing")), this.live),
        this.arenas.el,
        h(
          "section",
          { class: "panel panel-tournaments" },
          h("h2", {}, t("lobby.tournaments")),
          this.tournamentLists,
          this.tournamentForms(),
        ),
      ),
    );
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  destroy() {
    clearInterval(this.timer);
    this.arenas.stop();
    this.renderer.stop();
    this.stopPlayer();
  }

  createForm() {
    const game = select("game", GAMES(), "stalactites");
    const step = select("step", STEPS(), "choice");
    const undo = checkbox("undo", true);
    const name = textInput("name", savedName(), {
      maxlength: "24",
      placeholder: t("lobby.namePlaceholder"),
    });
    const rated = h(
      "label",
      { class: "check check-hint rated-option" },
      checkbox("rated", false),
      " ",
      t("lobby.rated"),
      h("small", {}, t("lobby.ratedHint")),
    );
    const stepField = field(t("lobby.step"), step, t("lobby.stepHint"));
    game.addEventListener("change", () => {
      stepField.hidden = game.value === "squadron";
      undo.checked = game.value !== "squadron";
    });
    const form = h(
      "form",
      { class: "create", onsubmit: (e) => this.create(e) },
      field(t("form.yourName"), name, t("form.nameOptional")),
      h("div", { class: "field-row" }, field(t("lobby.game"), game), stepField),
      roomFields(),
      h("label", { class: "check" }, undo, " ", t("lobby.undo")),
      h(
        "label",
        { class: "check check-hint" },
        checkbox("autoplay", false),
        " ",
        t("lobby.autoplay"),
        h("small", {}, t("lobby.autoplayHint")),
      ),
      rated,
      h("button", { class: "btn btn-primary btn-big", type: "submit" }, t("lobby.create")),
    );
    // A rated race: two seats or more, the server's deal, every racer a player (so: signed in).
    const seats = form.querySelector("input[name=seats]");
    const deal = form.querySelector("input[name=deal]");
    const offer = () => {
      const player = this.player;
      rated.hidden = !player || Number(seats.value) < 2 || Boolean(deal.value.trim());
      name.required = !player;
      name.placeholder = player?.name ?? t("lobby.namePlaceholder");
    };
    seats.addEventListener("input", offer);
    deal.addEventListener("input", offer);
    this.stopPlayer = onPlayer((player) => {
      this.player = player;
      offer();
    });
    return form;
  }

  async create(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const v = formValues(form);
    const player = await ensurePlayer();
    const name = player && !v.name ? null : checkedName(form, v.name);
    if (!name && !player) return;
    if (name) saveName(name);
    const settings = {
      game: v.game,
      seats: v.seats,
      time_limit_s: Math.round((v.minutes ?? 15) * 60),
      undo: v.undo,
      autoplay: v.autoplay,
      countdown_s: v.countdown_s,
    };
    if (v.game === "stalactites") settings.step = v.step;
    if (v.spectator_delay_s !== null) settings.spectator_delay_s = v.spectator_delay_s;
    if (v.deal) settings.deal = v.deal;
    if (v.rated && !form.querySelector(".rated-option").hidden) settings.rated = true;
    try {
      const room = await createRoom(settings);
      const seat = await joinRoom(room.room_id, name);
      saveRoomSeat(room.room_id, { player_id: seat.player_id, token: seat.token });
      location.hash = `#/room/${room.room_id}`;
    } catch (error) {
      formError(form, errorText(error));
    }
  }

  async refresh() {
    await Promise.all([
      this.fetchList("waiting"),
      this.fetchList("racing"),
      ...TOURNAMENT_LISTS.map((status) => this.fetchTournaments(status)),
    ]);
  }

  async fetchTournaments(status) {
    this.tournaments[status] = await fetchTournaments(status);
    this.renderer.schedule();
  }

  async fetchList(status) {
    try {
      this.lists[status] = { rooms: roomsOf(await listRooms(status)) };
    } catch (error) {
      if (error.status === 404) clearInterval(this.timer); // this server keeps no lists
      const why = error.status === 404 ? t("lobby.noLists") : errorText(error);
      this.lists[status] = { error: t("lobby.listUnavailable", { why }) };
    }
    this.renderer.schedule();
  }

  render() {
    patch(this.waiting, listView(this.lists.waiting, "waiting"));
    patch(this.live, listView(this.lists.racing, "racing"));
    patch(
      this.tournamentLists,
      TOURNAMENT_LISTS.map((status) => tournamentList(this.tournaments[status], status)),
    );
  }

  tournamentForms() {
    const organise = h(
      "form",
      { class: "create", onsubmit: (e) => this.organise(e) },
      field(t("lobby.tournamentName"), textInput("name", "", { maxlength: "60", required: true })),
      h(
        "div",
        { class: "field-row" },
        field(t("lobby.game"), select("game", GAMES(), "stalactites")),
        field(t("lobby.step"), select("step", STEPS(), "choice")),
      ),
      h(
        "div",
        { class: "field-row" },
        field(t("lobby.rounds"), numberInput("rounds", 3, 1, 20)),
        field(t("lobby.roundMin"), numberInput("round_min", 5, 1, 60)),
        field(t("lobby.breakS"), numberInput("break_s", 30, 0, 600)),
        field(t("lobby.maxPlayers"), numberInput("max_players", 50, 2, 1000)),
      ),
      startsAtField(),
      h("button", { class: "btn", type: "submit" }, t("lobby.createTournament")),
    );
    return [enterForm(), h("details", {}, h("summary", {}, t("lobby.organise")), organise)];
  }

  async organise(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const v = formValues(form);
    if (!v.name) return formError(form, t("lobby.needTournamentName"));
    const settings = {
      name: v.name,
      game: v.game,
      step: v.game === "squadron" ? null : v.step,
      rounds: v.rounds,
      round_time_s: Math.round((v.round_min ?? 5) * 60),
      break_s: v.break_s,
      starts_at: startsAt(v.starts_at),
      max_players: v.max_players,
    };
    try {
      const made = await createTournament(settings);
      saveTournamentSeat(`${made.tournament_id}.admin`, { admin_token: made.admin_token });
      location.hash = `#/tournament/${made.tournament_id}`;
    } catch (error) {
      formError(form, errorText(error));
    }
  }
}

/** The way in for a newcomer: the rules, and a first game with a guide. */
function learnPanel(offer) {
  const dismiss = (event) => {
    saveGuideOffered();
    event.currentTarget.closest(".panel-learn")?.remove();
  };
  return h(
    "section",
    { class: `panel panel-learn${offer ? " panel-offer" : ""}` },
    h("h2", {}, t(offer ? "learn.offer" : "lobby.newHere")),
    h("p", {}, t("lobby.newHereText")),
    h(
      "div",
      { class: "end-actions" },
      h("a", { class: "btn btn-primary", href: "#/learn" }, t("lobby.learn")),
      h("a", { class: "btn", href: "#/rules/stalactites" }, t("lobby.rulesStalactites")),
      h("a", { class: "btn", href: "#/rules/squadron" }, t("lobby.rulesSquadron")),
      offer ? h("button", { class: "btn btn-quiet", onclick: dismiss }, t("learn.noThanks")) : null,
    ),
  );
}

/** The room form's number and text fields: seats, times, spectator delay, deal. */
function roomFields() {
  return [
    h(
      "div",
      { class: "field-row" },
      field(t("lobby.seats"), numberInput("seats", 2, 1, 8), t("lobby.seatsHint")),
      field(t("lobby.minutes"), numberInput("minutes", 15, 1, 120)),
      field(t("lobby.countdown"), numberInput("countdown_s", 5, 0, 30)),
    ),
    h(
      "div",
      { class: "field-row" },
      field(t("lobby.delay"), numberInput("spectator_delay_s", "", 0, 300), t("lobby.delayHint")),
      field(
        t("lobby.deal"),
        textInput("deal", "", { placeholder: "ms:1", maxlength: "40" }),
        t("lobby.dealHint"),
      ),
    ),
  ];
}

/** Open a tournament from its link (or its bare id). */
function enterForm() {
  const open = (e) => {
    e.preventDefault();
    const text = formValues(e.currentTarget).link;
    const id = /tournament\/([^/?#\s]+)/.exec(text)?.[1] ?? text;
    if (id) location.hash = `#/tournament/${encodeURIComponent(id)}`;
  };
  return h(
    "form",
    { class: "inline-form", onsubmit: open },
    field(
      t("lobby.tournamentLink"),
      textInput("link", "", { placeholder: t("lobby.tournamentLinkHint") }),
    ),
    h("button", { class: "btn", type: "submit" }, t("lobby.open")),
  );
}

function listView(list, status) {
  if (!list) return null;
  if (list.error) return h("p", { class: "muted" }, list.error);
  if (!list.rooms.length) {
    const none = status === "waiting" ? t("lobby.noRooms") : t("lobby.noRaces");
    return h("p", { class: "muted" }, none);
  }
  return h(
    "ul",
    {},
    list.rooms.map((room) => roomItem(room, status)),
  );
}

function roomItem(room, status) {
  const id = room.room_id;
  const players = room.players ?? [];
  const names = listText(players.map((p) => p.name));
  const action =
    status === "waiting"
      ? h("a", { class: "btn btn-small", href: `#/room/${id}` }, t("lobby.join"))
      : h("a", { class: "btn btn-small", href: `#/watch/${id}` }, t("lobby.watch"));
  const seats = room.seats
    ? t("lobby.racersOf", { n: players.length, seats: room.seats })
    : t("lobby.racersN", { n: players.length });
  const watching = room.spectators ? ` · ${t("common.watching", { n: room.spectators })}` : "";
  return h(
    "li",
    { class: "room-item", dataset: { room: id }, key: id },
    h(
      "div",
      {},
      h("strong", {}, settingsText({ ...room, rated: false })),
      room.rated ? h("span", { class: "tag tag-rated" }, t("settings.rated")) : null,
      h("div", { class: "muted" }, seats, names ? ": " : "", names, watching),
    ),
    action,
  );
}
