// @ts-check
// Who this browser is: the player of its session (issue 13). The session itself is an
// HttpOnly cookie the server sets and this page never reads; the page only asks who it is
// (GET /api/session: 200 with the player or null, so no failed request shows in the console
// before a session exists), and on a first visit gets a new anonymous player
// (POST /api/session {}). Signing in, registering and renaming ask `quietly`: their refusals
// (a wrong password, a name taken, a second rename the same day) are shown in the form, and
// logged as no error in the console; so are a recovery code's and a new set's.
// Pages read `me()` and listen with `onPlayer(fn)`; the header is one such listener.

import { api, quietly } from "./api.js";

let current = null; // the signed-in player's profile, or null
let asked = null; // the request under way
const listeners = new Set();

export const me = () => current;

/** Call fn(profile or null) now and on every change; returns the way to stop. */
export function onPlayer(fn) {
  listeners.add(fn);
  fn(current);
  return () => listeners.delete(fn);
}

function set(profile) {
  current = profile;
  for (const fn of listeners) fn(current);
  return current;
}

/** A profile just read: when it is the signed-in player's, the header shows it afresh. */
export function seen(profile) {
  if (current && profile?.player_id === current.player_id) set(profile);
}

/** The signed-in player, asked again of the server (null when there is no live session). */
export async function refreshMe() {
  const answer = await api("GET", "/api/session");
  return set(answer?.player ?? null);
}

/** The player of this browser: its session's, else a new anonymous one. */
export function ensurePlayer() {
  if (current) return Promise.resolve(current);
  asked ??= (async () => {
    const found = await refreshMe().catch(() => null);
    if (found) return found;
    try {
      await api("POST", "/api/session", {});
      return await refreshMe();
    } catch {
      return null; // a server without players: the page works with guest seats
    }
  })().finally(() => (asked = null));
  return asked;
}

export async function signIn(username, password) {
  await quietly("POST", "/api/session", { username, password }); // a wrong password: shown
  return refreshMe();
}

/** Register this player; its recovery codes, which the server shows this once. */
export async function register(username, password) {
  const { recovery_codes: codes, ...profile } = await quietly("POST", "/api/accounts", {
    username,
    password,
  });
  set(profile);
  return codes ?? [];
}

/** Sign in with a recovery code, setting a new password (every other session ends). */
export async function recover(username, code, password) {
  await quietly("POST", "/api/recover", { username, code, password });
  return refreshMe();
}

/** A new set of recovery codes in place of the old (the current password first). */
export async function newRecoveryCodes(password) {
  return (await quietly("POST", "/api/me/recovery-codes", { password })).recovery_codes;
}

export const recoveryCodesLeft = async () => (await api("GET", "/api/me/recovery-codes")).left;

/** Everything the server keeps of you (GET /api/me/export), as a document. */
export const exportData = () => quietly("GET", "/api/me/export");

/** Sign out (everywhere: every session of the player); then the browser is a newcomer. */
export async function signOut(everywhere = false) {
  await api("DELETE", `/api/session${everywhere ? "?everywhere=1" : ""}`);
  set(null);
}

/** A new display name (once a day: an ApiError rename_too_soon with retryAt). */
export async function rename(name) {
  return set(await quietly("PATCH", "/api/me", { name }));
}

export async function deleteAccount() {
  await api("DELETE", "/api/me");
  set(null);
}

export const profileOf = (who) => api("GET", `/api/players/${encodeURIComponent(who)}`);

export function racesOf(playerId, before = null, limit = 10) {
  const cursor = before ? `&before=${encodeURIComponent(before)}` : "";
  return api("GET", `/api/players/${encodeURIComponent(playerId)}/races?limit=${limit}${cursor}`);
}

export function leaderboard(game, { offset = 0, limit = 20, around = false } = {}) {
  const where = around ? "around=me" : `offset=${offset}`;
  return api("GET", `/api/leaderboards/${encodeURIComponent(game)}?limit=${limit}&${where}`);
}

/** The rating the header shows: the game the player has raced most (Stalactites at first). */
export function headlineRating(profile) {
  const ratings = Object.entries(profile?.ratings ?? {});
  if (!ratings.length) return null;
  ratings.sort(([a, x], [b, y]) => y.races - x.races || (a === "stalactites" ? -1 : 1));
  const [game, rating] = ratings[0];
  return { game, ...rating };
}
