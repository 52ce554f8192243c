// @ts-check
// The race page's state: one object holding all the page knows (the room, the racers, this
// player's board, the note under it, what the overlay shows), the questions asked of it, and
// the changes the server's frames make to it. Nothing here touches the DOM or the network:
// the page sends, saves and schedules; racerender.js draws from this.

import { errorText } from "../shared/api.js";
import { moveWords } from "../board/board.js";
import { PlayerBoard } from "./game.js";
import { t } from "../shared/i18n.js";
import { LegalIndex } from "../board/moves.js";
import { mergePlayer } from "../shared/widgets.js";

const NO_MOVES = new LegalIndex([]);

/** A fresh state for a room this browser holds `seat` in; `saved` is the move in flight. */
export function raceState(roomId, seat, saved = null) {
  const board = new PlayerBoard();
  if (saved?.id) board.inflight = { ...saved, resent: true };
  return {
    roomId,
    seat,
    you: seat.player_id ?? null,
    room: null,
    players: [],
    standings: null,
    board,
    note: { text: null, bad: false },
    hideEnd: false,
    tournament: null, // a tournament round's tournament, as its socket last told (tournamentfollow.js)
    readySent: false,
    keysShown: false,
    revealed: null,
    conn: "connecting",
    connOpen: false,
    badSeat: null, // the server's message when it refused this browser's seat
    arrival: null, // {move, at}: the cards that just landed, marked for a moment
    refusal: null, // {move, at}: the cards that sprang back, and where they were sent
    hint: null, // the solver's move asked for (solo rooms), lit until the next move
    hinting: false, // a hint asked for and not yet answered
    news: null, // the last word of another racer finishing, shown beside the board
    dropped: false, // the last move was a drop: its cards are where they go, no glide
    berserk: false, // an arena's race raced berserk: half the time, no undo
    berserkSent: false, // going berserk asked, not yet answered
  };
}

/** The room as this racer races it: a berserk racer's half the time, without undo. */
export function yourRoom(s) {
  const room = s.room;
  if (!s.berserk || !room) return room;
  return { ...room, time_limit_s: (room.time_limit_s ?? 0) / 2, undo: false, berserk: true };
}

/** When this racer's time is up: the race's end, or half its time for a berserk racer. */
export function yourEnd(s) {
  const room = s.room;
  if (!s.berserk || !room?.starts_at || !room?.ends_at) return room?.ends_at ?? null;
  return room.starts_at + Math.floor((room.ends_at - room.starts_at) / 2);
}

export function setNote(s, text, bad = false) {
  s.note = { text: text ?? null, bad: Boolean(bad && text) };
}

/** This player's entry in the racers, or null. */
export function me(s) {
  return s.players.find((p) => p.player_id === s.you) ?? null;
}

/** Whether this player is still in the race (their board may be stuck, with undo to try). */
export function racing(s) {
  return me(s)?.status === "playing";
}

/** Stuck: no legal move, yet still racing because the room allows undo. */
export function stuck(s) {
  return racing(s) && s.board.status === "lost";
}

/** Whether the moves on the board can be played now. */
export function live(s) {
  return s.room?.status === "racing" && racing(s);
}

/** The moves the player may make now (none outside the race). */
export function offered(s) {
  return live(s) ? s.board.offered() : NO_MOVES;
}

export function canDeclare(s) {
  const state = s.board.state;
  const room = s.room;
  return Boolean(
    live(s) && room.game !== "squadron" && room.step === "choice" && state && !state.step,
  );
}

// What the server's frames change.

export function applyWelcome(s, f) {
  s.you = f.you;
  s.room = f.room ?? s.room;
  s.players = [...(s.room?.players ?? [])];
  s.board.confirm(f.state, f.legal, null);
  if (s.room?.status === "finished" && !s.standings) s.standings = s.room.standings ?? null;
  if (s.room?.rematch && !s.rematch) {
    s.rematch = { room_id: s.room.rematch, by: s.room.rematch_by ?? null };
  }
}

export function applyCountdown(s, f) {
  if (!s.room) return;
  s.room.status = "countdown";
  s.room.starts_at = f.starts_at;
  s.room.ends_at = f.ends_at ?? s.room.ends_at;
}

export function applyStarted(s, f) {
  if (!s.room) return;
  s.room.status = "racing";
  s.room.ends_at = f.ends_at ?? s.room.ends_at;
  for (const p of s.players) if (!p.status || p.status === "waiting") p.status = "playing";
  if (!s.board.state) s.board.confirm(f.state, f.legal, "playing");
}

/** A player's progress, status or view changed (player, progress and finished frames). */
export function applyPlayer(s, update) {
  if (update) mergePlayer(s.players, update);
}

export function applySpectators(s, count) {
  if (s.room) s.room.spectators = count;
}

export function applyResults(s, f) {
  s.standings = f.standings ?? [];
  if (s.room) s.room.status = "finished";
  s.hideEnd = false; // the results so far may have been put away: the end screen shows
  setNote(s, null);
  for (const row of s.standings) if (row.player_id) mergePlayer(s.players, row);
}

/** The text of a refusal under the board, for the first of the moves dropped. */
export function refusalText(s, first, f) {
  const why = errorText(f);
  if (first.type === "undo") return t("note.undoRefused", { why });
  if (first.type !== "move") return t("note.stepRefused", { why });
  return t("note.moveRefused", { move: moveWords(first.move, s.board.state), why });
}
