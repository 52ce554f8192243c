// @ts-check
// The arena socket of the arena this tab entered (/ws/arenas/{id}, hello with the session
// cookie): one per tab, living across pages (the arena page, each race, the lobby), so the
// entrant stays present and is paired again as each race ends. It reconnects with backoff
// (connection.js). On `paired` the seat is saved (as a quick race's, with the arena's id) and
// the race page opens at once: no click between races. The arena entered is remembered in
// sessionStorage while entered (arenas.js's memory), so a reload opens the socket again; the
// arena's end, a refusal, or a welcome that says this player is no entrant forgets it.
// Pages listen with onArena(fn), called with the arena's state and the frame (null at first).

import { EMPTY, reduce, remember, isNewRace, wentTo } from "./arenas.js";
import { Connection } from "../shared/connection.js";
import { me } from "../shared/session.js";
import { saveRoomSeat } from "../shared/storage.js";

const KEY = "sr.arena";

let memory = load(); // {arena_id, rooms} while entered, else null
let state = EMPTY;
/** @type {(Connection & { arenaId?: string }) | null} the open socket, and for which arena */
let socket = null;
const listeners = new Set();

function load() {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? "null");
  } catch {
    return null;
  }
}

function save() {
  try {
    if (memory) sessionStorage.setItem(KEY, JSON.stringify(memory));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Private mode: the socket lives for this page load only.
  }
}

/** The arena this tab plays in (its socket open), or null. */
export const enteredArena = () => memory?.arena_id ?? null;
/** The races this tab was sent to, with the arena's id: {arena_id, rooms} or null. */
export const arenaMemory = () => memory;
export const arenaState = () => state;

/** Call fn(state, frame) now (frame null) and on every change; returns the way to stop. */
export function onArena(fn) {
  listeners.add(fn);
  fn(state, null);
  return () => listeners.delete(fn);
}

function emit(frame) {
  for (const fn of listeners) fn(state, frame);
}

/** Open the remembered arena's socket again (main.js, once per page load). */
export function startArenas() {
  if (memory) open();
}

/** Play in an arena from this tab (entered over HTTP first): its socket, remembered. */
export function playArena(arenaId) {
  memory = remember(memory, arenaId);
  save();
  open();
}

/** This tab's own news of the entrant's line (a pause asked for), before the next frame. */
export function setPaused(paused) {
  if (!state.you) return;
  state = { ...state, you: { ...state.you, paused } };
  emit(null);
}

function open() {
  const arenaId = memory.arena_id;
  if (socket?.arenaId === arenaId) return;
  socket?.close();
  state = EMPTY;
  socket = new Connection(`/ws/arenas/${encodeURIComponent(arenaId)}`, {
    hello: () => ({ type: "hello", session: true }),
    onFrame: (frame) => heard(arenaId, frame),
    onState: (now) => now === "failed" && forget(), // refused (1008): no entrant here
  });
  socket.arenaId = arenaId;
  socket.connect();
}

function heard(arenaId, frame) {
  if (memory?.arena_id !== arenaId) return;
  state = reduce(state, frame);
  const over = frame.type === "ended" || frame.arena?.status === "finished";
  if (frame.type === "welcome" && frame.token && !over && isNewRace(memory, frame.room_id)) {
    go(frame.room_id, frame.token); // a race under way this tab has not been to
  } else if (frame.type === "paired") {
    go(frame.room_id, frame.token);
  }
  emit(frame);
  const stranger = frame.type === "welcome" && !frame.you;
  if (over || stranger || (frame.type === "error" && frame.code === "not_found")) forget();
}

let holdUntil = 0; // the next race's page waits until then (the last race's results shown)

/** Keep the page on a race's results a moment before the next race's opens (race.js). */
export function holdNextRace(ms) {
  holdUntil = Date.now() + ms;
}

/** Save the race's seat and open its page (once the last race's results have been seen). */
function go(roomId, token) {
  const playerId = state.you?.player_id ?? me()?.player_id;
  saveRoomSeat(roomId, { player_id: playerId, token, quick: true, arena: memory.arena_id });
  memory = wentTo(memory, roomId);
  save();
  const open = () => (location.hash = `#/room/${encodeURIComponent(roomId)}`);
  const wait = holdUntil - Date.now();
  if (wait > 0) setTimeout(open, wait);
  else open();
}

/** Forget the arena: its socket closed, the state kept for the pages showing its end. */
function forget() {
  memory = null;
  save();
  const closing = socket;
  socket = null;
  closing?.close();
}
