// @ts-check
// The tournament page: enter before it starts, the round and its clock, live standings,
// the rounds played, and the current round's room. An entrant who has this page open
// when a round starts is taken to their board at once (a background tab too). The
// tournament as last heard (HTTP or socket) is the page's state; one scheduled render draws
// it in place.

import { serverNow, syncClock } from "../shared/clock.js";
import { errorText, getTournament, joinTournament, startTournament } from "../shared/api.js";
import { Connection, showConnection } from "../shared/connection.js";
import { h, replace, toast } from "../shared/dom.js";
import { clockText, dateTime, t } from "../shared/i18n.js";
import { patch, scheduled, setData, setText } from "../shared/render.js";
import { nameForm } from "../shared/forms.js";
import { ensurePlayer } from "../shared/session.js";
import { saveRoomSeat, saveTournamentSeat, tournamentSeat } from "../shared/storage.js";
import { entrantLine, roundsList, standingsTable, tournamentSummary } from "./tournamentviews.js";

const POLL_MS = 15000;

export class TournamentPage {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.data = null;
    /** @type {any} the session's player once loaded (undefined: not asked yet) */
    this.player = undefined;
    this.seat = tournamentSeat(id);
    /** @type {number | undefined} the latest round this page has seen begin (or found on) */
    this.knownRound = undefined;
    this.admin = tournamentSeat(`${id}.admin`);
    this.clock = h("div", { class: "clock" }, "–:––");
    this.body = h("div", { class: "tournament-body" });
    this.root = h("section", { class: "tournament", dataset: { tournament: id } }, this.body);
    replace(app, this.root);
    this.renderer = scheduled(() => this.render());
    this.load().then(() => this.connect());
    this.poller = setInterval(() => this.load(), POLL_MS);
    syncClock();
    this.ticker = setInterval(() => this.renderer.schedule(), 250); // the clock
  }

  destroy() {
    clearInterval(this.poller);
    clearInterval(this.ticker);
    this.renderer.stop();
    this.conn?.close();
    showConnection("closed");
  }

  connect() {
    if (!this.data) return;
    this.conn?.close(); // a new connection: a new hello, and the stream's place from its welcome
    this.conn = new Connection(`/ws/tournaments/${encodeURIComponent(this.id)}`, {
      hello: () => this.hello(),
      onFrame: (f) => this.frame(f),
      onState: (state, detail) => showConnection(state, detail),
    });
    this.conn.connect();
  }

  hello() {
    return this.seat?.token
      ? { type: "hello", token: this.seat.token }
      : { type: "hello", spectator: true };
  }

  async load() {
    try {
      // With a player (a session), the entry is the player's: every round in their history.
      [this.data, this.player] = await Promise.all([
        getTournament(this.id),
        this.player === undefined ? ensurePlayer() : this.player,
      ]);
    } catch (error) {
      if (this.data) return; // keep showing what the socket keeps up to date
      this.parts = null;
      replace(
        this.body,
        h("h1", {}, t("tour.notFound")),
        h("p", {}, errorText(error)),
        h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
      );
      return;
    }
    this.followRound();
    this.renderer.schedule();
  }

  // Frames from the tournament socket (the connection drops those seen before).

  frame(f) {
    const handler = {
      welcome: () => {
        this.data = f.tournament ?? this.data;
        this.followRound();
      },
      round_started: () => this.roundStarted(f),
      round_finished: () => this.roundFinished(f),
      standings: () => Object.assign(this.data, { standings: f.standings, live: f.live }),
      finished: () => Object.assign(this.data, { status: "finished", standings: f.standings }),
      error: () => toast(errorText(f), "error"),
    }[f?.type];
    if (!handler || !this.data) return;
    handler();
    // The standings list every entrant: the count in the header keeps up with them.
    if (f.standings) this.data.entrants = Math.max(this.data.entrants ?? 0, f.standings.length);
    this.renderer.schedule();
  }

  /**
   * A round found on that began after this page first looked (a welcome or a load can bring
   * it before, or instead of, its round_started: a socket opened again as the player entered)
   * takes an entrant to their board, as round_started does; a round already on when the page
   * was opened does not (the entrant may have come back from it).
   */
  followRound() {
    const round = this.data?.current_round;
    if (this.knownRound === undefined) this.knownRound = round?.round ?? 0;
    if (!round || round.round <= this.knownRound) return;
    this.knownRound = round.round;
    if (this.seat?.token) this.play(round.room_id);
  }

  roundStarted(f) {
    this.knownRound = Math.max(this.knownRound ?? 0, f.round);
    const tm = this.data;
    const current = { round: f.round, room_id: f.room_id, ends_at: f.ends_at };
    Object.assign(tm, { status: "running", round: f.round, current_round: current });
    const others = (tm.round_results ?? []).filter((r) => r.round !== f.round);
    tm.round_results = [...others, { ...current, finished: false, results: [] }];
    if (!this.seat?.token) return;
    toast(t("tour.roundStarted", { n: f.round }), "good");
    this.play(f.room_id); // a tab in the background too: its board is ready when looked at
  }

  roundFinished(f) {
    const tm = this.data;
    const last = f.round >= tm.rounds;
    Object.assign(tm, { status: last ? tm.status : "break", current_round: null });
    if (f.standings) Object.assign(tm, { standings: f.standings, live: false });
    tm.round_results = (tm.round_results ?? []).map((r) =>
      r.round === f.round ? { ...r, finished: true, deal: f.deal, results: f.results } : r,
    );
    this.load(); // for the break's end and the standings after the round
  }

  /** Take this entrant to a round's board: their tournament token is their seat there. */
  play(roomId) {
    saveRoomSeat(roomId, {
      player_id: this.seat.player_id,
      token: this.seat.token,
      tournament: this.id,
    });
    location.hash = `#/room/${roomId}`;
  }

  // Drawing.

  render() {
    const tm = this.data;
    if (!tm) return;
    setData(this.root, "status", tm.status);
    if (!this.parts) this.build();
    const { title, summary, roundLine, actions, standings, rounds, share } = this.parts;
    if (share.hidden !== (tm.status !== "scheduled")) share.hidden = tm.status !== "scheduled";
    setText(title, tm.name ?? t("tour.tournament"));
    setText(summary, tournamentSummary(tm));
    let round = tm.round ? ` · ${t("tour.roundOf", { n: tm.round, total: tm.rounds })}` : "";
    if (tm.status === "scheduled") {
      const when = tm.starts_at
        ? t("lobby.startsAtTime", { when: dateTime(tm.starts_at) })
        : t("lobby.startsByOrganiser");
      round = ` · ${when}`;
    }
    setText(roundLine, `${t(`tour.status.${tm.status}`)}${round}`);
    // The actions hold the join form: patched in place, what is typed in it stays; they are
    // drawn again only when they change, so the form's error line stays too.
    const key = JSON.stringify([tm.status, Boolean(this.seat), tm.current_round, this.admin]);
    if (key !== this.actionsKey) patch(actions, this.actions(tm));
    this.actionsKey = key;
    const live = tm.live ? h("span", { class: "tag live" }, t("tour.live")) : null;
    patch(
      standings,
      h("h2", {}, t("tour.standings"), live),
      standingsTable(tm.standings ?? [], this.seat?.player_id),
    );
    patch(rounds, roundsList(tm.round_results ?? [], this.seat?.player_id));
    this.drawClock();
  }

  build() {
    this.parts = {
      title: h("h1", { class: "race-title" }),
      summary: h("p", { class: "race-settings" }),
      roundLine: h("p", { class: "round-line" }),
      actions: h("div", { class: "tournament-actions" }),
      standings: h("div", { class: "standings-box" }),
      rounds: h("div", { class: "rounds-box" }),
      share: this.shareLine(), // while entries are open only
    };
    const { title, summary, roundLine, actions, standings, rounds, share } = this.parts;
    const head = h(
      "div",
      { class: "race-head" },
      h("div", {}, title, summary, roundLine),
      this.clock,
    );
    replace(this.body, head, actions, standings, rounds, share);
  }

  actions(tm) {
    const parts = [];
    if (tm.status === "scheduled" && !this.seat) parts.push(this.joinForm());
    if (this.seat) {
      parts.push(entrantLine(tm));
    }
    if (tm.status === "scheduled" && this.admin?.admin_token) {
      const start = () => this.start();
      parts.push(h("button", { class: "btn btn-primary", onclick: start }, t("tour.startNow")));
    }
    const current = tm.current_round;
    if (current && tm.status === "running") {
      const label = t(this.seat ? "tour.play" : "tour.watch", { n: current.round });
      parts.push(
        this.seat
          ? h(
              "button",
              { class: "btn btn-primary current-room", onclick: () => this.play(current.room_id) },
              label,
            )
          : h(
              "a",
              { class: "btn btn-primary current-room", href: `#/watch/${current.room_id}` },
              label,
            ),
      );
    }
    return parts;
  }

  joinForm() {
    const enter = async (name) => {
      const seat = await joinTournament(this.id, name);
      this.seat = { player_id: seat.player_id, token: seat.token };
      saveTournamentSeat(this.id, this.seat);
      await this.load();
      this.connect(); // hello again, now as an entrant
    };
    return nameForm(t("tour.enter"), enter, this.player ?? null);
  }

  async start() {
    try {
      await startTournament(this.id, this.admin.admin_token);
      await this.load();
    } catch (error) {
      toast(errorText(error), "error");
    }
  }

  shareLine() {
    const link = `${location.origin}${location.pathname}#/tournament/${this.id}`;
    return h("p", { class: "muted invite" }, t("tour.invite"), " ", h("code", {}, link));
  }

  drawClock() {
    const tm = this.data;
    if (!tm) return;
    const until = {
      scheduled: tm.starts_at,
      running: tm.current_round?.ends_at,
      break: tm.break_ends_at,
    }[tm.status];
    const text =
      tm.status === "finished"
        ? t("race.finished")
        : until
          ? clockText(until - serverNow())
          : "–:––";
    setText(this.clock, text);
    // Nothing to count down to (the organiser starts it by hand): no clock at all, rather
    // than a blank one.
    this.clock.hidden = tm.status !== "finished" && !until;
  }
}
