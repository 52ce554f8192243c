// @ts-check
// Friends' state, from the notification socket's frames (docs/friends.md): the followed
// players online now, the open challenges sent and received, and the unread notifications'
// count. Pure functions of plain data (no DOM, no clock of their own), so node tests them;
// notify.js holds the state and the views draw it.

export const EMPTY = Object.freeze({ you: null, online: [], challenges: [], unread: 0 });

export const TIME_LIMITS_MIN = [3, 5, 10, 15];
const STEPS = ["choice", "ones", "twos"];

const byName = (a, b) => a.name.localeCompare(b.name) || a.player_id.localeCompare(b.player_id);
const newestFirst = (a, b) => b.created_ms - a.created_ms;

/** The state after one frame (a frame of another type leaves it as it was). */
export function reduce(state, frame) {
  switch (frame?.type) {
    case "welcome":
      return {
        you: frame.player_id,
        online: (frame.online ?? []).filter((f) => f.status !== "offline").sort(byName),
        challenges: (frame.challenges ?? []).filter((c) => c.status === "open").sort(newestFirst),
        unread: frame.unread ?? 0,
      };
    case "presence":
      return { ...state, online: withPresence(state.online, frame.friend) };
    case "challenge":
      return { ...state, challenges: withChallenge(state.challenges, frame.challenge) };
    case "notification":
      return frame.note?.read ? state : { ...state, unread: state.unread + 1 };
    default:
      return state;
  }
}

/** The online list with one friend's news: in (online or racing, by name) or out (offline). */
export function withPresence(online, friend) {
  const others = online.filter((f) => f.player_id !== friend.player_id);
  return friend.status === "offline" ? others : [...others, friend].sort(byName);
}

/** The open challenges with one's news: kept (newest first) while open, else dropped. */
export function withChallenge(challenges, challenge) {
  const others = challenges.filter((c) => c.challenge_id !== challenge.challenge_id);
  return challenge.status === "open" ? [...others, challenge].sort(newestFirst) : others;
}

/** The challenges still open at `now` (server ms): an unanswered one expires by itself. */
export const live = (challenges, now) =>
  challenges.filter((c) => c.status === "open" && c.expires_ms > now);

/** Whole seconds left to answer, never below 0. */
export const secondsLeft = (challenge, now) =>
  Math.max(0, Math.ceil((challenge.expires_ms - now) / 1000));

/** Whether `you` sent it (else it was sent to you). */
export const sentBy = (challenge, you) => challenge.from_id === you;

/** The other player of a challenge: {player_id, name}. */
export function otherOf(challenge, you) {
  return sentBy(challenge, you)
    ? { player_id: challenge.to_id, name: challenge.to_name }
    : { player_id: challenge.from_id, name: challenge.from_name };
}

/** A challenge's terms as catalogue parts: [key, params] for the game, step, time, rating. */
export function termsOf(challenge) {
  const parts = [[`game.${challenge.game}`, {}]];
  if (challenge.game === "stalactites" && challenge.step) {
    parts.push([`step.${challenge.step}`, {}]);
  }
  parts.push(["unit.minutes", { n: Math.round(challenge.time_limit_s / 60) }]);
  parts.push([challenge.rated ? "friends.rated" : "friends.unrated", {}]);
  return parts;
}

/** POST /api/challenges' body from the dialog's choices (a step for Stalactites only). */
export function challengeBody({ playerId, game, step, minutes, rated }) {
  const body = { player_id: playerId, game, time_limit_s: Number(minutes) * 60, rated };
  if (game === "stalactites") body.step = STEPS.includes(step) ? step : "choice";
  return body;
}

/** The body of "Challenge again": a finished room's game, step, time limit and rating. */
export function againBody(room, playerId) {
  const minutes = Math.max(1, Math.round((room.time_limit_s ?? 600) / 60));
  return challengeBody({
    playerId,
    game: room.game === "squadron" ? "squadron" : "stalactites",
    step: room.step,
    minutes,
    rated: Boolean(room.rated),
  });
}

/**
 * A notification in words: its catalogue key and the params it fills in.
 * @returns {import("../shared/i18n.js").Phrase}
 */
export function noteWords(note) {
  const data = note.data ?? {};
  const name = data.name || "?";
  switch (note.kind) {
    case "followed":
      return ["notes.followed", { name }];
    case "daily_beaten":
      return ["notes.dailyBeaten", { name, game: data.game, ms: data.elapsed_ms }];
    case "report_acted":
      return ["notes.reportActed", { name }];
    case "refund":
      return ["notes.refund", { name, n: data.points ?? 0 }];
    case "arena_soon": {
      const n = Math.max(1, Math.round(((data.starts_ms ?? 0) - (note.ms ?? 0)) / 60000));
      return ["notes.arenaSoon", { name, n }];
    }
    default:
      return ["notes.other", {}];
  }
}

/** The time up to which the inbox is read: its newest note's (0 for none). */
export const readUpTo = (notes) => notes.reduce((top, note) => Math.max(top, note.ms), 0);

/** Whether a results row is a racer one may follow and challenge: another persistent player
 * (ids "p."; the server still refuses one without an account), never a ghost's seat. */
export const followable = (row, you) =>
  Boolean(row?.player_id?.startsWith("p.")) && !row.ghost_of && row.player_id !== you;
