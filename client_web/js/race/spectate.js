// @ts-check
// The spectator view: every racer's board side by side, shown the room's delay behind, with
// live progress bars, the number watching, and the results at the end. The server sends the
// boards (`boards` in the welcome, then a `board` frame per move, already delayed), so this
// page only draws what it is given: frames change the state, one scheduled render draws it.
// Beside each board, whether it can still be won: the server judges the delayed board alone
// (`board_verdicts` in the welcome, `verdict` in each board frame, then `board_verdict` once
// a board is judged, always about the last board sent for that player).
// A declared bot's name has its BOT tag (bots.js), and the results a Report beside each racer
// for a spectator with a session.

import { serverNow, syncClock } from "../shared/clock.js";
import { renderBoard } from "../board/board.js";
import { Connection, showConnection } from "../shared/connection.js";
import { errorText } from "../shared/api.js";
import { h, replace } from "../shared/dom.js";
import { cardTotal } from "../board/cards.js";
import { clockText, t } from "../shared/i18n.js";
import { patch, scheduled, setData, setText } from "../shared/render.js";
import {
  gameName,
  mergePlayer,
  racersPanel,
  resultsTable,
  settingsText,
} from "../shared/widgets.js";
import { checkReveal, commitmentLine, revealView } from "./fairness.js";
import { withReport } from "../fairplay/fairplayview.js";
import { me } from "../shared/session.js";
import { bots } from "./bots.js";

export class SpectatorPage {
  constructor(app, roomId) {
    this.s = {
      roomId,
      room: null,
      players: [],
      boards: new Map(), // player_id -> board state
      verdicts: new Map(), // player_id -> "won" | "lost" | "unknown": can that board be won
      changed: new Map(), // player_id -> how many times their board or progress changed
      standings: null,
      revealed: null,
      error: null,
    };
    this.els = spectatorShell(roomId);
    replace(app, this.els.root);
    this.renderer = scheduled(() => renderSpectator(this.els, this.s, serverNow()));
    this.conn = new Connection(`/ws/rooms/${encodeURIComponent(roomId)}`, {
      hello: () => ({ type: "hello", spectator: true }),
      onFrame: (f) => this.frame(f),
      onState: (state, detail) => showConnection(state, detail),
    });
    this.conn.connect();
    syncClock();
    this.ticker = setInterval(() => this.renderer.schedule(), 250); // the clock
  }

  destroy() {
    clearInterval(this.ticker);
    this.renderer.stop();
    this.conn.close();
    showConnection("closed");
  }

  /** Change the state, then ask for one render. */
  update(change) {
    change(this.s);
    this.renderer.schedule();
  }

  frame(f) {
    const handler = {
      welcome: () => this.welcome(f),
      countdown: () =>
        setStatus(this.s, "countdown", { starts_at: f.starts_at, ends_at: f.ends_at }),
      started: () => started(this.s, f),
      board: () => board(this.s, f),
      board_verdict: () => verdict(this.s, f),
      spectators: () => this.s.room && (this.s.room.spectators = f.count),
      player: () => {
        progress(this.s, { ...f.player });
        this.askBots();
      },
      progress: () => progress(this.s, f),
      progress_batch: () => f.events.forEach((e) => progress(this.s, e)),
      presence: () => progress(this.s, { player_id: f.player_id, connected: f.connected }),
      finished: () => progress(this.s, f),
      results: () => this.finish(f),
      error: () => (this.s.error = errorText(f)),
    }[f?.type];
    if (handler) this.update(handler);
  }

  welcome(f) {
    const s = this.s;
    s.room = f.room ?? s.room;
    s.players = [...(s.room?.players ?? [])];
    s.boards = new Map(Object.entries(f.boards ?? {}));
    s.verdicts = new Map(Object.entries(f.board_verdicts ?? {}));
    s.error = null;
    s.players.forEach((p) => touch(s, p.player_id));
    if (s.room?.status === "finished") {
      s.standings = s.players;
      this.reveal(s.room);
    }
    this.askBots();
  }

  /** Which racers are declared bots (bots.js): their lines drawn again when one is found. */
  askBots() {
    const ids = this.s.players.map((p) => p.player_id);
    const redraw = (found) => this.update((s) => found.forEach((id) => touch(s, id)));
    bots.ask(ids).then((found) => found.length && redraw(found));
  }

  reveal(f) {
    checkReveal(f).then((checked) => this.update((s) => (s.revealed = checked)));
  }

  finish(f) {
    const s = this.s;
    this.reveal(f);
    s.standings = f.standings ?? [];
    if (s.room) s.room.status = "finished";
    for (const row of s.standings) if (row.player_id) progress(s, row);
  }
}

// What the frames change.

function touch(s, playerId) {
  s.changed.set(playerId, (s.changed.get(playerId) ?? 0) + 1);
}

function setStatus(s, status, fields) {
  if (s.room) Object.assign(s.room, { status }, fields);
  s.error = null;
}

function started(s, f) {
  for (const p of s.players) if (!p.status || p.status === "waiting") p.status = "playing";
  // Every board starts as the deal; the moves follow as board frames (the delay behind). In a
  // race that counts a board comes only once its racer has finished.
  for (const p of s.players) {
    if (!s.boards.has(p.player_id) && !s.room?.boards_held) s.boards.set(p.player_id, f.state);
    touch(s, p.player_id);
  }
  setStatus(s, "racing", { ends_at: f.ends_at });
}

function board(s, f) {
  if (!f.player_id || !f.state) return;
  s.boards.set(f.player_id, f.state);
  s.verdicts.set(f.player_id, f.verdict ?? "unknown");
  touch(s, f.player_id);
}

function verdict(s, f) {
  if (!f.player_id || !VERDICTS.includes(f.verdict)) return;
  s.verdicts.set(f.player_id, f.verdict);
  touch(s, f.player_id);
}

function progress(s, f) {
  mergePlayer(s.players, f);
  touch(s, f.player_id);
}

// Drawing.

function spectatorShell(roomId) {
  const els = {
    clock: h("div", { class: "clock" }, "–:––"),
    delay: h("p", { class: "delay-note" }),
    watching: h("p", { class: "watchers muted", "aria-live": "polite" }),
    title: h("h1", { class: "race-title" }),
    settings: h("p", { class: "race-settings" }),
    commitment: h("div", { class: "commitment-host" }),
    grid: h("div", { class: "spectator-grid" }),
    results: h("div", { class: "spectator-results" }),
  };
  const { title, settings, commitment, delay, watching } = els;
  els.root = h(
    "section",
    { class: "spectate", dataset: { room: roomId } },
    h(
      "div",
      { class: "race-head" },
      h("div", {}, title, settings, commitment, delay, watching),
      els.clock,
    ),
    els.results,
    els.grid,
  );
  return els;
}

function renderSpectator(els, s, now) {
  const room = s.room;
  if (s.error && !room) setText(els.delay, s.error);
  if (!room) return;
  setText(els.title, t("watch.title", { game: gameName(room.game) }));
  setText(els.settings, settingsText(room));
  patch(els.commitment, commitmentLine(room));
  setText(els.delay, s.error ?? delayText(room));
  setText(els.watching, t("common.watching", { n: room.spectators ?? 0 }));
  setData(els.root, "status", room.status);
  const shown = new Map([...els.grid.children].map((el) => [el._key, el]));
  patch(
    els.grid,
    s.players.map((p) => {
      const sig = `${s.changed.get(p.player_id) ?? 0}|${room.game}`;
      const el = shown.get(p.player_id);
      return el?._sig === sig ? el : boardCard(s, p, sig); // unchanged: left as it is
    }),
  );
  patch(els.results, s.standings ? resultsView(s) : null);
  setText(els.clock, clockLine(room, now));
}

/** One racer's bar and board, keyed by player; `sig` says which change of theirs it shows. */
function boardCard(s, player, sig) {
  const state = s.boards.get(player.player_id);
  const won = state && boardWon(state, s.room?.game);
  const verdict = won ? "done" : s.verdicts.get(player.player_id);
  return h(
    "article",
    { class: "spectated", dataset: { player: player.player_id }, key: player.player_id, sig },
    racersPanel(bots.mark([player]), { game: s.room?.game }),
    state ? verdictMark(verdict) : null,
    state
      ? renderBoard(state, { compact: true })
      : h("div", { class: "board-placeholder" }, placeholder(s.room)),
  );
}

/** What stands in for a board not shown: the start to come, or (a race that counts) the
 * racer's finish. */
function placeholder(room) {
  const held = room?.boards_held && room.status === "racing";
  return held ? t("watch.heldBoard") : t("watch.waitingStart");
}

const VERDICTS = ["won", "lost", "unknown"];

/** Whether the board shown is won already: every card on the foundations. */
function boardWon(state, game) {
  const home = (state.foundations ?? []).reduce((n, pile) => n + pile.length, 0);
  return home === cardTotal(game ?? state.game);
}

/** Whether the board shown can still be won, in words (the colour and sign only repeat it);
 * a board already won says so ("done"), not "Still winnable". */
function verdictMark(value) {
  const v = value === "done" || VERDICTS.includes(value) ? value : "unknown";
  return h(
    "p",
    { class: "board-verdict", dataset: { verdict: v }, title: t("watch.verdictHint") },
    t(`watch.verdict.${v}`),
  );
}

/** The results, with Report beside each racer's line for a spectator with a session. */
function resultsView(s) {
  const action = me() ? withReport(null, s.roomId) : null;
  return [
    h("h2", {}, t("race.results")),
    resultsTable(bots.mark(s.standings), { game: s.room.game, action }),
    revealView(s.revealed),
    h(
      "a",
      { class: "btn btn-primary replay-link", href: `#/replay/${s.roomId}` },
      t("race.watchReplay"),
    ),
  ];
}

function clockLine(room, now) {
  if (room.status === "racing" && room.ends_at) return clockText(room.ends_at - now);
  if (room.status === "countdown" && room.starts_at)
    return t("watch.startsIn", { n: Math.max(0, Math.ceil((room.starts_at - now) / 1000)) });
  if (room.status === "finished") return t("race.finished");
  return t("status.waiting");
}

function delayText(room) {
  if (room.status === "finished") return t("watch.over");
  if (room.boards_held) return t("watch.held");
  const delay = room.spectator_delay_s ?? 0;
  if (!delay) return t("watch.live");
  return t("watch.delayed", { n: delay });
}
