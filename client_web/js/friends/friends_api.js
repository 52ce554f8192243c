// @ts-check
// Friends' HTTP calls (docs/protocol.md, "Friends"), each asked `quietly`: a refusal (no
// account, a challenge open already, too many) is shown to the player in words, and logs no
// error in the console. friendsError says what to tell of one.

import { ApiError, errorText, quietly } from "../shared/api.js";
import { has, t } from "../shared/i18n.js";

const id = (playerId) => encodeURIComponent(playerId);

export const relationTo = (playerId) => quietly("GET", `/api/me/following/${id(playerId)}`);
export const follow = (playerId) => quietly("PUT", `/api/me/following/${id(playerId)}`);
export const unfollow = (playerId) => quietly("DELETE", `/api/me/following/${id(playerId)}`);
export const block = (playerId) => quietly("PUT", `/api/me/blocked/${id(playerId)}`);
export const unblock = (playerId) => quietly("DELETE", `/api/me/blocked/${id(playerId)}`);
/** "following" or "followers": the first page, {players: [{player_id, name, since_ms}], total}. */
export const listOf = (name) => quietly("GET", `/api/me/${name}`);
export const opponents = () => quietly("GET", "/api/me/opponents");
export const presenceHidden = async () => (await quietly("GET", "/api/me/presence")).hidden;
export const hidePresence = (hidden) => quietly("PUT", "/api/me/presence", { hidden });

export const sendChallenge = async (body) =>
  (await quietly("POST", "/api/challenges", body)).challenge;
/** Accept: {challenge, room_id, token} (your seat in the race). */
export const acceptChallenge = (challengeId) =>
  quietly("POST", `/api/challenges/${id(challengeId)}/accept`, {});
export const answerChallenge = (challengeId, how) =>
  quietly("POST", `/api/challenges/${id(challengeId)}/${how}`, {});

export const inbox = () => quietly("GET", "/api/me/notifications");
export const markRead = (upToMs) =>
  quietly("POST", "/api/me/notifications/read", { up_to_ms: upToMs });

/** What to tell the player of a refused friends' request. */
export function friendsError(error) {
  if (error instanceof ApiError && error.status === 401) return t("friends.error.unauthorized");
  const own = `friends.error.${error?.code}`; // the friends' own words, else any error's
  if (has(own)) return t(own);
  if (error?.code === "bad_message" && error.message) return error.message;
  return errorText(error);
}
