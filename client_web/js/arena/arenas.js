// @ts-check
// Arenas' state for the pages (docs/tournaments.md, "Arenas"): an arena as last heard (the
// HTTP answer, then the arena socket's frames), its clock, the standings lines shown, the
// lobby's lines, the create form's body, and what this tab remembers of the arena it entered.
// Pure functions of plain data (no DOM, no clock of their own, words as [key, params]), so
// node tests them; arenasocket.js and the pages hold the state and draw it.

export const TOP = 10; // the live standings' lines (the socket's `top`)
export const PAGE = 50; // the full standings' page (GET /api/arenas/{id}?offset=K)
export const DURATIONS_MIN = [30, 60, 90, 120];
export const TIME_LIMITS_MIN = [3, 5, 10];
const STEPS = ["choice", "ones", "twos"];
const BAND_TOP = 5000; // the highest rating a band may name
const KEPT_ROOMS = 20; // the races remembered as gone to (a welcome's race is new or not)

export const EMPTY = Object.freeze({
  arena: null,
  status: null,
  top: [],
  you: null,
  entrants: 0,
  topRace: null,
  roomId: null,
  podium: null,
});

/** The state from GET /api/arenas/{id}'s answer. */
export function fromAnswer(answer) {
  const arena = answer.arena;
  return {
    arena,
    status: arena.status,
    top: (answer.standings ?? []).slice(0, TOP),
    you: answer.you ?? null,
    entrants: arena.entrants,
    topRace: null,
    roomId: answer.room_id ?? null,
    podium: answer.podium ?? null,
  };
}

/** The state after one arena socket frame (another type leaves it as it was). A spectator's
 * frames have no `you`: the line known from HTTP stays. */
export function reduce(state, frame) {
  switch (frame?.type) {
    case "welcome":
      return {
        ...state,
        arena: frame.arena,
        status: frame.arena.status,
        entrants: frame.arena.entrants,
        you: frame.you ?? state.you,
        roomId: frame.room_id ?? null,
      };
    case "standings":
      return {
        ...state,
        status: frame.status,
        top: frame.top,
        you: frame.you ?? state.you,
        entrants: frame.entrants,
        topRace: frame.top_race,
        arena: state.arena && { ...state.arena, status: frame.status, entrants: frame.entrants },
      };
    case "paired":
      return { ...state, roomId: frame.room_id };
    case "ended":
      return {
        ...state,
        status: "finished",
        podium: frame.podium,
        you: frame.you ?? state.you,
        topRace: null,
        roomId: null,
        arena: state.arena && { ...state.arena, status: "finished" },
      };
    default:
      return state;
  }
}

/**
 * What the arena's clock shows at `now` (server ms): {key, ms}, the key one of
 * arenas.startsIn (before the start), arenas.endsIn (running), arenas.lastRaces (the time is
 * up, the races under way are finishing) or arenas.over.
 */
export function clockOf(arena, status, now) {
  if (!arena || status === "finished") return { key: "arenas.over", ms: 0 };
  if (now < arena.starts_ms) return { key: "arenas.startsIn", ms: arena.starts_ms - now };
  if (now < arena.ends_ms) return { key: "arenas.endsIn", ms: arena.ends_ms - now };
  return { key: "arenas.lastRaces", ms: 0 };
}

/** The live standings' lines: the top ten, then yours (marked `apart`) when you are below. */
export function shownLines(top, you, limit = TOP) {
  const mine = (line) => line.player_id === you?.player_id;
  const lines = top.slice(0, limit).map((line) => ({ ...line, mine: mine(line) }));
  if (you && !lines.some((line) => line.mine)) lines.push({ ...you, mine: true, apart: true });
  return lines;
}

/** A line's performance as shown: the number, or a dash before any race counts. */
export const performanceText = (line) =>
  line.performance === null || line.performance === undefined ? "—" : String(line.performance);

/** A line's state in words, as [key, params] (null: nothing to say). */
export function lineState(line) {
  if (line.paused) return ["arenas.paused", {}];
  if (line.racing) return ["arenas.racing", {}];
  return null;
}

/** The offsets of the full standings' pages: [{offset, first, last}] for `total` lines. */
export function pagesOf(total, size = PAGE) {
  const pages = [];
  for (let offset = 0; offset < total; offset += size) {
    pages.push({ offset, first: offset + 1, last: Math.min(total, offset + size) });
  }
  return pages;
}

/** @typedef {import("../shared/i18n.js").Phrase} Phrase */

/**
 * An arena's terms as [key, params] parts: game, step, race time, seats, length, rated.
 * @returns {Phrase[]}
 */
export function termsOf(arena) {
  /** @type {Phrase[]} */
  const parts = [[`game.${arena.game}`, {}]];
  if (arena.game === "stalactites" && arena.step) parts.push([`step.${arena.step}`, {}]);
  parts.push(["arenas.raceMinutes", { n: Math.round(arena.time_limit_s / 60) }]);
  if (arena.seats > 2) parts.push(["settings.seats", { n: arena.seats }]);
  parts.push(["arenas.lasts", { n: arena.duration_min }]);
  const [low, high] = [arena.min_rating ?? null, arena.max_rating ?? null];
  if (low !== null || high !== null) {
    parts.push(["arenas.band", { low: low ?? 0, high: high ?? BAND_TOP }]);
  }
  if (arena.rated) parts.push(["settings.rated", {}]);
  return parts;
}

/** The name of an arena the server's schedule made ("stalactites/choice@60/50": hourly), as
 * [key, params] (`game`: the game name's own key), so it is said in the page's language; null
 * for an organiser's own arena.
 * @returns {Phrase | null} */
export function recurringName(arena) {
  const found = /^(\w+)(?:\/\w+)?@(\d+)\//.exec(arena.recurring ?? "");
  if (!found) return null;
  const game = `game.${found[1] === "squadron" ? "squadron" : "stalactites"}`;
  const every = Number(found[2]);
  if (every === 60) return ["arenas.hourly", { game }];
  if (every === 1440) return ["arenas.daily", { game }];
  return ["arenas.every", { game, n: every }];
}

/** The lobby's list of running or scheduled arenas: soonest end (or start) first. */
export function lobbyOrder(arenas, status) {
  const when = (a) => (status === "scheduled" ? a.starts_ms : a.ends_ms);
  return [...arenas].sort((a, b) => when(a) - when(b) || a.name.localeCompare(b.name));
}

/**
 * POST /api/arenas' body from the create form's values (a step for Stalactites only).
 * @param {{ name?: string, game?: string, step?: string, duration_min?: number | string,
 *   minutes?: number | string, seats?: number | string, rated?: boolean }} values
 */
export function createBody({ name, game, step, duration_min, minutes, seats, rated }) {
  const body = {
    name: String(name ?? "").trim(),
    game: game === "squadron" ? "squadron" : "stalactites",
    duration_min: Number(duration_min) || 60,
    time_limit_s: Math.round((Number(minutes) || 5) * 60),
    seats: Math.min(4, Math.max(2, Number(seats) || 2)),
    rated: Boolean(rated),
  };
  if (body.game === "stalactites") body.step = STEPS.includes(step) ? step : "choice";
  return body;
}

// What this tab remembers of the arena it entered (sessionStorage, for the tab's life): the
// arena's id and the races it was sent to, so a reload reopens the socket and a welcome's race
// under way is gone to once, not again after the player left it for the arena page.

/** Entered `arenaId`: a fresh memory (the same one kept when already there). */
export function remember(memory, arenaId) {
  return memory?.arena_id === arenaId ? memory : { arena_id: arenaId, rooms: [] };
}

/** Whether a race (a pairing's, or the welcome's race under way) is one not yet gone to. */
export const isNewRace = (memory, roomId) =>
  Boolean(roomId) && !(memory?.rooms ?? []).includes(roomId);

/** The memory with a race gone to. */
export function wentTo(memory, roomId) {
  const rooms = [...(memory?.rooms ?? []).filter((r) => r !== roomId), roomId];
  return { ...memory, rooms: rooms.slice(-KEPT_ROOMS) };
}

/** The arena a room's race belongs to, as this tab knows it: the seat's, else the memory's. */
export function arenaOfRoom(seat, memory, roomId) {
  if (seat?.arena) return seat.arena;
  return memory && (memory.rooms ?? []).includes(roomId) ? memory.arena_id : null;
}

/** What an arena race's end screen says of the next race, as a key: it starts by itself, the
 * entrant is paused, or the arena is over. */
export function nextRaceKey(state) {
  if (state?.status === "finished") return "arenas.overNote";
  if (state?.you?.paused) return "arenas.pausedNote";
  return "arenas.nextByItself";
}
