// @ts-check
// The race page: your board, everyone's progress, the clock, and the room's life from
// the waiting room through the countdown to the results. This module wires the parts: the
// state (racestate.js), the one scheduled render (racerender.js), the move controls, the
// connection; it handles the server's frames and the player's actions, and sends.

import { serverNow, syncClock } from "../shared/clock.js";
import { Connection, showConnection } from "../shared/connection.js";
import { MoveControls } from "./controls.js";
import { askHint, errorText } from "../shared/api.js";
import { dailyToday } from "../daily/daily_api.js";
import { moveWords } from "../board/board.js";
import { clearToasts, replace, toast } from "../shared/dom.js";
import { elapsedText, ordinal, t } from "../shared/i18n.js";
import { scheduled } from "../shared/render.js";
import { newMoveId, pendingMove, savePendingMove, saveRoomSeat } from "../shared/storage.js";
import { checkReveal } from "./fairness.js";
import { refreshMe } from "../shared/session.js";
import { raceShell, renderRace, renderTick } from "./racerender.js";
import { celebrate } from "./motion.js";
import { safeToFoundation } from "../board/foundations.js";
import * as race from "./racestate.js";
import { TournamentFollow } from "../tournament/tournamentfollow.js";
import { bots } from "./bots.js";
import { arenaOfRoom } from "../arena/arenas.js";
import { arenaMemory, holdNextRace, onArena } from "../arena/arenasocket.js";
import { arenaError, getArena, goBerserk } from "../arena/arenas_api.js";

const RESYNC_CODES = new Set(["illegal_move", "invalid_move", "step_locked", "retry"]);
const RESULTS_SHOWN_MS = 4000; // an arena race's results, before the next race's page opens

/** A presence event as the change it makes to its player. */
const presenceOf = (f) => ({ player_id: f.player_id, connected: f.connected });

export class RacePage {
  constructor(app, roomId, seat) {
    this.s = race.raceState(roomId, seat, pendingMove(roomId));
    this.els = raceShell(roomId);
    replace(app, this.els.root);
    this.does = {
      declare: (step) => this.declare(step),
      undo: () => this.undo(),
      hint: () => this.hint(),
      resign: () => this.resign(),
      keys: () => this.toggleKeys(),
      results: () => this.showEnd(true),
      showEnd: (shown) => this.showEnd(shown),
      ready: () => this.ready(),
      berserk: () => this.berserk(),
    };
    this.renderer = scheduled(() => this.render());
    this.controls = new MoveControls(this.els.boardHost, {
      legal: () => race.offered(this.s),
      move: (text, dropped) => this.play(text, dropped),
      changed: () => this.renderer.now(),
      undo: this.does.undo,
      hint: this.does.hint,
      ready: this.does.ready,
      declare: this.does.declare,
      help: this.does.keys,
      busy: () => Boolean(this.s.board.inflight),
    });
    this.conn = new Connection(`/ws/rooms/${encodeURIComponent(roomId)}`, {
      hello: () => ({ type: "hello", token: seat.token }),
      onFrame: (frame) => this.frame(frame),
      onState: (state, detail) => this.connState(state, detail),
    });
    this.conn.connect();
    if (seat.tournament) {
      const changed = (tm) => this.update((s) => (s.tournament = tm));
      this.follow = new TournamentFollow(seat.tournament, roomId, seat, changed);
    }
    // An arena's race: its end says the next race starts by itself (arenasocket.js goes there).
    const arena = arenaOfRoom(seat, arenaMemory(), roomId);
    if (arena) {
      this.stopArena = onArena((state) => this.update((s) => (s.arena = { ...state, id: arena })));
      getArena(arena)
        .then(
          (a) => a.room_id === roomId && a.you?.berserk && this.update((s) => (s.berserk = true)),
        )
        .catch(() => {}); // (the offer stays; going berserk again says whether it is too late)
    }
    syncClock();
    this.ticker = setInterval(() => this.tick(), 200);
  }

  destroy() {
    // Its toasts are about this race; one that says why the page went (the room is gone) stays.
    if (!this.leavingWithNews) clearToasts();
    document.title = t("app.name");
    clearInterval(this.ticker);
    this.renderer.stop();
    this.controls.destroy();
    this.conn.close();
    this.follow?.close();
    this.stopArena?.();
    showConnection("closed");
  }

  render() {
    if (!race.live(this.s)) this.controls.unselect();
    const view = this.controls.view();
    renderRace(this.els, this.s, { view, does: this.does, now: serverNow() });
  }

  /** The clock's tick: the clock is drawn; the rest only when something of it runs out. */
  tick() {
    if (renderTick(this.els, this.s, serverNow())) this.renderer.schedule();
  }

  /** Change the state, then ask for one render (however many changes come this frame). */
  update(change) {
    change(this.s);
    this.renderer.schedule();
  }

  /** The player's own action changed the state: render at once. */
  act(change) {
    change(this.s);
    this.renderer.now();
  }

  connState(state, detail) {
    showConnection(state, detail);
    this.update((s) => {
      s.conn = state;
      s.connOpen = state === "open";
      if (state === "failed") race.setNote(s, t("note.disconnected"), true);
    });
  }

  // Frames from the server (the connection has already dropped those seen before).

  frame(f) {
    const handler = {
      welcome: () => this.welcome(f),
      countdown: () => this.update((s) => race.applyCountdown(s, f)),
      started: () => {
        this.update((s) => race.applyStarted(s, f));
        this.autoPlay();
      },
      accepted: () => this.accepted(f),
      rejected: () => this.rejected(f),
      synced: () => this.synced(f),
      player: () => {
        this.update((s) => race.applyPlayer(s, f.player));
        this.askBots();
      },
      spectators: () => this.update((s) => race.applySpectators(s, f.count)),
      presence: () => this.update((s) => race.applyPlayer(s, presenceOf(f))),
      progress: () => this.update((s) => race.applyPlayer(s, f)),
      progress_batch: () => this.update((s) => f.events.forEach((e) => race.applyPlayer(s, e))),
      finished: () => this.finished(f),
      results: () => this.results(f),
      rematch: () => this.update((s) => (s.rematch = { room_id: f.room_id, by: f.by })),
      error: () => this.serverError(f),
    }[f?.type];
    if (handler) handler();
  }

  welcome(f) {
    this.update((s) => race.applyWelcome(s, f));
    this.askBots();
    if (this.s.room?.status === "finished") this.reveal(this.s.room);
    if (this.s.room?.status !== "waiting") this.dailyKind();
    if (this.s.seat.guide && this.s.room?.status === "waiting" && !this.s.readySent) this.ready();
    const again = this.s.board.inflightFrame();
    if (again) {
      this.s.board.inflight.resent = true;
      this.conn.send(again);
    } else this.autoPlay();
  }

  accepted(f) {
    if (!this.s.board.accepted(f)) return;
    savePendingMove(this.s.roomId, null);
    this.update((s) => race.setNote(s, race.stuck(s) ? t("note.stuck") : null, true));
    this.sendQueued();
    this.controls.flushKeys();
    this.autoPlay();
  }

  /** The auto-play assist (a room setting): a card the foundations take, when playing it
   * loses no choice (foundations.js), is played as the player would, and so on after it. */
  autoPlay() {
    if (!this.s.room?.autoplay || !race.live(this.s) || this.s.board.inflight) return;
    const state = this.s.board.shown();
    if (!state) return;
    const safe = race.offered(this.s).moves.find((m) => safeToFoundation(state, m));
    if (safe) this.play(safe.text);
  }

  rejected(f) {
    const dropped = this.s.board.rejected(f);
    if (!dropped) return;
    this.controls.dropKeys();
    savePendingMove(this.s.roomId, null);
    const first = dropped[0];
    this.update((s) => {
      s.arrival = null;
      s.refusal = first.type === "move" ? { move: first.move, at: serverNow() } : null;
      race.setNote(s, race.refusalText(s, first, f), true);
    });
    if (RESYNC_CODES.has(f.code)) this.conn.reconnectNow();
  }

  /** Another socket of this seat (another tab) made a move: show the board it left, unless a
   * move of this tab's is on its way (its answer, or the resync after it, brings the board). */
  synced(f) {
    if (this.s.board.inflight) return;
    this.update((s) => {
      s.board.confirm(f.state, f.legal, f.status);
      if (s.note.bad) race.setNote(s, null); // the board has moved on from what was refused
    });
  }

  finished(f) {
    this.update((s) => race.applyPlayer(s, f));
    if (f.player_id !== this.s.you) return this.othersNews(f);
    const time = elapsedText(f.elapsed_ms);
    const how = f.place
      ? t(f.status === "won" ? "note.youWon" : "note.yourRaceOver", {
          place: ordinal(f.place),
          time,
        })
      : t("note.yourRaceOverUnplaced", { time }); // a place is given once every racer is done
    toast(how, "good", 5000);
    if (f.status === "won") celebrate(this.els.boardHost);
    if (this.s.room?.status !== "finished") {
      this.update((s) => race.setNote(s, `${how} ${t("note.othersRacing")}`));
    }
  }

  /** Another racer finished (won, resigned, got stuck): say so beside the board and in a toast. */
  othersNews(f) {
    const who = this.s.players.find((p) => p.player_id === f.player_id);
    const name = who?.ghost_of ? t("ghost.of", { name: who.ghost_of }) : (who?.name ?? "?");
    const key = { won: "note.otherWon", resigned: "note.otherResigned", lost: "note.otherStuck" };
    const place = f.place ? ordinal(f.place) : "—";
    const text = t(key[f.status] ?? "note.otherFinished", { name, place });
    toast(text, f.status === "won" ? "good" : "info", 5000);
    this.update((s) => (s.news = text));
  }

  results(f) {
    if (this.s.arena) holdNextRace(RESULTS_SHOWN_MS); // (the next race opens by itself after)
    this.reveal(f);
    this.update((s) => race.applyResults(s, f));
    if (f.standings?.some((row) => row.rated)) refreshMe().catch(() => {}); // the new rating
    this.dailyKind();
  }

  /** Which racers are declared bots (bots.js): drawn again when one is found. */
  askBots() {
    const ids = this.s.players.map((p) => p.player_id);
    bots.ask(ids).then((found) => found.length && this.renderer.schedule());
  }

  /** A daily deal's attempt, once begun: official (the day's first of the player's to start,
   * the one on the leaderboard) or practice, as the server says (its `room_id` today). */
  dailyKind() {
    const room = this.s.room;
    if (!room?.daily || this.s.dailyKind !== undefined) return;
    this.s.dailyKind = null; // asked
    dailyToday(room.game)
      .then((today) => {
        if (today.date !== room.daily) return;
        const kind = today.room_id === this.s.roomId ? "official" : "practice";
        this.update((s) => (s.dailyKind = kind));
      })
      .catch(() => {});
  }

  /** Check the revealed deal and salt against the commitment, then show the verdict. */
  reveal(f) {
    checkReveal(f).then((checked) => this.update((s) => (s.revealed = checked)));
  }

  serverError(f) {
    toast(errorText(f), "error");
    if (f.code === "room_gone") {
      // The store lost this room (it expired or was wiped): nothing to race here any more.
      this.conn.close();
      saveRoomSeat(this.s.roomId, null);
      this.leavingWithNews = true;
      location.hash = "#/";
      return;
    }
    if (f.code !== "unauthorized" && f.code !== "room_not_found") return;
    // This browser's seat is no good here (an unknown room, or a token the server refuses).
    this.conn.close();
    saveRoomSeat(this.s.roomId, null);
    this.update((s) => (s.badSeat = errorText(f)));
  }

  // The player's actions.

  play(text, dropped = false) {
    const verdict = this.s.board.play(text, newMoveId());
    if (verdict === "send") this.sendInflight();
    this.act((s) => {
      if (!verdict) return;
      s.dropped = dropped;
      s.hint = null;
      s.arrival = { move: text, at: serverNow() };
      if (s.note.bad) race.setNote(s, null); // a refusal is old news once the next move is made
    });
  }

  sendInflight() {
    const frame = this.s.board.inflightFrame();
    if (!frame) return;
    savePendingMove(this.s.roomId, this.s.board.inflight);
    this.conn.send(frame); // when offline it is sent again after the next welcome
  }

  sendQueued() {
    const { frame, dropped } = this.s.board.nextQueued(newMoveId());
    if (frame) this.sendInflight();
    if (!dropped.length) return;
    this.update((s) => {
      s.arrival = null;
      s.refusal = { move: dropped[0], at: serverNow() };
      race.setNote(s, t("note.noLonger", { move: moveWords(dropped[0], s.board.state) }), true);
    });
  }

  undo() {
    if (!this.s.room?.undo || this.s.berserk || !race.racing(this.s)) return;
    if (this.s.board.undo(newMoveId())) this.sendInflight();
    this.renderer.now(); // shows the undo as pending until the server's board comes
  }

  /** Ask the solver for the next move (solo rooms only; the server refuses it elsewhere). */
  async hint() {
    if (this.s.room?.seats !== 1 || !race.live(this.s) || this.s.hinting) return;
    this.act((s) => (s.hinting = true));
    try {
      const { move } = await askHint(this.s.roomId, this.s.seat.token);
      const words = move ? moveWords(move, this.s.board.shown()) : null;
      this.update((s) => {
        s.hint = move;
        race.setNote(s, move ? t("note.hint", { move: words }) : t("note.noHint"));
      });
    } catch (error) {
      this.update((s) => race.setNote(s, errorText(error), true));
    } finally {
      this.update((s) => (s.hinting = false));
    }
  }

  ready() {
    if (this.s.room?.status !== "waiting") return;
    this.conn.send({ type: "ready" });
    this.act((s) => (s.readySent = true));
  }

  declare(step) {
    if (!race.canDeclare(this.s)) return;
    if (this.s.board.declare(newMoveId(), step)) this.sendInflight();
    this.renderer.now();
  }

  /** An arena's race, before it starts: half the time, no undo, a point more for a win. */
  async berserk() {
    const arena = this.s.arena?.id;
    if (!arena || this.s.berserk || this.s.berserkSent) return;
    this.act((s) => (s.berserkSent = true));
    try {
      await goBerserk(arena);
      this.update((s) => (s.berserk = true));
    } catch (error) {
      toast(arenaError(error), "error");
    } finally {
      this.update((s) => (s.berserkSent = false));
    }
  }

  resign() {
    if (!window.confirm(t("race.resignConfirm"))) return;
    this.conn.send({ type: "resign" });
  }

  toggleKeys() {
    this.act((s) => (s.keysShown = !s.keysShown));
  }

  showEnd(shown) {
    this.act((s) => (s.hideEnd = !shown));
  }
}
