// The race page: your board, everyone's progress, the clock, and the room's life from
// the waiting room through the countdown to the results.

import { serverNow, syncClock } from "./clock.js";
import { renderBoard } from "./board.js";
import { Connection, showConnection } from "./connection.js";
import { MoveControls } from "./controls.js";
import { clockText, elapsedText, h, ordinal, replace, toast } from "./dom.js";
import { PlayerBoard } from "./game.js";
import { keysTable } from "./help.js";
import { LegalIndex, parseMove } from "./moves.js";
import {
  newMoveId,
  pendingMove,
  savePendingMove,
  saveRoomSeat,
} from "./storage.js";
import {
  actionsView,
  badSeatView,
  countdownView,
  endScreenView,
  waitingRoomView,
} from "./raceviews.js";
import { mergePlayer, racersPanel, settingsText } from "./widgets.js";
import { checkReveal, commitmentLine } from "./fairness.js";

const NO_MOVES = new LegalIndex([]);
const RESYNC_CODES = new Set(["illegal_move", "invalid_move", "step_locked"]);

export class RacePage {
  constructor(app, roomId, seat) {
    this.app = app;
    this.roomId = roomId;
    this.seat = seat;
    this.room = null;
    this.players = [];
    this.you = seat.player_id ?? null;
    this.lastSeq = null;
    this.standings = null;
    this.note = null;
    this.hideEnd = false;
    this.board = new PlayerBoard();
    const saved = pendingMove(roomId);
    if (saved?.id) this.board.inflight = { ...saved, resent: true };
    this.build();
    this.controls = new MoveControls(this.boardHost, {
      legal: () => this.offered(),
      move: (text) => this.play(text),
      changed: () => this.drawBoard(),
      undo: () => this.undo(),
      ready: () => this.ready(),
      declare: (step) => this.declare(step),
      help: () => this.toggleKeys(),
      busy: () => Boolean(this.board.inflight),
    });
    this.conn = new Connection(`/ws/rooms/${encodeURIComponent(roomId)}`, {
      hello: () => this.hello(),
      onFrame: (frame) => this.frame(frame),
      onState: (state, detail) => this.connState(state, detail),
    });
    this.conn.connect();
    syncClock();
    this.ticker = setInterval(() => this.tick(), 200);
  }

  destroy() {
    document.title = "Stalactites Race";
    clearInterval(this.ticker);
    this.controls.destroy();
    this.conn.close();
    showConnection("closed");
  }

  build() {
    this.title = h("h1", { class: "race-title" }, "Race");
    this.settings = h("p", { class: "race-settings" });
    this.commitment = h("div", { class: "commitment-host" });
    this.clock = h("div", { class: "clock", "aria-label": "race clock" }, "–:––");
    this.boardHost = h("div", { class: "board-host" });
    this.side = h("aside", { class: "side" });
    this.actions = h("div", { class: "race-actions" });
    this.noteEl = h("p", { class: "move-note", role: "status", "aria-live": "polite" });
    this.keys = h(
      "div",
      { class: "key-panel panel", hidden: true },
      h("h2", {}, "Keys"),
      keysTable(),
    );
    this.overlay = h("div", { class: "overlay", hidden: true });
    const head = h(
      "div",
      { class: "race-head" },
      h("div", {}, this.title, this.settings, this.commitment),
      this.clock,
    );
    const body = h(
      "div",
      { class: "race-body" },
      h("div", { class: "play-area" }, this.boardHost, this.noteEl, this.actions, this.keys),
      this.side,
    );
    this.root = h(
      "section",
      { class: "race", dataset: { room: this.roomId } },
      head,
      body,
      this.overlay,
    );
    replace(this.app, this.root);
  }

  hello() {
    const frame = { type: "hello", token: this.seat.token };
    if (this.lastSeq !== null) frame.last_seq = this.lastSeq;
    return frame;
  }

  connState(state, detail) {
    showConnection(state, detail);
    this.root.dataset.conn = state;
    if (this.room) this.drawSide();
    if (state === "failed")
      this.showNote(`Disconnected: ${detail}. Reload the page to try again.`, true);
  }

  // Frames from the server.

  frame(f) {
    if (typeof f?.seq === "number") {
      if (this.lastSeq !== null && f.seq <= this.lastSeq && f.type !== "welcome") return;
      this.lastSeq = Math.max(this.lastSeq ?? f.seq, f.seq);
    }
    const handler = {
      welcome: () => this.welcome(f),
      countdown: () => this.countdown(f),
      started: () => this.started(f),
      accepted: () => this.accepted(f),
      rejected: () => this.rejected(f),
      player: () => this.player(f),
      spectators: () => this.spectators(f.count),
      progress: () => this.progress(f),
      progress_batch: () => f.events.forEach((e) => this.progress(e)),
      finished: () => this.finished(f),
      results: () => this.results(f),
      error: () => this.serverError(f),
    }[f?.type];
    if (handler) handler();
  }

  welcome(f) {
    this.you = f.you;
    this.room = f.room ?? this.room;
    this.players = [...(this.room?.players ?? [])];
    this.lastSeq = f.seq ?? this.lastSeq;
    this.board.confirm(f.state, f.legal, null);
    if (this.room?.status === "finished" && !this.standings)
      this.standings = this.room.standings ?? null;
    if (this.room?.status === "finished") this.reveal(this.room);
    const again = this.board.inflightFrame();
    if (again) {
      this.board.inflight.resent = true;
      this.conn.send(again);
    }
    this.render();
  }

  countdown(f) {
    if (!this.room) return;
    this.room.status = "countdown";
    this.room.starts_at = f.starts_at;
    this.room.ends_at = f.ends_at ?? this.room.ends_at;
    this.render();
  }

  started(f) {
    if (!this.room) return;
    this.room.status = "racing";
    this.room.ends_at = f.ends_at ?? this.room.ends_at;
    for (const p of this.players) if (!p.status || p.status === "waiting") p.status = "playing";
    if (!this.board.state) this.board.confirm(f.state, f.legal, "playing");
    this.render();
  }

  accepted(f) {
    if (!this.board.accepted(f)) return;
    savePendingMove(this.roomId, null);
    this.showNote(this.stuck() ? "No move is left: undo a move, or resign." : null, true);
    this.sendQueued();
    this.render();
    this.controls.flushKeys();
  }

  rejected(f) {
    const dropped = this.board.rejected(f);
    if (!dropped) return;
    this.arrival = null;
    this.controls.dropKeys();
    savePendingMove(this.roomId, null);
    this.render();
    const first = dropped[0];
    if (first.type === "move") this.springBack(parseMove(first.move));
    const what =
      first.type === "move"
        ? `Move ${first.move}`
        : first.type === "undo"
          ? "Undo"
          : "Declaring the step";
    this.showNote(`${what} refused: ${f.message ?? f.code}`, true);
    if (RESYNC_CODES.has(f.code)) this.conn.reconnectNow();
  }

  player(f) {
    if (f.player) mergePlayer(this.players, f.player);
    if (this.room) this.drawOverlay();
    this.drawSide();
  }

  spectators(count) {
    if (this.room) this.room.spectators = count;
    this.drawSide();
  }

  progress(f) {
    mergePlayer(this.players, f);
    this.drawSide();
    this.drawActions();
  }

  finished(f) {
    mergePlayer(this.players, f);
    if (f.player_id === this.you) {
      const how = f.status === "won" ? "You won" : "Your race is over";
      const place = f.place ? `${ordinal(f.place)} place, ` : "";
      toast(`${how}: ${place}${elapsedText(f.elapsed_ms)}`, "good", 5000);
      if (this.room?.status !== "finished")
        this.showNote(
          `${how} (${place}${elapsedText(f.elapsed_ms)}). The others are still racing.`,
        );
    }
    this.render();
  }

  results(f) {
    this.reveal(f);
    this.standings = f.standings ?? [];
    if (this.room) this.room.status = "finished";
    this.showNote(null);
    for (const row of this.standings) if (row.player_id) mergePlayer(this.players, row);
    this.render();
  }

  /** Check the revealed deal and salt against the commitment, then show the verdict. */
  reveal(f) {
    checkReveal(f).then((checked) => {
      this.revealed = checked;
      this.render();
    });
  }

  serverError(f) {
    toast(f.message ?? f.code ?? "error", "error");
    if (f.code !== "unauthorized" && f.code !== "room_not_found") return;
    // This browser's seat is no good here (an unknown room, or a token the server refuses).
    this.conn.close();
    saveRoomSeat(this.roomId, null);
    this.overlay.hidden = false;
    replace(this.overlay, h("div", { class: "overlay-card" }, badSeatView(f.message ?? f.code)));
  }

  toggleKeys() {
    this.keys.hidden = !this.keys.hidden;
  }

  // The player's actions.

  offered() {
    const live = this.room?.status === "racing" && this.racing();
    return live ? this.board.offered() : NO_MOVES;
  }

  play(text) {
    const id = newMoveId();
    const verdict = this.board.play(text, id);
    if (verdict === "send") this.sendInflight();
    this.drawBoard();
    if (verdict) {
      this.arrival = { move: parseMove(text), at: performance.now() };
      this.markArrival();
    }
  }

  /** Mark the cards that just arrived (for 0.6 s, across redraws) so the eye can follow. */
  markArrival() {
    const { move, at } = this.arrival ?? {};
    const age = performance.now() - (at ?? 0);
    if (!move || age > 600) return;
    const pile = this.boardHost.querySelector(`.pile[data-pile="${move.dst}"]`);
    const cards = pile ? [...pile.querySelectorAll(".card[data-index]")].slice(-move.count) : [];
    for (const card of cards) {
      card.classList.add("landed");
      card.style.animationDelay = `-${Math.round(age)}ms`;
    }
  }

  sendInflight() {
    const frame = this.board.inflightFrame();
    if (!frame) return;
    savePendingMove(this.roomId, this.board.inflight);
    this.conn.send(frame); // when offline it is sent again after the next welcome
  }

  sendQueued() {
    const { frame, dropped } = this.board.nextQueued(newMoveId());
    if (frame) this.sendInflight();
    if (dropped.length) {
      this.arrival = null;
      this.render();
      this.springBack(parseMove(dropped[0]));
      this.showNote(`Move ${dropped[0]} is no longer possible`, true);
    }
  }

  undo() {
    if (!this.room?.undo || !this.racing()) return;
    if (this.board.undo(newMoveId())) this.sendInflight();
    this.drawBoard(); // shows the undo as pending until the server's board comes
  }

  ready() {
    if (this.room?.status !== "waiting") return;
    this.conn.send({ type: "ready" });
    this.readySent = true;
    this.render();
  }

  declare(step) {
    if (!this.canDeclare()) return;
    if (this.board.declare(newMoveId(), step)) this.sendInflight();
    this.drawBoard();
    this.drawActions();
  }

  resign() {
    if (!window.confirm("Resign this race? Your board stays as it is and counts as finished."))
      return;
    this.conn.send({ type: "resign" });
  }

  canDeclare() {
    const state = this.board.state;
    return (
      this.room?.status === "racing" &&
      this.room?.game !== "squadron" &&
      this.room?.step === "choice" &&
      this.racing() &&
      state &&
      !state.step
    );
  }

  /** Whether this player is still in the race (their board may be stuck, with undo to try). */
  racing() {
    return this.me()?.status === "playing";
  }

  /** Stuck: no legal move, yet still racing because the room allows undo. */
  stuck() {
    return this.racing() && this.board.status === "lost";
  }

  me() {
    return this.players.find((p) => p.player_id === this.you) ?? null;
  }

  // Drawing.

  render() {
    if (!this.room) return;
    this.title.textContent = this.room.game === "squadron" ? "Squadron race" : "Stalactites race";
    this.settings.textContent = settingsText(this.room);
    replace(this.commitment, commitmentLine(this.room));
    this.root.dataset.status = this.room.status;
    this.drawBoard();
    this.drawSide();
    this.drawActions();
    this.drawOverlay();
    this.tick();
  }

  drawBoard() {
    if (this.room?.status !== "racing" || !this.racing()) this.controls.selection = null;
    const state = this.board.shown();
    if (!state) {
      replace(
        this.boardHost,
        h("div", { class: "board-placeholder" }, "The deal is revealed when the race starts."),
      );
      return;
    }
    const view = this.controls.view();
    replace(this.boardHost, renderBoard(state, view));
    this.markArrival();
    this.boardHost.dataset.pending = String(Boolean(this.board.inflight));
  }

  drawSide() {
    // This page knows its own connection better than the room view it was sent.
    const me = this.me();
    if (me) me.connected = this.conn?.open ?? me.connected;
    const watching = this.room?.spectators ?? 0;
    replace(
      this.side,
      h("h2", {}, "Racers"),
      racersPanel(this.players, { game: this.room?.game, you: this.you }),
      watching ? h("p", { class: "watchers muted" }, `${watching} watching`) : null,
    );
  }

  drawActions() {
    const status = this.room?.status;
    const view = {
      canDeclare: this.canDeclare(),
      busy: this.board.inflight,
      step: this.board.state?.step,
      playing: status === "racing" && this.racing(),
      undo: this.room?.undo,
      finished: status === "finished",
    };
    const does = {
      declare: (step) => this.declare(step),
      undo: () => this.undo(),
      resign: () => this.resign(),
      keys: () => this.toggleKeys(),
      results: () => this.showEnd(true),
    };
    replace(this.actions, actionsView(view, does));
  }

  showEnd(shown) {
    this.hideEnd = !shown;
    this.drawOverlay();
  }

  drawOverlay() {
    const content = this.overlayContent();
    this.overlay.hidden = !content;
    if (content) replace(this.overlay, h("div", { class: "overlay-card" }, content));
  }

  overlayContent() {
    const status = this.room?.status;
    if (status === "waiting") {
      return waitingRoomView({
        roomId: this.roomId,
        seats: this.room.seats ?? this.players.length,
        players: this.players,
        you: this.you,
        ready: this.me()?.ready || this.readySent,
        onReady: () => this.ready(),
      });
    }
    if (status === "countdown") return countdownView();
    if (status !== "finished" || this.hideEnd) return null;
    return endScreenView({
      standings: this.standings ?? this.players,
      game: this.room.game,
      you: this.you,
      roomId: this.roomId,
      tournament: this.seat.tournament,
      reveal: this.revealed,
      onHide: () => this.showEnd(false),
    });
  }

  tick() {
    const room = this.room;
    if (!room) return;
    const now = serverNow();
    if (room.status === "racing" && room.ends_at) {
      const left = room.ends_at - now;
      this.clock.textContent = clockText(left);
      document.title = `${clockText(left)} · Stalactites Race`;
      this.clock.classList.toggle("urgent", left < 30000);
    } else if (room.status === "countdown" && room.starts_at) {
      this.clock.textContent = clockText((room.time_limit_s ?? 0) * 1000);
      const number = this.overlay.querySelector(".countdown-number");
      if (number)
        number.textContent = String(Math.max(0, Math.ceil((room.starts_at - now) / 1000)));
    } else if (room.status === "finished") {
      this.clock.textContent = "Finished";
      this.clock.classList.remove("urgent");
      document.title = "Finished · Stalactites Race";
    } else {
      this.clock.textContent = clockText((room.time_limit_s ?? 0) * 1000);
    }
  }

  showNote(text, bad = false) {
    this.note = text;
    this.noteEl.textContent = text ?? "";
    this.noteEl.classList.toggle("bad", Boolean(bad && text));
  }

  /** Draw attention to the cards that went back where they came from. */
  springBack(move) {
    if (!move) return;
    const pile = this.boardHost.querySelector(`.pile[data-pile="${move.src}"]`);
    const cards = pile ? [...pile.querySelectorAll(".card[data-index]")].slice(-move.count) : [];
    for (const card of cards) card.classList.add("spring");
    const dst = this.boardHost.querySelector(`.pile[data-pile="${move.dst}"]`);
    dst?.classList.add("refused");
  }
}
