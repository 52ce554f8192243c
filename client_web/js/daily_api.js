// The daily deal's and the rematch's HTTP calls (docs/protocol.md, "The daily deal" and
// "Rematches and private rooms").

import { api } from "./api.js";

export const DAILY_GAMES = ["stalactites", "squadron"];

const game = (g) => encodeURIComponent(g);

export const dailyToday = (g) => api("GET", `/api/daily/${game(g)}`);
export const startAttempt = (g) => api("POST", `/api/daily/${game(g)}/attempts`, {});
export const dailyBoard = (g, date, offset = 0, limit = 50) =>
  api(
    "GET",
    `/api/daily/${game(g)}/${encodeURIComponent(date)}/leaderboard?limit=${limit}&offset=${offset}`,
  );
export const dailyArchive = (g) => api("GET", `/api/daily/${game(g)}/archive?limit=14`);
export const proposeRematch = (roomId, token) =>
  api("POST", `/api/rooms/${encodeURIComponent(roomId)}/rematch`, { token });
