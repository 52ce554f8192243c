// @ts-check
// Ghost races in the client: "Race this run" (a new room on a finished run's deal, with that
// run's ghost as the opponent) and the ghost's mark wherever a racer's name is shown.

import { errorText, raceGhost } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { ensurePlayer, me } from "./session.js";
import { roomSeat, saveRoomSeat } from "./storage.js";

/** A racer's name, marked as a ghost's ("ghost of NAME") when the seat replays a run. */
export function racerName(p) {
  if (!p?.ghost_of) return h("span", { class: "racer-name" }, p?.name ?? p?.player_id ?? "?");
  return h(
    "span",
    { class: "racer-name ghost", title: t("ghost.hint") },
    h("span", { class: "ghost-mark", "aria-hidden": "true" }, "◌"),
    t("ghost.of", { name: p.ghost_of }),
  );
}

/** Start a ghost race of this run (a seat of a finished room) and go to its room. */
export async function raceThisRun(roomId, playerId) {
  await ensurePlayer(); // a session: anonymous if need be
  const answer = await raceGhost(roomId, playerId);
  saveRoomSeat(answer.room_id, { player_id: answer.player_id, token: answer.token });
  location.hash = `#/room/${encodeURIComponent(answer.room_id)}`;
}

/** The "Race this run" button for a run (room and seat); errors are told in a toast. */
export function raceRunButton(roomId, playerId) {
  const run = async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      await raceThisRun(roomId, playerId);
    } catch (error) {
      toast(errorText(error), "error");
      button.disabled = false;
    }
  };
  return h(
    "button",
    { class: "btn btn-small race-run", dataset: { run: `${roomId}|${playerId}` }, onclick: run },
    t("ghost.raceRun"),
  );
}

/**
 * The button for a results row, or null: not a ghost's line, not yours, a certified deal.
 * Yours: the seat `you` (when the page knows it), the seat this browser holds in the room, or
 * the signed-in player's own id (the server refuses a player's own run).
 */
export function runAction(room, you = null) {
  if (!room?.certified || room.status !== "finished") return () => null;
  const yours = new Set([you, roomSeat(room.room_id)?.player_id, me()?.player_id]);
  yours.delete(null);
  yours.delete(undefined);
  return (row) =>
    row.ghost_of || yours.has(row.player_id) ? null : raceRunButton(room.room_id, row.player_id);
}
