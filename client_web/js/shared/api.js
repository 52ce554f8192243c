// @ts-check
// The HTTP API (issue 4 and 5): JSON in, JSON out, errors as ApiError with the server's code.
// The server's messages are English; a player is shown the catalogue's text for the code,
// `error.<code>` (errorText), and for a bad field the field's own advice. The catalogues have
// a text for every code the server can send (tests/test_client_error_codes.py); api.js adds
// its own: `network` (no answer), `conflict` (a 409 without a code) and `http_<status>`.

import { has, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, field = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

const FIELDS = new Set([
  "deal",
  "name",
  "seats",
  "time_limit_s",
  "countdown_s",
  "spectator_delay_s",
  "rounds",
  "round_time_s",
  "break_s",
  "max_players",
  "rated",
]);

/** What to tell a player about an error (an ApiError, or a frame's {code, field}). */
export function errorText(error) {
  const field = typeof error?.field === "string" ? error.field.split(".").pop() : null;
  if (error?.code === "bad_message" && FIELDS.has(field))
    return t(`error.field.${field}`, { max: 2 ** 31 - 1 });
  if (typeof error?.code === "string" && has(`error.${error.code}`))
    return t(`error.${error.code}`);
  return t("error.other", { status: error?.status ?? "?" });
}

export async function api(method, path, body = undefined, headers = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", "network");
  }
  const data = await response.json().catch(() => null);
  const refused = Number(response.headers.get("Stalactites-Refused")) || 0;
  if (refused) throw errorFrom(refused, data);
  if (!response.ok) throw errorFrom(response.status, data);
  return data;
}

/** A request whose refusals (4xx) the caller expects and shows the player in words: the
 * server answers them 200 with the refusal's status in `Stalactites-Refused` (so the browser
 * logs no error in its console); they are thrown as ApiError all the same. */
export const quietly = (method, path, body = undefined, headers = {}) =>
  api(method, path, body, { ...headers, "Stalactites-Refusal": "quiet" });

function errorFrom(status, data) {
  const code = data?.code ?? data?.error ?? `http_${status}`;
  let message = data?.message ?? (typeof data?.detail === "string" ? data.detail : null);
  if (!message && Array.isArray(data?.detail)) {
    message = data.detail.map((d) => `${(d.loc ?? []).join(".")}: ${d.msg}`).join("; ");
  }
  const fallback = { 404: "not_found", 409: "conflict", 429: "rate_limited" };
  const known = data?.code ?? fallback[status] ?? code;
  /** @type {ApiError & { retryAt?: number | null }} */
  const error = new ApiError(status, known, message ?? known, data?.field ?? null);
  error.retryAt = data?.retry_at_ms ?? null; // a rename too soon: when it may be (unix ms)
  return error;
}

export const getRoom = (id) => api("GET", `/api/rooms/${encodeURIComponent(id)}`);
export const createRoom = (settings) => api("POST", "/api/rooms", settings);
export const joinRoom = (id, name) =>
  api("POST", `/api/rooms/${encodeURIComponent(id)}/players`, { name });
export const listRooms = (status) => api("GET", `/api/rooms?status=${encodeURIComponent(status)}`);
export const askHint = (id, token) =>
  api("POST", `/api/rooms/${encodeURIComponent(id)}/hint`, { token });
export const raceGhost = (id, playerId) =>
  api("POST", `/api/rooms/${encodeURIComponent(id)}/ghost`, { player_id: playerId });
export const getRecord = (id) => api("GET", `/api/rooms/${encodeURIComponent(id)}/record`);
export const getAnalysis = (id) => api("GET", `/api/rooms/${encodeURIComponent(id)}/analysis`);

export const getTournament = (id) => api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
export const listTournaments = (status) =>
  api("GET", `/api/tournaments?status=${encodeURIComponent(status)}`);
export const createTournament = (settings) => api("POST", "/api/tournaments", settings);
export const joinTournament = (id, name) =>
  api("POST", `/api/tournaments/${encodeURIComponent(id)}/players`, { name });
export const startTournament = (id, adminToken) =>
  api(
    "POST",
    `/api/tournaments/${encodeURIComponent(id)}/start`,
    {},
    {
      Authorization: `Bearer ${adminToken}`,
    },
  );

/** The rooms in a list answer, whatever the paging wrapper is called. */
export function roomsOf(answer) {
  if (Array.isArray(answer)) return answer;
  return answer?.rooms ?? answer?.items ?? [];
}
