// The lobby: create a room, share it, find waiting and live rooms, enter a tournament.
// The forms are made once; the room lists are the page's state, asked for every few seconds
// and drawn by one scheduled render, in place.

import { createRoom, createTournament, joinRoom, listRooms, roomsOf } from "./api.js";
import { h, replace } from "./dom.js";
import { patch, scheduled } from "./render.js";
import {
  checkbox,
  checkedName,
  field,
  formError,
  formValues,
  numberInput,
  select,
  textInput,
} from "./forms.js";
import { saveName, saveRoomSeat, savedName, saveTournamentSeat } from "./storage.js";
import { settingsText } from "./widgets.js";

const REFRESH_MS = 5000;
const GAMES = [
  ["stalactites", "Stalactites"],
  ["squadron", "Squadron"],
];
const STEPS = [
  ["choice", "Player's choice"],
  ["ones", "By ones"],
  ["twos", "By twos"],
];

export class LobbyPage {
  constructor(app) {
    this.app = app;
    // status -> {rooms} or {error}; null until the first answer
    this.lists = { waiting: null, racing: null };
    this.renderer = scheduled(() => this.render());
    this.waiting = h("div", { class: "room-list", "aria-live": "polite" });
    this.live = h("div", { class: "room-list", "aria-live": "polite" });
    replace(
      app,
      h(
        "div",
        { class: "lobby" },
        h(
          "section",
          { class: "panel panel-create" },
          h("h1", {}, "Start a race"),
          this.createForm(),
        ),
        h("section", { class: "panel" }, h("h2", {}, "Waiting for racers"), this.waiting),
        h("section", { class: "panel" }, h("h2", {}, "Racing now"), this.live),
        h("section", { class: "panel" }, h("h2", {}, "Tournaments"), this.tournamentForms()),
      ),
    );
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  destroy() {
    clearInterval(this.timer);
    this.renderer.stop();
  }

  createForm() {
    const game = select("game", GAMES, "stalactites");
    const step = select("step", STEPS, "choice");
    const undo = checkbox("undo", true);
    const stepField = field("Foundation step", step);
    game.addEventListener("change", () => {
      stepField.hidden = game.value === "squadron";
      undo.checked = game.value !== "squadron";
    });
    const form = h(
      "form",
      { class: "create", onsubmit: (e) => this.create(e) },
      field(
        "Your name",
        textInput("name", savedName(), {
          maxlength: "24",
          required: true,
          placeholder: "e.g. Ada",
        }),
      ),
      h("div", { class: "field-row" }, field("Game", game), stepField),
      roomFields(),
      h("label", { class: "check" }, undo, " Allow undo"),
      h("button", { class: "btn btn-primary btn-big", type: "submit" }, "Create room and join"),
    );
    return form;
  }

  async create(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const v = formValues(form);
    const name = checkedName(form, v.name);
    if (!name) return;
    saveName(name);
    const settings = {
      game: v.game,
      seats: v.seats,
      time_limit_s: Math.round((v.minutes ?? 15) * 60),
      undo: v.undo,
      countdown_s: v.countdown_s,
    };
    if (v.game === "stalactites") settings.step = v.step;
    if (v.spectator_delay_s !== null) settings.spectator_delay_s = v.spectator_delay_s;
    if (v.deal) settings.deal = v.deal;
    try {
      const room = await createRoom(settings);
      const seat = await joinRoom(room.room_id, name);
      saveRoomSeat(room.room_id, { player_id: seat.player_id, token: seat.token });
      location.hash = `#/room/${room.room_id}`;
    } catch (error) {
      formError(form, error.message);
    }
  }

  async refresh() {
    await Promise.all([this.fetchList("waiting"), this.fetchList("racing")]);
  }

  async fetchList(status) {
    try {
      this.lists[status] = { rooms: roomsOf(await listRooms(status)) };
    } catch (error) {
      if (error.status === 404) clearInterval(this.timer); // this server keeps no lists
      const why = error.status === 404 ? "this server does not list rooms" : error.message;
      this.lists[status] = { error: `Room list unavailable: ${why}.` };
    }
    this.renderer.schedule();
  }

  render() {
    patch(this.waiting, listView(this.lists.waiting, "waiting"));
    patch(this.live, listView(this.lists.racing, "racing"));
  }

  tournamentForms() {
    const organise = h(
      "form",
      { class: "create", onsubmit: (e) => this.organise(e) },
      field("Tournament name", textInput("name", "", { maxlength: "60", required: true })),
      h(
        "div",
        { class: "field-row" },
        field("Game", select("game", GAMES, "stalactites")),
        field("Step", select("step", STEPS, "choice")),
      ),
      h(
        "div",
        { class: "field-row" },
        field("Rounds", numberInput("rounds", 3, 1, 20)),
        field("Round (min)", numberInput("round_min", 5, 1, 60)),
        field("Break (s)", numberInput("break_s", 30, 0, 600)),
        field("Max players", numberInput("max_players", 50, 2, 1000)),
      ),
      h("button", { class: "btn", type: "submit" }, "Create tournament"),
    );
    return [enterForm(), h("details", {}, h("summary", {}, "Organise a tournament"), organise)];
  }

  async organise(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const v = formValues(form);
    if (!v.name) return formError(form, "Give the tournament a name.");
    const settings = {
      name: v.name,
      game: v.game,
      step: v.game === "squadron" ? null : v.step,
      rounds: v.rounds,
      round_time_s: Math.round((v.round_min ?? 5) * 60),
      break_s: v.break_s,
      starts_at: null,
      max_players: v.max_players,
    };
    try {
      const made = await createTournament(settings);
      saveTournamentSeat(`${made.tournament_id}.admin`, { admin_token: made.admin_token });
      location.hash = `#/tournament/${made.tournament_id}`;
    } catch (error) {
      formError(form, error.message);
    }
  }
}

/** The room form's number and text fields: seats, times, spectator delay, deal. */
function roomFields() {
  return [
    h(
      "div",
      { class: "field-row" },
      field("Seats", numberInput("seats", 2, 1, 8), "1 = solo time trial"),
      field("Time limit (min)", numberInput("minutes", 15, 1, 120)),
      field("Countdown (s)", numberInput("countdown_s", 5, 0, 30)),
    ),
    h(
      "div",
      { class: "field-row" },
      field(
        "Spectator delay (s)",
        numberInput("spectator_delay_s", "", 0, 300),
        "empty: server default",
      ),
      field(
        "Deal (optional)",
        textInput("deal", "", { placeholder: "ms:1 or sr:…", maxlength: "40" }),
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
      "Tournament link or id",
      textInput("link", "", { placeholder: "paste the link you were sent" }),
    ),
    h("button", { class: "btn", type: "submit" }, "Open"),
  );
}

function listView(list, status) {
  if (!list) return null;
  if (list.error) return h("p", { class: "muted" }, list.error);
  if (!list.rooms.length) {
    const none = status === "waiting" ? "No open rooms. Create one!" : "No races right now.";
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
  const names = players.map((p) => p.name).join(", ");
  const action =
    status === "waiting"
      ? h("a", { class: "btn btn-small", href: `#/room/${id}` }, "Join")
      : h("a", { class: "btn btn-small", href: `#/watch/${id}` }, "Watch");
  const seats = room.seats ? `${players.length}/${room.seats}` : `${players.length}`;
  const watching = room.spectators ? ` · ${room.spectators} watching` : "";
  return h(
    "li",
    { class: "room-item", dataset: { room: id }, key: id },
    h(
      "div",
      {},
      h("strong", {}, settingsText(room)),
      h("div", { class: "muted" }, `${seats} racers${names ? ": " : ""}`, names, watching),
    ),
    action,
  );
}
