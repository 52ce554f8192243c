// @ts-check
// What this browser remembers: the player's name, and the seat tokens it holds
// (per room and per tournament), so a reload or a lost connection resumes the race.

const PREFIX = "sr.";

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + key) ?? "null");
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Private mode or a full disk: the page still works, it just forgets on reload.
  }
}

export const savedName = () => read("name") ?? "";
export const savedLanguage = () => read("lang");
export const saveLanguage = (lang) => write("lang", lang);
/** Whether this browser has been offered the guided first game (offered once, on the first visit). */
export const guideOffered = () => read("guide.offered") === true;
export const saveGuideOffered = () => write("guide.offered", true);
export const saveName = (name) => write("name", name);

/** {player_id, token, tournament?} for a room this browser has a seat in. */
export const roomSeat = (roomId) => read(`room.${roomId}`);
export const saveRoomSeat = (roomId, seat) => write(`room.${roomId}`, seat);

export const tournamentSeat = (id) => read(`tournament.${id}`);
export const saveTournamentSeat = (id, seat) => write(`tournament.${id}`, seat);

/** The move sent but not yet answered, kept across a reload so it is neither lost nor doubled. */
export const pendingMove = (roomId) => read(`pending.${roomId}`);
export const savePendingMove = (roomId, frame) => write(`pending.${roomId}`, frame);

/** A fresh client move id: random per page load, then counting. Unique per player. */
const session = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) =>
  b.toString(16).padStart(2, "0"),
).join("");
let counter = 0;
export function newMoveId() {
  counter += 1;
  return `${session}-${counter}`;
}
