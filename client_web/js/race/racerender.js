// @ts-check
// Drawing the race page from its state (racestate.js): the shell once, then one render that
// brings every part up to date in place (render.js's patch), run at most once a frame. Each
// part is rebuilt only when what it shows changed (render.js's drawPart, keyed by that): a
// rival's progress redraws the racers' panel, not the board. The clock's tick draws the clock
// alone (renderTick), and asks for the whole render only when something else drawn changes
// with time (a mark on the board running out, the countdown's or the next round's seconds).

import { renderBoard } from "../board/board.js";
import { cardPlaces, glide } from "./motion.js";
import { h } from "../shared/dom.js";
import { clockText, t } from "../shared/i18n.js";
import { keysTable } from "../learn/help.js";
import { parseMove } from "../board/moves.js";
import { drawPart, nextSecond, patch, setData, setText } from "../shared/render.js";
import { canDeclare, live, me, offered, racing, yourEnd, yourRoom } from "./racestate.js";
import { guideStep, guideView } from "../learn/guide.js";
import { rematchView } from "./rematch.js";
import {
  actionsView,
  badSeatView,
  berserkView,
  countdownView,
  endScreenView,
  soFarView,
  waitingRoomView,
} from "./raceviews.js";
import { gameName, racersPanel, settingsText } from "../shared/widgets.js";
import { commitmentLine } from "./fairness.js";
import { runAction } from "../shared/ghost.js";
import { withReport } from "../fairplay/fairplayview.js";
import { withFriends } from "../friends/friendsview.js";
import { bots } from "./bots.js";
import { nextRaceKey } from "../arena/arenas.js";

const ARRIVAL_MS = 600;
const REFUSAL_MS = 800;

/** The page's fixed elements, made once; render() fills them. */
export function raceShell(roomId) {
  const els = {
    title: h("h1", { class: "race-title" }),
    settings: h("p", { class: "race-settings" }),
    round: h("p", { class: "race-round" }),
    commitment: h("div", { class: "commitment-host" }),
    clock: h("div", { class: "clock", "aria-label": t("race.clock") }, "–:––"),
    guide: h("div", { class: "guide panel", role: "status", "aria-live": "polite", hidden: true }),
    boardHost: h("div", { class: "board-host" }),
    side: h("aside", { class: "side" }),
    actions: h("div", { class: "race-actions" }),
    note: h("p", { class: "move-note", role: "status", "aria-live": "polite" }),
    keys: h(
      "div",
      { class: "key-panel panel", hidden: true },
      h("h2", {}, t("help.keys")),
      keysTable(),
    ),
    overlay: h("div", { class: "overlay", hidden: true }),
  };
  const head = h(
    "div",
    { class: "race-head" },
    h("div", {}, els.title, els.round, els.settings, els.commitment),
    els.clock,
  );
  const play = h(
    "div",
    { class: "play-area" },
    els.guide,
    els.boardHost,
    els.note,
    els.actions,
    els.keys,
  );
  const body = h("div", { class: "race-body" }, play, els.side);
  els.root = h("section", { class: "race", dataset: { room: roomId } }, head, body, els.overlay);
  els.drawn = {}; // each part's key as last drawn (drawPart)
  els.due = Infinity; // when something drawn, the clock apart, next changes with time alone
  return els;
}

/**
 * Draw everything from the state. `does` holds the page's handlers (declare, undo, resign,
 * keys, ready, showEnd); `view` is the move controls' view (selection, targets, movable).
 */
export function renderRace(els, s, { view, does, now }) {
  els.due = Infinity;
  setData(els.root, "conn", s.conn);
  setText(els.note, s.note.text ?? "");
  els.note.classList.toggle("bad", s.note.bad);
  if (els.keys.hidden === s.keysShown) els.keys.hidden = !s.keysShown;
  if (s.badSeat) return drawOverlay(els, badSeatView(s.badSeat));
  if (!s.room) return;
  setData(els.root, "status", s.room.status);
  setText(els.title, t("race.title", { game: gameName(s.room.game) }));
  setText(els.settings, settingsText(yourRoom(s)));
  setText(els.round, tournamentLine(s.tournament, s.roomId));
  const drawn = els.drawn;
  const commitment = s.room.commitment ?? "";
  drawPart(drawn, "commitment", commitment, () => patch(els.commitment, commitmentLine(s.room)));
  const guide = s.seat.guide ? guideStep(s.board.state) : null;
  drawGuide(els, guide, me(s)?.status);
  drawBoard(els, s, { ...view, hint: hintPiles(s, guide) }, now);
  // The guided first game is a lesson, not a race: no clock, no room settings (a 30-minute
  // limit), no racers' panel (a racer called "Learner"), no Resign (unless stuck: actionsOf).
  const guided = Boolean(s.seat.guide);
  for (const el of [els.clock, els.side, els.settings, els.commitment])
    if (el.hidden !== guided) el.hidden = guided;
  const side = sideView(s);
  drawPart(drawn, "side", JSON.stringify(side), () => patch(els.side, sideContent(side)));
  const actions = actionsOf(s);
  drawPart(drawn, "actions", JSON.stringify(actions), () =>
    patch(els.actions, actionsView(actions, does)),
  );
  drawOverlay(els, overlayContent(s, does, now));
  els.due = Math.min(els.due, overlayDue(s, now));
  drawClock(els.clock, yourRoom(s), now, yourEnd(s));
}

/**
 * The clock's tick: draw the clock (and the tab's title) alone. Returns whether the whole
 * render is due too, for a part that changes with time (see `els.due`).
 */
export function renderTick(els, s, now) {
  if (s.badSeat || !s.room) return false;
  drawClock(els.clock, yourRoom(s), now, yourEnd(s));
  return now >= els.due;
}

/** The piles to light up: the solver's hint asked for, else the guided first game's. */
function hintPiles(s, guide) {
  if (!racing(s)) return undefined;
  const asked = s.hint ? parseMove(s.hint) : null;
  if (asked) return new Set([asked.src, asked.dst]);
  return guide?.hint;
}

function drawGuide(els, step, status) {
  const el = els.guide;
  if (el.hidden !== !step) el.hidden = !step;
  if (!step) return;
  const key = JSON.stringify([step.key, step.params, status]);
  drawPart(els.drawn, "guide", key, () => patch(el, guideView(step, status)));
}

/**
 * The player's board, rebuilt only when something it shows changed: the board itself, the
 * selection and its targets, the runs that can move, the lit piles, the marks of a move.
 */
function drawBoard(els, s, view, now) {
  const host = els.boardHost;
  const state = s.board.shown();
  setData(host, "pending", String(Boolean(s.board.inflight)));
  const dropped = s.dropped;
  s.dropped = false; // a drop's news is for this render only
  if (!state) {
    drawPart(els.drawn, "board", "", () =>
      patch(host, h("div", { class: "board-placeholder" }, t("race.placeholder"))),
    );
    return;
  }
  const marks = { ...view, landed: recent(s.arrival, ARRIVAL_MS, now) };
  marks.refused = recent(s.refusal, REFUSAL_MS, now);
  if (marks.landed) els.due = Math.min(els.due, s.arrival.at + ARRIVAL_MS + 1);
  if (marks.refused) els.due = Math.min(els.due, s.refusal.at + REFUSAL_MS + 1);
  const sig = JSON.stringify(state);
  const key = JSON.stringify([
    sig,
    view.selected ?? null,
    [...(view.targets ?? [])],
    view.hover ?? null,
    [...(view.hint ?? [])],
    marks.landed,
    marks.refused,
    offered(s).moves.map((m) => m.text),
  ]);
  drawPart(els.drawn, "board", key, () => {
    // The cards glide only when the board changed (not for a selection or a mark), and not
    // after a drop: a dragged card is already where it goes.
    const moved = host._drawn !== undefined && host._drawn !== sig;
    const before = moved && !dropped ? cardPlaces(host) : [];
    host._drawn = sig;
    patch(host, renderBoard(state, marks));
    glide(host, before);
  });
}

/** The move of {move, at} while it is younger than `ms`, else null. */
function recent(mark, ms, now) {
  return mark && now - mark.at <= ms ? parseMove(mark.move) : null;
}

/** What the racers' panel shows, as plain data (its key too). */
function sideView(s) {
  // This page knows its own connection better than the room view it was sent.
  const mine = me(s);
  const players = bots.mark(
    s.players.map((p) => (p === mine ? { ...p, connected: s.connOpen ?? p.connected } : p)),
  );
  return {
    players,
    news: s.news,
    game: s.room?.game,
    you: s.you,
    gaps: s.room?.status !== "waiting",
    watching: s.room?.spectators ?? 0,
  };
}

function sideContent({ players, news, game, you, gaps, watching }) {
  return [
    h("h2", {}, t("race.racers")),
    news
      ? h("p", { class: "race-news", role: "status", "aria-label": t("race.news") }, news)
      : null,
    racersPanel(players, { game, you, gaps }),
    watching ? h("p", { class: "watchers muted" }, t("common.watching", { n: watching })) : null,
  ];
}

function actionsOf(s) {
  const status = s.room?.status;
  return {
    canDeclare: canDeclare(s),
    busy: Boolean(s.board.inflight),
    step: s.board.state?.step ?? null,
    playing: live(s),
    undo: Boolean(s.room?.undo) && !s.berserk,
    solo: s.room?.seats === 1,
    hinting: s.hinting,
    finished: status === "finished",
    // The guided game offers Resign only to a player left with no move.
    resign: !s.seat.guide || s.board.status === "lost",
    over: status === "racing" && isOver(me(s)),
  };
}

function drawOverlay(els, content) {
  if (els.overlay.hidden !== !content) els.overlay.hidden = !content;
  patch(els.overlay, content ? h("div", { class: "overlay-card" }, content) : null);
}

function overlayContent(s, does, now) {
  const room = s.room;
  if (room.status === "waiting") {
    const waiting = waitingRoomView({
      roomId: s.roomId,
      seats: room.seats ?? s.players.length,
      players: bots.mark(s.players),
      you: s.you,
      ready: me(s)?.ready || s.readySent,
      onReady: does.ready,
      quick: Boolean(room.quick),
    });
    return [waiting, berserkChoice(s, does)];
  }
  if (room.status === "countdown") {
    const left = room.starts_at ? Math.max(0, Math.ceil((room.starts_at - now) / 1000)) : "";
    return [countdownView(String(left)), berserkChoice(s, does)];
  }
  if (room.status === "racing" && isOver(me(s)) && !s.hideEnd) {
    return soFarView({
      players: bots.mark(s.players),
      game: room.game,
      you: s.you,
      onHide: () => does.showEnd(false),
      arena: arenaNext(s),
    });
  }
  if (room.status !== "finished" || s.hideEnd) return null;
  return endScreenView({
    standings: bots.mark(s.standings ?? s.players),
    game: room.game,
    you: s.you,
    roomId: s.roomId,
    tournament: s.seat.tournament,
    tour: s.tournament ? { data: s.tournament, now } : null,
    reveal: s.revealed,
    chosen: room.deal_chosen,
    onHide: () => does.showEnd(false),
    action: friendsAction(
      withReport(
        s.seat.tournament ? null : runAction({ ...room, room_id: s.roomId }, s.you),
        s.roomId,
        s.you,
      ),
      s,
    ),
    rematch: rematchView(s),
    arena: arenaNext(s),
  });
}

/** An arena's race before its start: the offer to go berserk, or the word that you did. */
function berserkChoice(s, does) {
  if (!s.arena?.id || !s.you) return null;
  return berserkView({ on: s.berserk, busy: s.berserkSent, onBerserk: does.berserk });
}

/** An arena's race: the arena's id and what the end says of the next race (else null). */
function arenaNext(s) {
  return s.arena ? { id: s.arena.id, note: nextRaceKey(s.arena) } : null;
}

/** Follow and "Challenge again" on the results, but for a tournament's round or a daily deal. */
function friendsAction(action, s) {
  return s.seat.tournament || s.room.daily ? action : withFriends(action, s.room, s.you);
}

/** Whether a racer's own race is over (won, resigned, stuck for good, out of time). */
function isOver(p) {
  return Boolean(p?.status) && !["playing", "waiting", "ready", "not ready"].includes(p.status);
}

/** When the overlay's seconds next change: the countdown's, the next round's after a round. */
function overlayDue(s, now) {
  const room = s.room;
  if (room.status === "countdown" && room.starts_at) return nextSecond(room.starts_at, now);
  const tm = s.tournament;
  const breakShown = room.status === "finished" && !s.hideEnd && tm?.status === "break";
  return breakShown && tm.break_ends_at ? nextSecond(tm.break_ends_at, now) : Infinity;
}

/** "Round 2 of 3 · Cup" on a tournament round's page; empty elsewhere. */
function tournamentLine(tm, roomId) {
  const round = (tm?.round_results ?? []).find((r) => r.room_id === roomId)?.round ?? tm?.round;
  if (!round) return "";
  return t("race.tournamentRound", { n: round, total: tm.rounds, name: tm.name });
}

/** The clock: the time left to `end` (yours: a berserk racer's half of the race's). */
function drawClock(clock, room, now, end) {
  const limit = clockText((room.time_limit_s ?? 0) * 1000);
  if (room.status === "racing" && end) {
    const left = Math.max(0, end - now);
    setText(clock, clockText(left));
    setTitle(`${clockText(left)} · ${t("app.name")}`);
    clock.classList.toggle("urgent", left < 30000);
  } else if (room.status === "finished") {
    setText(clock, t("race.finished"));
    clock.classList.remove("urgent");
    setTitle(`${t("race.finished")} · ${t("app.name")}`);
  } else {
    setText(clock, limit);
  }
}

function setTitle(title) {
  if (document.title !== title) document.title = title;
}
