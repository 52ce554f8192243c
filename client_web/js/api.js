// The HTTP API (issue 4 and 5): JSON in, JSON out, errors as ApiError with a message.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
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
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw errorFrom(response.status, data);
  return data;
}

function errorFrom(status, data) {
  const code = data?.code ?? data?.error ?? `http_${status}`;
  let message = data?.message ?? (typeof data?.detail === "string" ? data.detail : null);
  if (!message && Array.isArray(data?.detail)) {
    message = data.detail.map((d) => `${(d.loc ?? []).join(".")}: ${d.msg}`).join("; ");
  }
  const fallback = {
    404: "Not found.",
    409: "That is no longer possible.",
    429: "Too many requests; wait a moment.",
  };
  return new ApiError(
    status,
    code,
    message ?? fallback[status] ?? `The server answered ${status}.`,
  );
}

export const getRoom = (id) => api("GET", `/api/rooms/${encodeURIComponent(id)}`);
export const createRoom = (settings) => api("POST", "/api/rooms", settings);
export const joinRoom = (id, name) =>
  api("POST", `/api/rooms/${encodeURIComponent(id)}/players`, { name });
export const listRooms = (status) => api("GET", `/api/rooms?status=${encodeURIComponent(status)}`);
export const getRecord = (id) => api("GET", `/api/rooms/${encodeURIComponent(id)}/record`);

export const getTournament = (id) => api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
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
