// The tournament page: join before it starts, the round and its clock, live standings,
// and the current round's room (entrants are taken to their board when a round starts).

import { getTournament, joinTournament, startTournament } from "./api.js";
import { Connection, showConnection } from "./connection.js";
import { clockText, elapsedText, h, replace, toast } from "./dom.js";
import { checkedName, field, formError, formValues, textInput } from "./forms.js";
import {
  saveName,
  saveRoomSeat,
  savedName,
  saveTournamentSeat,
  tournamentSeat,
} from "./storage.js";

const POLL_MS = 10000;
const STATUS_TEXT = {
  scheduled: "Not started yet",
  running: "Round in play",
  break: "Break between rounds",
  finished: "Finished",
};

export class TournamentPage {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.data = null;
    this.seat = tournamentSeat(id);
    this.admin = tournamentSeat(`${id}.admin`);
    this.clock = h("div", { class: "clock" }, "–:––");
    this.body = h("div", { class: "tournament-body" });
    this.root = h("section", { class: "tournament", dataset: { tournament: id } }, this.body);
    replace(app, this.root);
    this.load();
    this.poller = setInterval(() => this.load(), POLL_MS);
    this.ticker = setInterval(() => this.tick(), 250);
    this.connect();
  }

  destroy() {
    clearInterval(this.poller);
    clearInterval(this.ticker);
    this.conn?.close();
    showConnection("closed");
  }

  connect() {
    this.conn?.close();
    this.conn = new Connection(`/ws/tournaments/${encodeURIComponent(this.id)}`, {
      hello: () =>
        this.seat?.token
          ? { type: "hello", token: this.seat.token }
          : { type: "hello", spectator: true },
      onFrame: (f) => this.frame(f),
      onState: (state, detail) => showConnection(state, detail),
    });
    this.conn.connect();
  }

  async load() {
    try {
      this.data = await getTournament(this.id);
    } catch (error) {
      replace(
        this.body,
        h("h1", {}, "Tournament not found"),
        h("p", {}, error.message),
        h("a", { class: "btn", href: "#/" }, "Back to the lobby"),
      );
      return;
    }
    this.render();
  }

  frame(f) {
    if (!this.data) return;
    if (f.type === "round_started") {
      Object.assign(this.data, {
        status: "running",
        round: f.round,
        room_id: f.room_id,
        ends_at: f.ends_at,
      });
      this.roundStarted(f);
    } else if (f.type === "round_finished") {
      this.data.status = "break";
      this.data.round_results = [
        ...(this.data.round_results ?? []).filter((r) => r.round !== f.round),
        { round: f.round, results: f.results },
      ];
    } else if (f.type === "standings") {
      this.data.standings = f.standings ?? this.data.standings;
    } else if (f.type === "finished") {
      this.data.status = "finished";
      if (f.standings) this.data.standings = f.standings;
    } else if (f.type === "welcome" && f.tournament) {
      Object.assign(this.data, f.tournament);
    } else return;
    this.render();
  }

  roundStarted(f) {
    if (!this.seat?.token || !f.room_id) return;
    saveRoomSeat(f.room_id, {
      player_id: this.seat.player_id,
      token: this.seat.token,
      tournament: this.id,
    });
    toast(`Round ${f.round} has started`, "good");
    if (document.visibilityState === "visible") location.hash = `#/room/${f.room_id}`;
  }

  render() {
    const t = this.data;
    const round = t.round ?? t.current_round?.round ?? null;
    const roomId = t.room_id ?? t.current_round?.room_id ?? null;
    this.root.dataset.status = t.status;
    replace(
      this.body,
      h(
        "div",
        { class: "race-head" },
        h(
          "div",
          {},
          h("h1", { class: "race-title" }, t.name ?? "Tournament"),
          h(
            "p",
            { class: "race-settings" },
            `${t.game ?? "stalactites"} · ${roundCount(t)} rounds of ${Math.round((t.round_time_s ?? 0) / 60)} min`,
          ),
          h(
            "p",
            { class: "round-line" },
            STATUS_TEXT[t.status] ?? t.status,
            round ? ` · round ${round} of ${roundCount(t)}` : "",
          ),
        ),
        this.clock,
      ),
      this.actions(t, roomId, round),
      h("h2", {}, "Standings"),
      standingsTable(t.standings ?? [], this.seat?.player_id),
      this.shareLine(),
    );
    this.tick();
  }

  actions(t, roomId, round) {
    const parts = [];
    if (t.status === "scheduled" && !this.seat) parts.push(this.joinForm());
    if (this.seat)
      parts.push(
        h("p", { class: "ok" }, "You are entered. Your board opens when each round starts."),
      );
    if (t.status === "scheduled" && this.admin?.admin_token) {
      parts.push(
        h(
          "button",
          { class: "btn btn-primary", onclick: () => this.start() },
          "Start the tournament now",
        ),
      );
    }
    if (roomId && t.status === "running") {
      const href = this.seat ? `#/room/${roomId}` : `#/watch/${roomId}`;
      parts.push(
        h(
          "a",
          { class: "btn btn-primary current-room", href },
          this.seat ? `Play round ${round}` : `Watch round ${round}`,
        ),
      );
    }
    return h("div", { class: "tournament-actions" }, parts);
  }

  joinForm() {
    return h(
      "form",
      { class: "inline-form", onsubmit: (e) => this.join(e) },
      field("Your name", textInput("name", savedName(), { maxlength: "24", required: true })),
      h("button", { class: "btn btn-primary", type: "submit" }, "Enter the tournament"),
    );
  }

  async join(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = checkedName(form, formValues(form).name);
    if (!name) return;
    saveName(name);
    try {
      const seat = await joinTournament(this.id, name);
      this.seat = { player_id: seat.player_id, token: seat.token };
      saveTournamentSeat(this.id, this.seat);
      this.connect();
      await this.load();
    } catch (error) {
      formError(form, error.message);
    }
  }

  async start() {
    try {
      await startTournament(this.id, this.admin.admin_token);
      await this.load();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  shareLine() {
    const link = `${location.origin}${location.pathname}#/tournament/${this.id}`;
    return h("p", { class: "muted" }, "Invite players with this link: ", h("code", {}, link));
  }

  tick() {
    const t = this.data;
    if (!t) return;
    const until =
      t.status === "scheduled"
        ? t.starts_at
        : (t.ends_at ?? t.current_round?.ends_at ?? t.break_ends_at);
    this.clock.textContent =
      t.status === "finished" ? "Finished" : until ? clockText(until - Date.now()) : "–:––";
  }
}

/** How many rounds the tournament has (a number in its settings; a list would be results). */
function roundCount(t) {
  if (typeof t.rounds === "number") return t.rounds;
  return t.settings?.rounds ?? t.round_count ?? "?";
}

function standingsTable(rows, you) {
  if (!rows.length) return h("p", { class: "muted" }, "No entrants yet.");
  const sorted = [...rows].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  return h(
    "table",
    { class: "results standings" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "Rank"),
        h("th", {}, "Player"),
        h("th", {}, "Points"),
        h("th", {}, "Rounds won"),
        h("th", {}, "Total time"),
      ),
    ),
    h(
      "tbody",
      {},
      sorted.map((r) =>
        h(
          "tr",
          { class: r.player_id === you ? "you" : null, dataset: { player: r.player_id } },
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
