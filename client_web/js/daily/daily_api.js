// @ts-check
// The daily deal's and the rematch's HTTP calls (docs/protocol.md, "The daily deal" and
// "Rematches and private rooms").

import { api } from "../shared/api.js";

export const DAILY_GAMES = ["stalactites", "squadron"];

const game = (g) => encodeURIComponent(g);

export const dailyToday = (g) => api("GET", `/api/daily/${game(g)}`);
export const startAttempt = (g) => api("POST", `/api/daily/${game(g)}/attempts`, {});
/** One of a day's boards: "ranked" (registered players) or "guests" (anonymous, apart). */
export const dailyBoard = (g, date, board = "ranked", offset = 0, limit = 50) =>
  api(
    "GET",
    `/api/daily/${game(g)}/${encodeURIComponent(date)}/leaderboard` +
      `?limit=${limit}&offset=${offset}&board=${board}`,
  );
export const dailyArchive = (g) => api("GET", `/api/daily/${game(g)}/archive?limit=14`);
export const proposeRematch = (roomId, token) =>
  api("POST", `/api/rooms/${encodeURIComponent(roomId)}/rematch`, { token });
