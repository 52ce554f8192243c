// @ts-check
// Arenas' HTTP calls (server/stalactites/web/arenas/arena_http.py). Entering, pausing,
// resuming and creating are asked `quietly`: a refusal (the arena closed, a rating band) is
// shown to the player in words and logs no error in the console. arenaError says what to
// tell of one.

import { errorText, quietly } from "../shared/api.js";
import { has, t } from "../shared/i18n.js";

const id = (arenaId) => encodeURIComponent(arenaId);

/** "scheduled", "running" or "finished": {arenas: [summary]}. */
export const listArenas = (status) => quietly("GET", `/api/arenas?status=${status}`);
/** The arena, 50 lines of its standings from `offset`, your line, your race, the podium. */
export const getArena = (arenaId, offset = 0) =>
  quietly("GET", `/api/arenas/${id(arenaId)}${offset ? `?offset=${offset}` : ""}`);
/** {arena, admin_token}. */
export const createArena = (body) => quietly("POST", "/api/arenas", body);
export const enterArena = (arenaId) => quietly("POST", `/api/arenas/${id(arenaId)}/players`);
export const pauseArena = (arenaId, paused) =>
  quietly("POST", `/api/arenas/${id(arenaId)}/${paused ? "pause" : "resume"}`);
/** Race the race you are paired in berserk (before it starts): {berserk, room_id}. */
export const goBerserk = (arenaId) => quietly("POST", `/api/arenas/${id(arenaId)}/berserk`);

/** What to tell the player of a refused arena request. */
export function arenaError(error) {
  const own = `arenas.error.${error?.code}`; // the arenas' own words, else any error's
  if (has(own)) return t(own);
  return errorText(error);
}
