// Drawing the race page from its state (racestate.js): the shell once, then one render that
// brings every part up to date in place (render.js's patch), run at most once a frame.

import { renderBoard } from "./board.js";
import { cardPlaces, glide } from "./motion.js";
import { h } from "./dom.js";
import { clockText, t } from "./i18n.js";
import { keysTable } from "./help.js";
import { parseMove } from "./moves.js";
import { patch, setData, setText } from "./render.js";
import { canDeclare, live, me, racing } from "./racestate.js";
import { guideStep, guideView } from "./guide.js";
import { rematchView } from "./rematch.js";
import {
  actionsView,
  badSeatView,
  countdownView,
  endScreenView,
  waitingRoomView,
} from "./raceviews.js";
import { gameName, racersPanel, settingsText } from "./widgets.js";
import { commitmentLine } from "./fairness.js";
import { runAction } from "./ghost.js";

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
  return els;
}

/**
 * Draw everything from the state. `does` holds the page's handlers (declare, undo, resign,
 * keys, ready, showEnd); `view` is the move controls' view (selection, targets, movable).
 */
export function renderRace(els, s, { view, does, now }) {
  setData(els.root, "conn", s.conn);
  setText(els.note, s.note.text ?? "");
  els.note.classList.toggle("bad", s.note.bad);
  if (els.keys.hidden === s.keysShown) els.keys.hidden = !s.keysShown;
  if (s.badSeat) return drawOverlay(els, badSeatView(s.badSeat));
  if (!s.room) return;
  setData(els.root, "status", s.room.status);
  setText(els.title, t("race.title", { game: gameName(s.room.game) }));
  setText(els.settings, settingsText(s.room));
  setText(els.round, tournamentLine(s.tournament, s.roomId));
  patch(els.commitment, commitmentLine(s.room));
  const guide = s.seat.guide ? guideStep(s.board.state) : null;
  drawGuide(els.guide, guide, me(s)?.status);
  drawBoard(els.boardHost, s, { ...view, hint: hintPiles(s, guide) }, now);
  patch(els.side, sideView(s));
  patch(els.actions, actionsView(actionsOf(s), does));
  drawOverlay(els, overlayContent(s, does, now));
  drawClock(els.clock, s.room, now);
}

/** The piles to light up: the solver's hint asked for, else the guided first game's. */
function hintPiles(s, guide) {
  if (!racing(s)) return undefined;
  const asked = s.hint ? parseMove(s.hint) : null;
  if (asked) return new Set([asked.src, asked.dst]);
  return guide?.hint;
}

function drawGuide(el, step, status) {
  if (el.hidden !== !step) el.hidden = !step;
  if (step) patch(el, guideView(step, status));
}

function drawBoard(host, s, view, now) {
  const state = s.board.shown();
  setData(host, "pending", String(Boolean(s.board.inflight)));
  if (!state) {
    patch(host, h("div", { class: "board-placeholder" }, t("race.placeholder")));
    return;
  }
  const marks = { ...view, landed: recent(s.arrival, ARRIVAL_MS, now) };
  marks.refused = recent(s.refusal, REFUSAL_MS, now);
  // The cards glide only when the board changed (not for a selection or the clock), and not
  // after a drop: a dragged card is already where it goes.
  const sig = JSON.stringify(state);
  const moved = host._drawn !== undefined && host._drawn !== sig;
  const before = moved && !s.dropped ? cardPlaces(host) : [];
  host._drawn = sig;
  s.dropped = false;
  patch(host, renderBoard(state, marks));
  glide(host, before);
}

/** The move of {move, at} while it is younger than `ms`, else null. */
function recent(mark, ms, now) {
  return mark && now - mark.at <= ms ? parseMove(mark.move) : null;
}

function sideView(s) {
  // This page knows its own connection better than the room view it was sent.
  const mine = me(s);
  const players = s.players.map((p) =>
    p === mine ? { ...p, connected: s.connOpen ?? p.connected } : p,
  );
  const watching = s.room?.spectators ?? 0;
  return [
    h("h2", {}, t("race.racers")),
    s.news
      ? h("p", { class: "race-news", role: "status", "aria-label": t("race.news") }, s.news)
      : null,
    racersPanel(players, { game: s.room?.game, you: s.you, gaps: s.room?.status !== "waiting" }),
    watching ? h("p", { class: "watchers muted" }, t("common.watching", { n: watching })) : null,
  ];
}

function actionsOf(s) {
  const status = s.room?.status;
  return {
    canDeclare: canDeclare(s),
    busy: s.board.inflight,
    step: s.board.state?.step,
    playing: live(s),
    undo: s.room?.undo,
    solo: s.room?.seats === 1,
    hinting: s.hinting,
    finished: status === "finished",
  };
}

function drawOverlay(els, content) {
  if (els.overlay.hidden !== !content) els.overlay.hidden = !content;
  patch(els.overlay, content ? h("div", { class: "overlay-card" }, content) : null);
}

function overlayContent(s, does, now) {
  const room = s.room;
  if (room.status === "waiting") {
    return waitingRoomView({
      roomId: s.roomId,
      seats: room.seats ?? s.players.length,
      players: s.players,
      you: s.you,
      ready: me(s)?.ready || s.readySent,
      onReady: does.ready,
      quick: Boolean(room.quick),
    });
  }
  if (room.status === "countdown") {
    const left = room.starts_at ? Math.max(0, Math.ceil((room.starts_at - now) / 1000)) : "";
    return countdownView(String(left));
  }
  if (room.status !== "finished" || s.hideEnd) return null;
  return endScreenView({
    standings: s.standings ?? s.players,
    game: room.game,
    you: s.you,
    roomId: s.roomId,
    tournament: s.seat.tournament,
    tour: s.tournament ? { data: s.tournament, now } : null,
    reveal: s.revealed,
    chosen: room.deal_chosen,
    onHide: () => does.showEnd(false),
    action: s.seat.tournament ? null : runAction({ ...room, room_id: s.roomId }, s.you),
    rematch: rematchView(s, me(s)?.name ?? null),
  });
}

/** "Round 2 of 3 · Cup" on a tournament round's page; empty elsewhere. */
function tournamentLine(tm, roomId) {
  const round = (tm?.round_results ?? []).find((r) => r.room_id === roomId)?.round ?? tm?.round;
  if (!round) return "";
  return t("race.tournamentRound", { n: round, total: tm.rounds, name: tm.name });
}

function drawClock(clock, room, now) {
  const limit = clockText((room.time_limit_s ?? 0) * 1000);
  if (room.status === "racing" && room.ends_at) {
    const left = room.ends_at - now;
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
