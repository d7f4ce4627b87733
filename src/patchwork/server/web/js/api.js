import { currentLanguage } from "./i18n.js";

// The HTTP API (docs/server.md): JSON in, JSON out; every failure becomes an ApiError
// carrying the server's code and message, or a "network" code when nothing came back.

export class ApiError extends Error {
  constructor(code, message, status = 0, extra = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.extra = extra;
    this.plain = extra.plain;
  }
}

async function request(method, path, body, token) {
  // The server's messages (errors above all) come in the page's language.
  const headers = { accept: "application/json", "accept-language": currentLanguage() };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError("network", String(e && e.message ? e.message : e));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error ? data.error : {};
    const { code, message, ...extra } = err;
    throw new ApiError(code || "http_" + response.status, message || response.statusText,
      response.status, extra);
  }
  if (data === null) throw new ApiError("bad_answer", "the server's answer was not JSON");
  return data;
}

export const api = {
  meta: () => request("GET", "/api/meta"),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/games", body),
  join: (id, invite, name) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/join`, { invite, name }),
  move: (id, token, move, version) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move, version }, token),
  replay: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/replay`),
  review: (id, token) => request("POST", `/api/games/${encodeURIComponent(id)}/review`, undefined, token),
  reviewStatus: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/review`),
  recent: (limit = 10) => request("GET", `/api/games?limit=${limit}`),
};
