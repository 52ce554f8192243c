// @ts-check
// The notification socket (/ws/notify, docs/friends.md): one per tab for the client's whole
// life, open while the signed-in player has an account (its hello names the session cookie).
// It reconnects with backoff and pings every 25 s (connection.js); each welcome sets the
// friends' state afresh (friends.js), each presence, challenge and notification frame moves
// it on. Views listen with onFriends(fn), called with the state and the frame (null for a
// change of this tab's own: a new player, the inbox read).

import { syncClock } from "../shared/clock.js";
import { Connection } from "../shared/connection.js";
import { EMPTY, reduce } from "./friends.js";
import { onPlayer } from "../shared/session.js";

const PING_MS = 25_000;

let state = EMPTY;
let socket = null;
let owner = null; // the registered player whose socket is open, or null
const listeners = new Set();

export const friendsState = () => state;

/** Call fn(state, frame) now (frame null) and on every change; returns the way to stop. */
export function onFriends(fn) {
  listeners.add(fn);
  fn(state, null);
  return () => listeners.delete(fn);
}

function emit(frame) {
  for (const fn of listeners) fn(state, frame);
}

/** Apply a frame (from the socket, or one this tab made of an HTTP answer) and tell. */
export function applyFrame(frame) {
  state = reduce(state, frame);
  emit(frame);
}

/** The unread count the server gave after the inbox was read. */
export function setUnread(unread) {
  state = { ...state, unread };
  emit(null);
}

/** A player no longer followed (unfollowed, blocked): off the online list at once. */
export function unfollowed(playerId) {
  applyFrame({ type: "presence", friend: { player_id: playerId, name: "", status: "offline" } });
}

/** Open the socket whenever the tab's player is registered (once per player), else none. */
export function startNotify() {
  syncClock(); // challenges expire by the server's clock
  onPlayer((profile) => {
    const who = profile?.registered ? profile.player_id : null;
    if (who === owner) return;
    socket?.close();
    socket = null;
    owner = who;
    state = EMPTY;
    emit(null);
    if (!who) return;
    socket = new Connection("/ws/notify", {
      hello: () => ({ type: "hello", session: true }),
      onFrame: applyFrame,
      pingMs: PING_MS,
    });
    socket.connect();
  });
}
